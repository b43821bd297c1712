// ConfigRules: virtual routers and what the FEA and the RIBs would refuse (interfaces, kernel
// tables, static routes). The rule ids and reasons are in config_rules.cc.
#include <map>
#include <string>

#include "common/vrf_name.h"
#include "rtrmgr/config/rule_context.h"

namespace strata::rtrmgr {
namespace {

struct Seen {
  std::string vr;
  SourcePos pos;
};

std::string FirstAt(const SourcePos& pos) {
  const std::string at = RuleContext::At(pos);
  return at.empty() ? "" : " (" + at + ")";
}

// What a static route forwards to must be one thing: next hops (and an interface to reach them
// by), an interface alone, or a drop (blackhole, reject).
void CheckStaticRoute(const ConfigNode& vr, const ConfigNode& route, const std::string& path,
                      RuleContext& ctx) {
  auto prefix = RuleContext::PrefixText(route.first_arg());
  const ConfigNode* first_hop = nullptr;
  for (const ConfigNode& hop : route.children()) {
    if (hop.keyword() != "next-hop" || hop.args().empty()) continue;
    if (first_hop == nullptr) first_hop = &hop;
    auto nh = RuleContext::AddrText(hop.first_arg());
    if (!prefix || !nh || prefix->family() == nh->family()) continue;
    ctx.Report(
        "static-next-hop-family", RuleContext::ValuePos(hop), path,
        "next-hop " + nh->ToString() + " is not of the family of route " + prefix->ToString());
  }
  const ConfigNode* iface = RuleContext::Leaf(&route, "interface");
  const ConfigNode* blackhole = RuleContext::Leaf(&route, "blackhole");
  const ConfigNode* reject = RuleContext::Leaf(&route, "reject");
  const ConfigNode* drop = blackhole != nullptr ? blackhole : reject;
  if (first_hop == nullptr && iface == nullptr && drop == nullptr) {
    ctx.Report("static-route-empty", route.pos(), path,
               "route " + route.first_arg() +
                   " has no next-hop, interface, blackhole or reject: it would lead nowhere");
  }
  if (blackhole != nullptr && reject != nullptr) {
    ctx.Report(
        "static-drop-conflict", RuleContext::Later(*blackhole, *reject).pos(), path,
        "route " + route.first_arg() + " is both blackhole and reject: a route drops one way");
  }
  const ConfigNode* forward = first_hop != nullptr ? first_hop : iface;
  if (drop != nullptr && forward != nullptr) {
    ctx.Report("static-drop-conflict", RuleContext::Later(*drop, *forward).pos(), path,
               "route " + route.first_arg() + " is " + drop->keyword() + " and has " +
                   (forward == iface ? "an interface" : "a next-hop") +
                   ": a route that drops forwards nowhere");
  }
  if (iface != nullptr && !iface->args().empty()) {
    bool bound = false;
    for (const ConfigNode& b : vr.children()) {
      bound |=
          b.keyword() == "interface" && !b.args().empty() && b.first_arg() == iface->first_arg();
    }
    if (!bound) {
      ctx.ReportAt("static-interface-not-in-vr", *iface, path,
                   "interface '" + iface->first_arg() + "' is not bound to virtual-router '" +
                       vr.first_arg() + "': a route leaves by an interface of its VR");
    }
  }
}

void CheckStatic(const ConfigNode& vr, const std::string& vr_path, RuleContext& ctx) {
  const ConfigNode* stat = vr.FindChild("static");
  if (stat == nullptr) return;
  for (const ConfigNode& route : stat->children()) {
    if (route.keyword() != "route" || route.args().empty()) continue;
    CheckStaticRoute(vr, route, vr_path + " static route " + route.first_arg(), ctx);
  }
}

// The VR's VRF device (common/vrf_name.h): a Linux interface name, one VR's.
void CheckVrfDevice(const ConfigNode& vr, const std::string& vr_path, RuleContext& ctx,
                    std::map<std::string, Seen>& devices) {
  const std::string& name = vr.first_arg();
  const uint32_t table = ctx.U32(&vr, "virtual-router", "table-id").value_or(0);
  const ConfigNode* leaf = vr.FindChild("vrf-device");
  const std::string device = VrfDeviceName(name, table, leaf != nullptr ? leaf->first_arg() : "");
  if (device.empty()) return;
  const SourcePos pos = leaf != nullptr ? RuleContext::ValuePos(*leaf) : RuleContext::ValuePos(vr);
  if (Status s = CheckInterfaceName(device); !s.ok()) {
    ctx.Report("vrf-device-name", pos, vr_path,
               leaf != nullptr ? "vrf-device: " + s.message()
                               : "the VR's VRF device takes its name, and " + s.message() +
                                     " (Linux interface names): set vrf-device NAME");
    return;
  }
  auto [it, fresh] = devices.try_emplace(device, Seen{name, pos});
  if (fresh) return;
  ctx.Report("vrf-device-shared", pos, vr_path,
             "VRF device '" + device + "' is already virtual-router '" + it->second.vr + "''s" +
                 FirstAt(it->second.pos) + ": set another vrf-device");
}

}  // namespace

void CheckVirtualRouterRules(const ConfigNode& root, RuleContext& ctx) {
  std::map<std::string, Seen> interfaces;  // interface -> first VR binding it
  std::map<uint32_t, Seen> tables;         // non-zero table -> first VR using it
  std::map<std::string, Seen> devices;     // VRF device -> first VR having it
  for (const ConfigNode& vr : root.children()) {
    if (vr.keyword() != "virtual-router" || vr.args().empty()) continue;
    const std::string& name = vr.first_arg();
    const std::string vr_path = "virtual-router " + name;
    for (const ConfigNode& iface : vr.children()) {
      if (iface.keyword() != "interface" || iface.args().empty()) continue;
      const SourcePos pos = RuleContext::ValuePos(iface);
      auto [it, fresh] = interfaces.try_emplace(iface.first_arg(), Seen{name, pos});
      if (fresh || it->second.vr == name) continue;  // the same VR twice: a duplicate key
      ctx.Report("interface-in-two-vrs", pos, vr_path,
                 "interface '" + iface.first_arg() + "' is already bound to virtual-router '" +
                     it->second.vr + "'" + FirstAt(it->second.pos) +
                     ": an interface belongs to one VR");
    }
    if (const ConfigNode* t = vr.FindChild("table-id")) {
      auto id = RuleContext::U32Text(t->first_arg());
      if (id && *id != 0) {
        auto [it, fresh] = tables.try_emplace(*id, Seen{name, RuleContext::ValuePos(*t)});
        if (!fresh) {
          ctx.ReportAt("table-id-shared", *t, vr_path,
                       "kernel table " + std::to_string(*id) +
                           " already belongs to virtual-router '" + it->second.vr + "'" +
                           FirstAt(it->second.pos) +
                           ": each VR needs its own table (or 0 for none)");
        }
        if (*id == 253 || *id == 255) {
          ctx.ReportAt("table-id-reserved", *t, vr_path,
                       "table-id " + std::to_string(*id) + " is the kernel's " +
                           (*id == 255 ? "local" : "default") + " table: routes there " +
                           (*id == 255 ? "make addresses local to this host"
                                       : "are consulted after the main table") +
                           "; use a table of your own (1..252, 256..)");
        }
      }
    }
    CheckStatic(vr, vr_path, ctx);
    CheckVrfDevice(vr, vr_path, ctx, devices);
  }
  if (const ConfigNode* ifs = root.FindChild("interfaces")) {
    for (const ConfigNode& iface : ifs->children()) {
      if (iface.keyword() != "interface" || iface.args().empty()) continue;
      auto it = devices.find(iface.first_arg());
      if (it == devices.end()) continue;
      ctx.Report("vrf-device-shared", it->second.pos, "virtual-router " + it->second.vr,
                 "VRF device '" + iface.first_arg() + "' of virtual-router '" + it->second.vr +
                     "' is named like interface '" + iface.first_arg() + "'" +
                     FirstAt(RuleContext::ValuePos(iface)) + ": set another vrf-device");
    }
  }
}

}  // namespace strata::rtrmgr
