// ConfigRules: a VR's BGP settings (identifiers, confederation, damping, multipath,
// redistribution, networks) and the listening sockets of all VRs together. Peers are in
// rules_bgp_peer.cc; the rule ids and reasons are in config_rules.cc.
#include <cmath>
#include <string>
#include <vector>

#include "common/vrf_name.h"
#include "rtrmgr/config/rule_context.h"

namespace strata::rtrmgr {
namespace {

constexpr std::string_view kBgp = "virtual-router bgp";
constexpr std::string_view kDamping = "virtual-router bgp damping";
constexpr std::string_view kMultipath = "virtual-router bgp multipath";

bool Reserved(uint32_t as) { return as == 23456 || as == 65535 || as == 4294967295u; }

std::string ReservedWhy(uint32_t as) {
  return as == 23456 ? "AS_TRANS (RFC 6793)" : "reserved (RFC 7300)";
}

void CheckIdentifiers(const ConfigNode& bgp, const std::string& path, RuleContext& ctx) {
  if (const ConfigNode* id = RuleContext::Leaf(&bgp, "router-id")) {
    if (auto a = RuleContext::Addr(id); a && a->is_zero()) {
      ctx.ReportAt("bgp-router-id-zero", *id, path,
                   "router-id 0.0.0.0: the BGP Identifier must be non-zero (RFC 6286)");
    }
  }
  if (const ConfigNode* id = RuleContext::Leaf(&bgp, "cluster-id")) {
    if (auto a = RuleContext::Addr(id); a && a->is_zero()) {
      ctx.ReportAt("bgp-cluster-id-zero", *id, path,
                   "cluster-id 0.0.0.0: a CLUSTER_ID must be non-zero (leave it unset for the "
                   "router-id)");
    }
  }
  if (const ConfigNode* as = RuleContext::Leaf(&bgp, "local-as")) {
    if (auto v = RuleContext::U32Text(as->first_arg()); v && Reserved(*v)) {
      ctx.ReportAt("bgp-reserved-as", *as, path,
                   "local-as " + std::to_string(*v) + " is " + ReservedWhy(*v));
    }
  }
}

void CheckConfederation(const ConfigNode& bgp, const std::string& path, RuleContext& ctx) {
  const ConfigNode* id_leaf = RuleContext::Leaf(&bgp, "confederation-identifier");
  const ConfigNode* members = RuleContext::Leaf(&bgp, "confederation-members");
  // 0 for unset or malformed: neither AS may be 0.
  const uint32_t local_as = ctx.U32(&bgp, kBgp, "local-as").value_or(0);
  const uint32_t id =
      id_leaf != nullptr ? RuleContext::U32Text(id_leaf->first_arg()).value_or(0) : 0;
  if (members != nullptr && id_leaf == nullptr) {
    ctx.ReportAt("bgp-confederation-members-without-identifier", *members, path,
                 "confederation-members without confederation-identifier: set the identifier "
                 "(the AS the confederation shows outside) or delete the members");
  }
  if (id != 0 && id == local_as) {
    ctx.ReportAt("bgp-confederation-identifier-is-local-as", *id_leaf, path,
                 "confederation-identifier " + std::to_string(id) +
                     " equals local-as: local-as is this VR's member AS, the identifier the "
                     "confederation's AS outside (RFC 5065)");
  }
  if (members == nullptr) return;
  for (size_t i = 0; i < members->args().size(); ++i) {
    auto m = RuleContext::U32Text(members->args()[i].text);
    if (!m) continue;
    if (id != 0 && *m == id) {
      ctx.Report("bgp-confederation-identifier-is-member", RuleContext::ValuePos(*members, i), path,
                 "confederation-members lists " + std::to_string(*m) +
                     ", the confederation-identifier: the identifier is not a member AS");
    }
    if (*m == local_as) {
      ctx.Report("bgp-confederation-members-list-local-as", RuleContext::ValuePos(*members, i),
                 path,
                 "confederation-members lists local-as " + std::to_string(*m) +
                     ": the members are the other member ASes");
    }
  }
}

void CheckDamping(const ConfigNode& bgp, const std::string& path, RuleContext& ctx) {
  const ConfigNode* d = bgp.FindChild("damping");
  if (d == nullptr) return;
  const auto half_life = ctx.U32(d, kDamping, "half-life");
  const auto reuse = ctx.U32(d, kDamping, "reuse");
  const auto suppress = ctx.U32(d, kDamping, "suppress");
  const auto max_suppress = ctx.U32(d, kDamping, "max-suppress");
  if (!half_life || !reuse || !suppress || !max_suppress || *half_life == 0) return;
  // Point at whichever of the two the operator wrote (the later one if both).
  auto place = [&](const char* a, const char* b) -> const ConfigNode& {
    const ConfigNode* na = d->FindChild(a);
    const ConfigNode* nb = d->FindChild(b);
    if (na == nullptr) return nb != nullptr ? *nb : *d;
    if (nb == nullptr) return *na;
    return RuleContext::Later(*na, *nb);
  };
  if (*reuse >= *suppress) {
    const ConfigNode& at = place("reuse", "suppress");
    ctx.ReportAt("bgp-damping-reuse-above-suppress", at, path + " damping",
                 "damping reuse " + std::to_string(*reuse) + " is not below suppress " +
                     std::to_string(*suppress) +
                     ": a route is suppressed at suppress and reused below reuse (RFC 2439)");
    return;
  }
  const double half_lives = static_cast<double>(*max_suppress) / *half_life;
  const double ceiling = *reuse * std::exp2(half_lives);
  if (half_lives > 64 || ceiling < *suppress) {
    const ConfigNode& at = place("max-suppress", "half-life");
    const std::string why = half_lives > 64
                                ? "max-suppress " + std::to_string(*max_suppress) +
                                      " is more than 64 half-lives of " + std::to_string(*half_life)
                                : "the penalty ceiling reuse * 2^(max-suppress / half-life) = " +
                                      std::to_string(static_cast<uint64_t>(ceiling)) +
                                      " is below suppress " + std::to_string(*suppress) +
                                      ": no route would ever be suppressed (RFC 2439)";
    ctx.ReportAt("bgp-damping-ceiling", at, path + " damping", "damping: " + why);
  }
}

void CheckRedistributeAndNetworks(const ConfigNode& vr, const ConfigNode& bgp,
                                  const std::string& path, RuleContext& ctx) {
  if (const ConfigNode* r = bgp.FindChild("redistribute")) {
    for (size_t i = 0; i < r->args().size(); ++i) {
      if (r->args()[i].text != "static" || vr.FindChild("static") != nullptr) continue;
      ctx.Report("bgp-redistribute-without-static", RuleContext::ValuePos(*r, i), path,
                 "redistribute static, but the VR has no static block: nothing is redistributed "
                 "until it has one");
    }
  }
  if (const ConfigNode* cid = bgp.FindChild("cluster-id")) {
    bool clients = false;
    for (const ConfigNode& peer : bgp.children()) {
      if (peer.keyword() == "peer" &&
          ctx.Bool(&peer, "virtual-router bgp peer", "route-reflector-client") == true) {
        clients = true;
      }
    }
    if (!clients) {
      ctx.ReportAt("bgp-cluster-id-without-clients", *cid, path,
                   "cluster-id without any route-reflector-client peer: it has no effect");
    }
  }
  for (const ConfigNode& net : bgp.children()) {
    if (net.keyword() != "network") continue;
    const ConfigNode* nh_leaf = net.FindChild("next-hop");
    auto prefix = RuleContext::PrefixText(net.first_arg());
    auto nh = RuleContext::Addr(nh_leaf);
    if (!prefix || !nh || prefix->family() == nh->family()) continue;
    ctx.ReportAt(
        "bgp-network-next-hop-family", *nh_leaf, path + " network " + net.first_arg(),
        "next-hop " + nh->ToString() + " is not of the family of network " + prefix->ToString());
  }
}

// One VR's listening socket: its address (none: the any address of both families) and port.
struct Listen {
  std::string vr;
  // The VR's VRF device ("" the default VRF): listeners bound to two different devices never
  // clash; an unbound one (the default VRF) clashes with a bound one on its port (Linux's bind).
  std::string vrf;
  std::optional<IpAddr> address;
  uint32_t port = 179;
  SourcePos pos;
  bool has(Family f) const { return !address || address->family() == f; }
  // Takes every address of family `f` on its port.
  bool any(Family f) const { return !address || (address->family() == f && address->is_zero()); }
};

// Whether two listeners on one port would want the same address.
bool Clash(const Listen& a, const Listen& b) {
  for (const Family f : {Family::kIpv4, Family::kIpv6}) {
    if (!a.has(f) || !b.has(f)) continue;
    if (a.any(f) || b.any(f) || *a.address == *b.address) return true;
  }
  return false;
}

void CheckListeners(const std::vector<Listen>& listens, RuleContext& ctx) {
  for (size_t i = 1; i < listens.size(); ++i) {
    const Listen& b = listens[i];
    for (size_t j = 0; j < i; ++j) {
      const Listen& a = listens[j];
      const bool two_vrfs = !a.vrf.empty() && !b.vrf.empty() && a.vrf != b.vrf;
      if (a.port != b.port || two_vrfs || !Clash(a, b)) continue;
      auto shown = [](const Listen& l) {
        if (!l.address) return std::string("every address (IPv4 and IPv6)");
        if (l.address->is_zero()) {
          return std::string(l.address->is_v4() ? "any IPv4 address" : "any IPv6 address");
        }
        return l.address->ToString();
      };
      const std::string at = RuleContext::At(a.pos);
      ctx.Report("bgp-listen-shared", b.pos, "virtual-router " + b.vr + " bgp",
                 "BGP of virtual-router '" + b.vr + "' would listen on " + shown(b) + " port " +
                     std::to_string(b.port) + ", which virtual-router '" + a.vr +
                     "' already takes (" + shown(a) + (at.empty() ? "" : ", " + at) +
                     "): give each VR its own listen-address or port");
      break;
    }
  }
}

}  // namespace

void CheckMultipath(const ConfigNode& bgp, const std::string& path, RuleContext& ctx) {
  const ConfigNode* m = bgp.FindChild("multipath");
  if (m == nullptr) return;
  const auto ebgp = ctx.U32(m, kMultipath, "maximum-paths");
  const auto ibgp = ctx.U32(m, kMultipath, "maximum-paths-ibgp");
  if (ebgp == 1u && ibgp == 1u) {
    ctx.ReportAt("bgp-multipath-no-effect", *m, path + " multipath",
                 "multipath with maximum-paths 1 and maximum-paths-ibgp 1: one path per prefix, "
                 "nothing to share (delete the block, or raise a count)");
    return;
  }
  const ConfigNode* ibgp_leaf = m->FindChild("maximum-paths-ibgp");
  if (ibgp_leaf == nullptr || ibgp.value_or(1) <= 1) return;
  const auto local_as = ctx.U32(&bgp, kBgp, "local-as");
  for (const ConfigNode& peer : bgp.children()) {
    if (peer.keyword() == "peer" && ctx.U32(&peer, "virtual-router bgp peer", "as") == local_as) {
      return;
    }
  }
  ctx.ReportAt("bgp-multipath-ibgp-without-ibgp-peer", *ibgp_leaf, path + " multipath",
               "maximum-paths-ibgp " + std::to_string(*ibgp) + " but no iBGP peer (as " +
                   std::to_string(local_as.value_or(0)) + "): it has no effect");
}

void CheckBgpRules(const ConfigNode& root, RuleContext& ctx) {
  std::vector<Listen> listens;
  for (const ConfigNode& vr : root.children()) {
    if (vr.keyword() != "virtual-router" || vr.args().empty()) continue;
    const ConfigNode* bgp = vr.FindChild("bgp");
    if (bgp == nullptr) continue;
    const std::string path = "virtual-router " + vr.first_arg() + " bgp";
    CheckIdentifiers(*bgp, path, ctx);
    CheckConfederation(*bgp, path, ctx);
    CheckDamping(*bgp, path, ctx);
    CheckMultipath(*bgp, path, ctx);
    CheckRedistributeAndNetworks(vr, *bgp, path, ctx);
    const ConfigNode* dev = vr.FindChild("vrf-device");
    Listen l{vr.first_arg(),
             VrfDeviceName(vr.first_arg(), ctx.U32(&vr, "virtual-router", "table-id").value_or(0),
                           dev != nullptr ? dev->first_arg() : ""),
             std::nullopt, 179, bgp->pos()};
    if (const ConfigNode* la = bgp->FindChild("listen-address")) {
      l.address = RuleContext::Addr(la);
      if (!l.address) continue;
      l.pos = RuleContext::ValuePos(*la);
      if (!l.address->is_zero() && !IsOneHost(*l.address)) {
        ctx.ReportAt("bgp-listen-address", *la, path,
                     "listen-address " + l.address->ToString() +
                         " is not the address of one host (unset or 0.0.0.0: any address)");
      }
    }
    if (const ConfigNode* port = bgp->FindChild("port")) {
      auto p = RuleContext::U32Text(port->first_arg());
      if (!p) continue;
      l.port = *p;
      if (!bgp->FindChild("listen-address")) l.pos = RuleContext::ValuePos(*port);
    }
    listens.push_back(std::move(l));
  }
  CheckListeners(listens, ctx);
}

}  // namespace strata::rtrmgr
