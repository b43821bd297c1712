// ConfigRules: each BGP peer of each VR (what strata-bgp's add_peer would refuse, and what is
// legal but likely a mistake), with its group's settings (PeerGroups). The rule ids and reasons
// are in config_rules.cc.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "rtrmgr/config/rule_context.h"

namespace strata::rtrmgr {
namespace {

constexpr std::string_view kBgp = "virtual-router bgp";
constexpr std::string_view kPeer = "virtual-router bgp peer";

// What a peer's rules need of its VR.
struct VrBgp {
  const ConfigNode* bgp = nullptr;
  std::string path;  // "virtual-router red bgp"
  std::optional<uint32_t> local_as;
  std::optional<IpAddr> listen_address;
  std::optional<uint32_t> port;
  std::vector<uint32_t> confed_members;
  bool vr_import = false;
  bool vr_export = false;
  // The host's addresses the configuration names (`interfaces interface X address`): a
  // speaker without listen-address listens on all of them.
  const std::vector<IpAddr>* host_addresses = nullptr;
};

// Whether the VR's speaker listening on any address (strata-bgp's any is IPv4's) takes the
// connections to `addr`: 127.0.0.0/8 and the configured addresses are the host's.
bool ListensOnAnyIncluding(const VrBgp& vr, const IpAddr& addr) {
  if (vr.listen_address) return false;  // without one strata-bgp listens on both families
  if (addr.is_v4() && (addr.v4_host_order() >> 24) == 127) return true;
  if (addr.is_v6() && addr.hi64() == 0 && addr.lo64() == 1) return true;  // ::1
  return std::find(vr.host_addresses->begin(), vr.host_addresses->end(), addr) !=
         vr.host_addresses->end();
}

std::vector<IpAddr> HostAddresses(const ConfigNode& root) {
  std::vector<IpAddr> out;
  const ConfigNode* ifs = root.FindChild("interfaces");
  if (ifs == nullptr) return out;
  for (const ConfigNode& i : ifs->children()) {
    const ConfigNode* a = i.FindChild("address");
    if (i.keyword() != "interface" || a == nullptr) continue;
    for (const auto& arg : a->args()) {
      const std::string_view text = arg.text;
      if (auto addr = RuleContext::AddrText(text.substr(0, text.find('/')))) out.push_back(*addr);
    }
  }
  return out;
}

void CheckAddresses(const VrBgp& vr, const ConfigNode& peer, const IpAddr& addr,
                    const std::string& path, RuleContext& ctx) {
  if (!IsOneHost(addr)) {
    ctx.ReportAt("bgp-peer-address", peer, path,
                 "peer " + addr.ToString() + " is not the address of one host");
    return;
  }
  const auto port = ctx.U32(&peer, kPeer, "port");
  if (vr.listen_address && *vr.listen_address == addr && port && vr.port && *port == *vr.port) {
    ctx.ReportAt("bgp-peer-is-self", peer, path,
                 "peer " + addr.ToString() + " port " + std::to_string(*port) +
                     " is this VR's own listen-address and port: it would connect to itself");
  } else if (port && vr.port && *port == *vr.port && ListensOnAnyIncluding(vr, addr)) {
    ctx.ReportAt("bgp-peer-is-self", peer, path,
                 "peer " + addr.ToString() + " port " + std::to_string(*port) +
                     " is an address of this host, and this VR listens on port " +
                     std::to_string(*port) +
                     " of every address (no listen-address): it would connect to itself");
  }
  for (const char* kw : {"ipv4-next-hop", "ipv6-next-hop"}) {
    const ConfigNode* nh = peer.FindChild(kw);
    if (nh == nullptr || (kw[3] == '4') != addr.is_v4()) continue;
    ctx.ReportAt("bgp-next-hop-family", *nh, path,
                 std::string(kw) + " sets the next hop of routes of the other family on an " +
                     std::string(addr.is_v4() ? "IPv6" : "IPv4") + " session; peer " +
                     addr.ToString() + " is " + std::string(addr.is_v4() ? "IPv4" : "IPv6") +
                     ", and its own family's routes go with the session's address");
  }
  if (const ConfigNode* la = peer.FindChild("local-address")) {
    auto local = RuleContext::Addr(la);
    if (local && local->family() != addr.family()) {
      ctx.ReportAt("bgp-local-address-family", *la, path,
                   "local-address " + local->ToString() + " is not of the family of peer " +
                       addr.ToString());
    } else if (local && *local == addr) {
      ctx.ReportAt("bgp-peer-is-self", *la, path,
                   "local-address " + local->ToString() +
                       " is the peer's own address: it would connect to itself");
    }
  }
}

void CheckSession(const VrBgp& vr, const ConfigNode& peer, const std::string& path,
                  RuleContext& ctx) {
  if (const ConfigNode* h = peer.FindChild("hold-time")) {
    if (auto v = RuleContext::U32Text(h->first_arg()); v && (*v == 1 || *v == 2)) {
      ctx.ReportAt("bgp-hold-time", *h, path,
                   "hold-time " + std::to_string(*v) +
                       ": a hold time is 0 (no keepalives) or at least 3 seconds (RFC 4271 4.2)");
    }
  }
  if (const ConfigNode* md5 = peer.FindChild("md5-password")) {
    if (md5->first_arg().size() > 80) {
      ctx.ReportAt("bgp-md5-length", *md5, path,
                   "md5-password is " + std::to_string(md5->first_arg().size()) +
                       " bytes long: TCP MD5 keys (RFC 2385) are at most 80 bytes on Linux");
    }
  }
  const ConfigNode* ttl = peer.FindChild("ttl-security");
  const ConfigNode* multihop = peer.FindChild("multihop");
  if (ttl != nullptr && multihop != nullptr) {
    const ConfigNode& later = RuleContext::Later(*ttl, *multihop);
    ctx.ReportAt("bgp-ttl-security-with-multihop", later, path,
                 "ttl-security and multihop exclude each other: GTSM (RFC 5082) sends with TTL "
                 "255 and accepts packets that crossed at most ttl-security hops");
  }
  const ConfigNode* as_leaf = peer.FindChild("as");
  const auto as = as_leaf != nullptr ? RuleContext::U32Text(as_leaf->first_arg()) : std::nullopt;
  if (!as) return;
  if (*as == 23456 || *as == 65535 || *as == 4294967295u) {
    ctx.ReportAt("bgp-reserved-as", *as_leaf, path,
                 "peer as " + std::to_string(*as) + " is " +
                     (*as == 23456 ? "AS_TRANS (RFC 6793)" : "reserved (RFC 7300)"));
  }
  if (!vr.local_as) return;
  const bool internal = *as == *vr.local_as;
  const bool confed =
      std::find(vr.confed_members.begin(), vr.confed_members.end(), *as) != vr.confed_members.end();
  if (const ConfigNode* bfd = peer.FindChild("bfd");
      bfd != nullptr && peer.FindChild("local-address") == nullptr) {
    const auto hops = ctx.U32(&peer, kPeer, "multihop");
    if (internal || (hops && *hops > 1)) {
      ctx.ReportAt("bgp-bfd-multihop-local-address", *bfd, path,
                   std::string("bfd with ") + (internal ? "an iBGP" : "an eBGP multihop") +
                       " peer needs local-address: its multihop BFD session (RFC 5883) is "
                       "named by both addresses");
    }
  }
  if (const ConfigNode* rr = peer.FindChild("route-reflector-client");
      rr != nullptr && !internal && rr->first_arg() == "true") {
    ctx.ReportAt("bgp-rr-client-not-internal", *rr, path,
                 std::string("route-reflector-client on an ") +
                     (confed ? "confederation-external" : "eBGP") + " peer (as " +
                     std::to_string(*as) + ", local-as " + std::to_string(*vr.local_as) +
                     "): route reflection is between internal peers (RFC 4456)");
  }
  if (!internal && !confed && ctx.Bool(&peer, kPeer, "ebgp-requires-policy") != false) {
    const bool import = peer.FindChild("import") != nullptr || vr.vr_import;
    const bool exp = peer.FindChild("export") != nullptr || vr.vr_export;
    if (!import || !exp) {
      const std::string missing = !import && !exp ? "import or export"
                                  : !import       ? "import"
                                                  : "export";
      ctx.ReportAt("bgp-ebgp-without-policy", peer, path,
                   "eBGP peer " + peer.first_arg() + " has no " + missing +
                       " policy (its own or the VR's): RFC 8212 " +
                       (!import && !exp ? "accepts nothing from it and sends it nothing"
                        : !import       ? "accepts nothing from it"
                                        : "sends it nothing") +
                       " (set one, or ebgp-requires-policy false)");
    }
  }
}

// allowas-in, remove-private-as, local-as: what add_peer refuses.
void CheckAsPathOptions(const VrBgp& vr, const ConfigNode& peer, const std::string& path,
                        RuleContext& ctx) {
  const ConfigNode* local_as = peer.FindChild("local-as");
  if (local_as == nullptr) {
    for (const char* kw : {"local-as-no-prepend", "local-as-replace-as"}) {
      if (const ConfigNode* n = peer.FindChild(kw)) {
        ctx.ReportAt("bgp-local-as-options-alone", *n, path,
                     std::string(kw) + " without local-as: it has no effect");
      }
    }
  }
  const auto as = ctx.U32(&peer, kPeer, "as");
  if (!as || !vr.local_as) return;
  const bool external =
      *as != *vr.local_as &&
      std::find(vr.confed_members.begin(), vr.confed_members.end(), *as) == vr.confed_members.end();
  if (local_as != nullptr) {
    const auto value = RuleContext::U32Text(local_as->first_arg());
    if (!external) {
      ctx.ReportAt("bgp-local-as-not-external", *local_as, path,
                   "local-as on a peer inside our AS or confederation (as " + std::to_string(*as) +
                       "): it is for eBGP peers only (FRR, Junos)");
    } else if (value && (*value == *vr.local_as || *value == *as)) {
      ctx.ReportAt("bgp-local-as-not-external", *local_as, path,
                   "local-as " + std::to_string(*value) +
                       " is the VR's local-as or the peer's as: it must be a third AS");
    }
  }
  if (const ConfigNode* rpa = peer.FindChild("remove-private-as"); rpa != nullptr && !external) {
    ctx.ReportAt("bgp-remove-private-as-not-external", *rpa, path,
                 "remove-private-as on a peer inside our AS or confederation (as " +
                     std::to_string(*as) + "): private ASes are removed towards eBGP peers only");
  }
}

// Whether `peer` was written inside a group: its `group` leaf is the one the expansion made,
// at the group's own position (PeerGroups).
bool WrittenInGroup(const ConfigNode& bgp, const ConfigNode& peer) {
  const ConfigNode* g = peer.FindChild("group");
  const ConfigNode* group = g != nullptr ? bgp.FindChild("group", g->first_arg()) : nullptr;
  return group != nullptr && g->pos().file == group->pos().file &&
         g->pos().line == group->pos().line && g->pos().column == group->pos().column;
}

// Groups: a reference names a group of the VR; a neighbor written in a group is not written
// again (two at the bgp level are the schema's duplicate); it has an AS, its own or its
// group's.
void CheckMembership(const ConfigNode& bgp, const ConfigNode& peer, const std::string& path,
                     std::map<std::string, bool>& seen, RuleContext& ctx) {
  if (const ConfigNode* g = peer.FindChild("group"); g != nullptr && !g->args().empty()) {
    if (bgp.FindChild("group", g->first_arg()) == nullptr) {
      ctx.ReportAt("bgp-peer-group-undefined", *g, path,
                   "group " + g->first_arg() + " is not a group of this VR's bgp");
    }
  }
  const std::string addr = RuleContext::AddrText(peer.first_arg())->ToString();
  const bool in_group = WrittenInGroup(bgp, peer);
  if (auto it = seen.find(addr); it != seen.end() && (it->second || in_group)) {
    ctx.ReportAt("bgp-peer-duplicate", peer, path,
                 "peer " + addr + " is written twice (in a group and outside, or in two groups)");
  }
  seen[addr] = seen[addr] || in_group;
  if (peer.FindChild("as") == nullptr) {
    ctx.ReportAt("bgp-peer-as-missing", peer, path,
                 "peer " + addr + " has no as, neither its own nor its group's");
  }
}

void CheckLimits(const ConfigNode& peer, const std::string& path, RuleContext& ctx) {
  if (peer.FindChild("max-prefixes") != nullptr) return;
  for (const char* kw : {"max-prefixes-warning", "max-prefixes-restart"}) {
    if (const ConfigNode* n = peer.FindChild(kw)) {
      ctx.ReportAt("bgp-max-prefixes-options-alone", *n, path,
                   std::string(kw) + " without max-prefixes: it has no effect");
    }
  }
}

VrBgp ReadVr(const ConfigNode& vr, const ConfigNode& bgp, RuleContext& ctx) {
  VrBgp v;
  v.bgp = &bgp;
  v.path = "virtual-router " + vr.first_arg() + " bgp";
  v.local_as = ctx.U32(&bgp, kBgp, "local-as");
  v.listen_address = RuleContext::Addr(bgp.FindChild("listen-address"));
  v.port = ctx.U32(&bgp, kBgp, "port");
  if (const ConfigNode* m = bgp.FindChild("confederation-members")) {
    for (const auto& a : m->args()) {
      if (auto as = RuleContext::U32Text(a.text)) v.confed_members.push_back(*as);
    }
  }
  v.vr_import = bgp.FindChild("import") != nullptr;
  v.vr_export = bgp.FindChild("export") != nullptr;
  return v;
}

}  // namespace

void CheckBgpPeerRules(const ConfigNode& root, RuleContext& ctx) {
  const std::vector<IpAddr> host_addresses = HostAddresses(root);
  for (const ConfigNode& vr : root.children()) {
    if (vr.keyword() != "virtual-router" || vr.args().empty()) continue;
    const ConfigNode* bgp = vr.FindChild("bgp");
    if (bgp == nullptr) continue;
    VrBgp v = ReadVr(vr, *bgp, ctx);
    v.host_addresses = &host_addresses;
    std::map<std::string, bool> seen;  // address -> written in a group
    for (const ConfigNode& peer : bgp->children()) {
      if (peer.keyword() != "peer" || peer.args().empty()) continue;
      auto addr = RuleContext::AddrText(peer.first_arg());
      if (!addr) continue;
      const std::string path = v.path + " peer " + addr->ToString();
      CheckAddresses(v, peer, *addr, path, ctx);
      CheckSession(v, peer, path, ctx);
      CheckLimits(peer, path, ctx);
      CheckAsPathOptions(v, peer, path, ctx);
      CheckMembership(*bgp, peer, path, seen, ctx);
    }
  }
}

}  // namespace strata::rtrmgr
