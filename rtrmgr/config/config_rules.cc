#include "rtrmgr/config/config_rules.h"

#include <tuple>

#include "rtrmgr/config/rule_context.h"
#include "rtrmgr/config/value_spec.h"

namespace strata::rtrmgr {

const std::vector<RuleInfo>& ConfigRules::All() {
  static const std::vector<RuleInfo> kRules = {
      // Virtual routers and the FEA.
      {"interface-in-two-vrs", false, "an interface bound to two virtual routers",
       "an interface forwards for one routing table: strata-fea binds it to one VR and refuses a "
       "second binding"},
      {"table-id-shared", false, "two virtual routers with one kernel table-id (other than 0)",
       "a VR owns its kernel table: each would delete the other's routes when it reconciles the "
       "table (strata-fea refuses)"},
      {"table-id-reserved", true, "table-id 253 (default) or 255 (local)",
       "the kernel's own tables: routes in local decide which addresses are this host's"},
      {"vrf-device-name", false,
       "a VR with a kernel table (not 0 or 254) whose VRF device name (vrf-device, else the VR's "
       "name) is not a Linux interface name",
       "strata-fea names the VR's VRF device so; Linux takes 1..15 bytes without '/' or ':'"},
      {"vrf-device-shared", false,
       "two VRs with one VRF device name, or a VRF device named "
       "like a declared interface",
       "a VRF device belongs to one VR's table (strata-fea refuses the second)"},
      {"static-next-hop-family", false, "a static route whose next hop is of the other family",
       "a next hop is reached in the route's own family (strata-rib refuses the route)"},
      {"static-route-empty", false,
       "a static route with no next-hop, interface, blackhole or reject",
       "a route must say where packets go, or that they are dropped"},
      {"static-drop-conflict", false,
       "a static route that is blackhole or reject and has next hops, an interface, or both",
       "a route that drops forwards nowhere, and drops one way (strata-fea refuses next hops on "
       "it)"},
      {"static-interface-not-in-vr", false,
       "a static route's interface not bound to its virtual-router",
       "the VR's kernel table and FIB forward only out of its own interfaces (strata-fea refuses "
       "the route)"},
      // BGP, per VR.
      {"bgp-router-id-zero", false, "router-id 0.0.0.0",
       "RFC 6286 2.1: the BGP Identifier is a non-zero 32-bit value"},
      {"bgp-cluster-id-zero", false, "cluster-id 0.0.0.0",
       "RFC 4456 7: the CLUSTER_ID names the cluster in CLUSTER_LIST; 0 names none (strata-bgp "
       "refuses it)"},
      {"bgp-reserved-as", true,
       "local-as or a peer's as is AS_TRANS (23456) or a last AS (65535, 4294967295)",
       "RFC 6793 reserves AS_TRANS to stand for 4-octet ASes toward 2-octet speakers; RFC 7300 "
       "reserves the last ASes"},
      {"bgp-confederation-members-without-identifier", false,
       "confederation-members without confederation-identifier",
       "RFC 5065: member ASes exist inside a confederation, which its identifier names "
       "(strata-bgp refuses)"},
      {"bgp-confederation-identifier-is-local-as", false,
       "confederation-identifier equal to local-as",
       "RFC 5065 4: local-as is this speaker's member AS, the identifier the AS the whole "
       "confederation shows outside: two different numbers (strata-bgp refuses)"},
      {"bgp-confederation-identifier-is-member", false,
       "confederation-identifier among confederation-members",
       "RFC 5065: the identifier is not a member AS (strata-bgp refuses)"},
      {"bgp-confederation-members-list-local-as", true, "confederation-members lists local-as",
       "the members are the other member ASes; local-as is one already"},
      {"bgp-listen-shared", false,
       "two VRs' BGP listening on one port with the same address, or one of them on any address, "
       "unless each VR has a VRF device of its own",
       "the host has one TCP port space: the second listen fails (EADDRINUSE) and its commit "
       "with it"},
      {"bgp-listen-address", false,
       "a listen-address that is not one host's (multicast, 255.255.255.255)",
       "a TCP socket listens on a unicast address (or any: leave it unset); the kernel refuses "
       "the bind and the commit fails"},
      {"bgp-damping-reuse-above-suppress", false, "damping reuse not below suppress",
       "RFC 2439 4.2: a route is suppressed when its penalty reaches the cut-off (suppress) and "
       "reused when it decays below the reuse threshold, which must be lower"},
      {"bgp-damping-ceiling", false,
       "damping max-suppress too short for suppress to be reached, or above 64 half-lives",
       "RFC 2439 4.2: the penalty is capped at reuse * 2^(max-suppress / half-life); below "
       "suppress no route is ever suppressed (strata-bgp refuses; it also caps the ratio at 64)"},
      {"bgp-redistribute-without-static", true, "redistribute static without a static block",
       "the RIB has no static table to redistribute until the VR has a static block"},
      {"bgp-cluster-id-without-clients", true, "cluster-id without any route-reflector-client",
       "RFC 4456: the cluster id matters only to a route reflector, which needs clients"},
      {"bgp-multipath-no-effect", true,
       "a multipath block whose maximum-paths and maximum-paths-ibgp are both 1",
       "one path per prefix is no multipath: the block changes nothing"},
      {"bgp-multipath-ibgp-without-ibgp-peer", true,
       "maximum-paths-ibgp above 1 set explicitly with no iBGP peer in the VR",
       "iBGP multipath needs iBGP paths: without an iBGP peer the setting has no effect"},
      {"bgp-network-next-hop-family", false, "a network whose next-hop is of the other family",
       "a route's next hop is of its own family (strata-bgp refuses)"},
      // BGP peers.
      {"bgp-peer-address", false,
       "a peer at an address that is not one host (0.0.0.0, ::, multicast, 255.255.255.255)",
       "a BGP session is a TCP connection to one host (RFC 4271 8; strata-bgp refuses the zero "
       "address)"},
      {"bgp-peer-is-self", false,
       "a peer at the VR's own listen-address (and port); without a listen-address, at an "
       "address of this host (127.0.0.0/8, ::1, an interface's address) on the VR's port; or at "
       "its "
       "own local-address",
       "the speaker would connect to itself, over and over"},
      {"bgp-next-hop-family", false,
       "ipv4-next-hop on an IPv4 peer or ipv6-next-hop on an IPv6 peer",
       "they set the next hop of the other family's routes; the session's own family goes with "
       "the session's address"},
      {"bgp-local-address-family", false, "a local-address of the other family than the peer",
       "a TCP connection has one family (strata-bgp refuses)"},
      {"bgp-hold-time", false, "hold-time 1 or 2",
       "RFC 4271 4.2: the Hold Time MUST be either zero or at least three seconds"},
      {"bgp-md5-length", false, "md5-password longer than 80 bytes",
       "RFC 2385 keys are Linux TCP_MD5SIG keys, at most 80 bytes (TCP_MD5SIG_MAXKEYLEN; "
       "strata-bgp refuses more)"},
      {"bgp-rr-client-not-internal", false,
       "route-reflector-client on an eBGP or confederation-external peer",
       "RFC 4456 2: a route reflector reflects between internal (same-AS) peers only (strata-bgp "
       "refuses)"},
      {"bgp-ttl-security-with-multihop", false, "ttl-security together with multihop",
       "RFC 5082 (GTSM) sends with TTL 255 and accepts at least 255 - hops; multihop sets "
       "another TTL: the two exclude each other (strata-bgp refuses)"},
      {"bgp-bfd-multihop-local-address", false, "bfd with a multihop peer without local-address",
       "RFC 5883: a multihop BFD session is named by both addresses, so the local one must be "
       "known (strata-bgp refuses)"},
      {"bgp-ebgp-without-policy", true,
       "an eBGP peer without an import or an export policy (its own or the VR's)",
       "RFC 8212: nothing is accepted from it, or sent to it, until it has one (or "
       "ebgp-requires-policy false)"},
      {"bgp-max-prefixes-options-alone", true,
       "max-prefixes-warning or max-prefixes-restart without max-prefixes",
       "they refine max-prefixes; alone they do nothing"},
      {"bgp-peer-as-missing", false, "a peer without as, neither its own nor its group's",
       "a session needs the neighbour's AS (RFC 4271 4.2: the OPEN's AS is checked against it)"},
      {"bgp-peer-group-undefined", false, "a peer's group that this VR's bgp does not define",
       "its settings would come from nowhere (Junos and FRR refuse it too)"},
      {"bgp-peer-duplicate", false,
       "a peer written twice: inside a group and at the bgp level, or in two groups",
       "a neighbour is one session with one set of settings"},
      {"bgp-local-as-not-external", false,
       "local-as on an iBGP or confederation peer, or equal to the VR's local-as or the peer's "
       "as",
       "local-as makes an eBGP peer see another AS, for migrations (FRR and Junos: eBGP only; "
       "strata-bgp refuses)"},
      {"bgp-local-as-options-alone", true,
       "local-as-no-prepend or local-as-replace-as without "
       "local-as",
       "they refine local-as; alone they do nothing"},
      {"bgp-remove-private-as-not-external", false,
       "remove-private-as on an iBGP or confederation peer",
       "private ASes (RFC 6996) are removed where routes leave for another AS (FRR: eBGP only; "
       "strata-bgp refuses)"},
      // Policy.
      {"policy-prefix-length", false,
       "a prefix-list or route-filter range with ge or le beyond the family's length (32, 128), "
       "ge below the prefix's length, or le below ge or the prefix's length",
       "such a range matches no route (strata-bgp refuses the policy)"},
      {"policy-as-path-regex", false,
       "an AS-path regular expression that does not compile (ECMAScript)",
       "strata-bgp compiles it when the policy is defined and refuses the policy"},
      {"policy-community-pattern", false,
       "a * pattern where an exact community is needed (from community, community-add, "
       "community-replace, large-community-add, large-community-replace)",
       "a route carries exact communities; patterns only match (sets, the delete actions; "
       "strata-bgp refuses the policy)"},
      {"policy-next-hop-zero", false,
       "then next-hop 0.0.0.0 or ::", "not a next hop (strata-bgp refuses the policy)"},
  };
  return kRules;
}

const RuleInfo* ConfigRules::Find(std::string_view id) {
  for (const RuleInfo& r : All()) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

void ConfigRules::Check(const ConfigNode& root, const TemplateTree& templates,
                        std::vector<ConfigError>& out) {
  RuleContext ctx(templates, out);
  CheckVirtualRouterRules(root, ctx);
  CheckBgpRules(root, ctx);
  CheckBgpPeerRules(root, ctx);
  CheckPolicyRules(root, ctx);
}

void RuleContext::Report(std::string_view id, const SourcePos& pos, std::string path,
                         std::string reason) {
  const RuleInfo* rule = ConfigRules::Find(id);
  out_.push_back(ConfigError{pos, std::move(reason), std::move(path),
                             rule != nullptr && rule->warning, std::string(id)});
}

void RuleContext::ReportAt(std::string_view id, const ConfigNode& leaf, std::string path,
                           std::string reason) {
  Report(id, ValuePos(leaf), std::move(path), std::move(reason));
}

const ConfigNode* RuleContext::Leaf(const ConfigNode* parent, std::string_view keyword) {
  return parent == nullptr ? nullptr : parent->FindChild(keyword);
}

SourcePos RuleContext::ValuePos(const ConfigNode& node, size_t i) {
  return i < node.args().size() ? node.args()[i].pos : node.pos();
}

const ConfigNode& RuleContext::Later(const ConfigNode& a, const ConfigNode& b) {
  return std::tie(a.pos().line, a.pos().column) > std::tie(b.pos().line, b.pos().column) ? a : b;
}

std::string RuleContext::At(const SourcePos& pos) {
  return pos.line > 0 ? pos.ToString() : std::string();
}

std::optional<std::string> RuleContext::Value(const ConfigNode* parent, std::string_view tmpl_path,
                                              std::string_view keyword) const {
  const TemplateNode* t = templates_.FindPath(std::string(tmpl_path) + " " + std::string(keyword));
  if (const ConfigNode* leaf = Leaf(parent, keyword)) {
    if (!leaf->args().empty()) return leaf->first_arg();
    if (t != nullptr && t->bare_value) return *t->bare_value;
    return std::nullopt;
  }
  if (t == nullptr || !t->default_value) return std::nullopt;
  return *t->default_value;
}

std::optional<uint32_t> RuleContext::U32(const ConfigNode* parent, std::string_view tmpl_path,
                                         std::string_view keyword) const {
  auto v = Value(parent, tmpl_path, keyword);
  return v ? U32Text(*v) : std::nullopt;
}

std::optional<bool> RuleContext::Bool(const ConfigNode* parent, std::string_view tmpl_path,
                                      std::string_view keyword) const {
  auto v = Value(parent, tmpl_path, keyword);
  if (!v || (*v != "true" && *v != "false")) return std::nullopt;
  return *v == "true";
}

std::optional<IpAddr> RuleContext::Addr(const ConfigNode* leaf) {
  return leaf == nullptr || leaf->args().empty() ? std::nullopt : AddrText(leaf->first_arg());
}

std::optional<IpAddr> RuleContext::AddrText(std::string_view text) {
  auto a = IpAddr::Parse(text);
  return a.ok() ? std::optional<IpAddr>(*a) : std::nullopt;
}

std::optional<IpPrefix> RuleContext::PrefixText(std::string_view text) {
  auto p = IpPrefix::Parse(text);
  return p.ok() ? std::optional<IpPrefix>(*p) : std::nullopt;
}

bool IsOneHost(const IpAddr& a) {
  if (a.is_zero()) return false;
  if (a.is_v4()) {
    const uint32_t v = a.v4_host_order();
    return (v >> 28) != 0xE && v != 0xFFFFFFFFu;  // 224.0.0.0/4, limited broadcast
  }
  return a.bytes()[0] != 0xFF;  // ff00::/8
}

std::optional<uint32_t> RuleContext::U32Text(std::string_view text) {
  return ValueSpec::ParseU32(text);
}

}  // namespace strata::rtrmgr
