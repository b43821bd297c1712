#include "bgp/process/bgp_proto_convert.h"

#include <tuple>

#include "bgp/process/policy_proto_convert.h"
#include "libipc/common_convert.h"

namespace strata::bgp {

StatusOr<std::optional<IpAddr>> OptionalAddrFromProto(const common::v1::IpAddress& a,
                                                      std::string_view field) {
  if (a.addr().empty()) return std::optional<IpAddr>();
  auto addr = ipc::AddrFromProto(a, field);
  if (!addr.ok()) return addr.status();
  return std::optional<IpAddr>(*addr);
}

StatusOr<IpAddr> RequiredAddrFromProto(const common::v1::IpAddress& a, std::string_view field) {
  if (a.addr().empty()) return InvalidArgument(std::string(field) + " is required");
  return ipc::AddrFromProto(a, field);
}

StatusOr<LocalConfig> LocalConfigFromProto(const v1::SetLocalConfigRequest& r) {
  LocalConfig c;
  if (r.local_as() == 0) return InvalidArgument("local_as must be 1..4294967295");
  c.local_as = r.local_as();
  auto id = RequiredAddrFromProto(r.router_id(), "router_id");
  if (!id.ok()) return id.status();
  c.router_id = *id;
  auto listen = OptionalAddrFromProto(r.listen_address(), "listen_address");
  if (!listen.ok()) return listen.status();
  c.listen_address = *listen;
  if (r.port() > 65535) return InvalidArgument("port " + std::to_string(r.port()) + " > 65535");
  c.port = r.port() == 0 ? 179 : static_cast<uint16_t>(r.port());
  auto cluster = OptionalAddrFromProto(r.cluster_id(), "cluster_id");
  if (!cluster.ok()) return cluster.status();
  if (*cluster && (!(*cluster)->is_v4() || (*cluster)->is_zero())) {
    return InvalidArgument("cluster_id must be a non-zero IPv4 address, not " +
                           (*cluster)->ToString());
  }
  c.cluster_id = *cluster;
  if (r.has_graceful_restart_time()) {
    if (r.graceful_restart_time() == 0 || r.graceful_restart_time() > 4095) {
      return InvalidArgument("graceful_restart_time must be 1..4095 seconds");
    }
    c.graceful_restart.restart_time = static_cast<uint16_t>(r.graceful_restart_time());
  }
  if (r.has_graceful_stale_time()) {
    if (r.graceful_stale_time() == 0 || r.graceful_stale_time() > 65535) {
      return InvalidArgument("graceful_stale_time must be 1..65535 seconds");
    }
    c.graceful_restart.stale_time = r.graceful_stale_time();
  }
  if (r.has_graceful_selection_deferral_time()) {
    if (r.graceful_selection_deferral_time() == 0 || r.graceful_selection_deferral_time() > 3600) {
      return InvalidArgument("graceful_selection_deferral_time must be 1..3600 seconds");
    }
    c.graceful_restart.selection_deferral_time = r.graceful_selection_deferral_time();
  }
  c.confed.identifier = r.confederation_identifier();
  c.confed.members.assign(r.confederation_members().begin(), r.confederation_members().end());
  for (uint32_t m : c.confed.members) {
    if (m == 0) return InvalidArgument("confederation_members: AS 0");
  }
  return c;
}

namespace {

// add_peer's remove_private_as words: the mode and replace-as.
StatusOr<std::pair<RemovePrivateAs, bool>> RemovePrivateAsFromText(std::string_view text) {
  std::pair<RemovePrivateAs, bool> out{RemovePrivateAs::kOff, false};
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view word = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (word == "all") {
      out.first = RemovePrivateAs::kAll;
    } else if (word == "if-all-private" || word == "replace-as") {
      if (out.first == RemovePrivateAs::kOff) out.first = RemovePrivateAs::kIfAllPrivate;
      if (word == "replace-as") out.second = true;
    } else {
      return InvalidArgument("remove_private_as: '" + std::string(word) +
                             "' is not if-all-private, all or replace-as");
    }
  }
  return out;
}

}  // namespace

StatusOr<PeerSettings> PeerSettingsFromProto(const v1::AddPeerRequest& r) {
  PeerSettings s;
  PeerConfig& c = s.session;
  auto peer = RequiredAddrFromProto(r.peer(), "peer");
  if (!peer.ok()) return peer.status();
  if (peer->is_zero()) return InvalidArgument("peer: the zero address");
  c.peer_address = *peer;
  if (r.peer_as() == 0) return InvalidArgument("peer_as must be 1..4294967295");
  c.peer_as = r.peer_as();
  auto local = OptionalAddrFromProto(r.local_address(), "local_address");
  if (!local.ok()) return local.status();
  if (*local && (*local)->family() != peer->family()) {
    return InvalidArgument("local_address " + (*local)->ToString() +
                           " is not of the peer's family");
  }
  c.local_address = *local;
  auto v4_nh = OptionalAddrFromProto(r.ipv4_next_hop(), "ipv4_next_hop");
  if (!v4_nh.ok()) return v4_nh.status();
  auto v6_nh = OptionalAddrFromProto(r.ipv6_next_hop(), "ipv6_next_hop");
  if (!v6_nh.ok()) return v6_nh.status();
  for (const auto& [nh, name, f] : {std::tuple(*v4_nh, "ipv4_next_hop", Family::kIpv4),
                                    std::tuple(*v6_nh, "ipv6_next_hop", Family::kIpv6)}) {
    if (!nh) continue;
    if (nh->family() != f)
      return InvalidArgument(std::string(name) + ": not an " + std::string(FamilyName(f)) +
                             " address");
    if (f == peer->family()) {
      return InvalidArgument(std::string(name) +
                             " is for routes of the other family than the "
                             "session's; peer " +
                             peer->ToString() +
                             " is of the same family (its next hop is the session's address)");
    }
    if (nh->is_zero()) return InvalidArgument(std::string(name) + ": the zero address");
    c.other_family_next_hop = nh;
  }
  if (r.peer_port() > 65535) return InvalidArgument("peer_port > 65535");
  c.peer_port = r.peer_port() == 0 ? 179 : static_cast<uint16_t>(r.peer_port());
  // proto3: 0 means unset for hold_time (90 s); "0 offers no keepalives" needs the field set,
  // which a plain uint32 cannot tell, so 0 keeps the default here.
  if (r.hold_time() > 65535) return InvalidArgument("hold_time > 65535");
  if (r.hold_time() != 0) {
    if (r.hold_time() < 3) return InvalidArgument("hold_time must be 0 or at least 3 seconds");
    c.hold_time = static_cast<uint16_t>(r.hold_time());
  }
  c.passive = r.passive();
  c.next_hop_self = r.next_hop_self();
  c.route_reflector_client = r.route_reflector_client();
  if (r.multihop_ttl() > 255) return InvalidArgument("multihop_ttl > 255");
  if (r.multihop_ttl() != 0) c.multihop_ttl = static_cast<uint8_t>(r.multihop_ttl());
  c.description = r.description();
  if (r.has_keepalive()) {
    if (r.keepalive() > 65535) return InvalidArgument("keepalive > 65535");
    c.keepalive_time = static_cast<uint16_t>(r.keepalive());
  }
  if (r.has_connect_retry()) {
    if (r.connect_retry() == 0 || r.connect_retry() > 65535) {
      return InvalidArgument("connect_retry must be 1..65535 seconds");
    }
    c.connect_retry = std::chrono::seconds(r.connect_retry());
  }
  c.mrai_ms = r.mrai_ms();
  c.families.clear();
  if (!r.has_ipv4_unicast() || r.ipv4_unicast()) c.families.push_back(kIpv4Unicast);
  if (!r.has_ipv6_unicast() || r.ipv6_unicast()) c.families.push_back(kIpv6Unicast);
  if (c.families.empty()) return InvalidArgument("no address family enabled for the peer");
  if (r.md5_password().size() > 80) return InvalidArgument("md5_password longer than 80 bytes");
  c.md5_password = r.md5_password();
  if (r.ttl_security_hops() != 0) {
    if (r.ttl_security_hops() > 254) return InvalidArgument("ttl_security_hops must be 1..254");
    if (c.multihop_ttl) {
      return InvalidArgument("ttl_security_hops and multihop_ttl exclude each other");
    }
    c.ttl_security_hops = static_cast<uint8_t>(r.ttl_security_hops());
  }
  c.enforce_first_as = !r.has_enforce_first_as() || r.enforce_first_as();
  c.max_prefixes = r.max_prefixes();
  if (r.has_max_prefixes_warning()) {
    if (r.max_prefixes_warning() == 0 || r.max_prefixes_warning() > 100) {
      return InvalidArgument("max_prefixes_warning must be 1..100 percent");
    }
    c.max_prefixes_warning_pct = static_cast<uint8_t>(r.max_prefixes_warning());
  }
  if (r.max_prefixes_restart() > 86400 * 7) {
    return InvalidArgument("max_prefixes_restart longer than a week");
  }
  c.max_prefixes_restart = std::chrono::seconds(r.max_prefixes_restart());
  s.enabled = !r.disabled();
  s.graceful_restart = !r.has_graceful_restart() || r.graceful_restart();
  s.ebgp_requires_policy = !r.has_ebgp_requires_policy() || r.ebgp_requires_policy();
  if (r.long_lived_stale_time() > LongLivedGracefulRestartCapability::kMaxStaleTime) {
    return InvalidArgument("long_lived_stale_time must be 0..16777215 seconds");
  }
  s.long_lived_stale_time = r.long_lived_stale_time();
  if (r.allowas_in() > 10) return InvalidArgument("allowas_in must be 0..10");
  c.as_path.allowas_in = static_cast<uint8_t>(r.allowas_in());
  auto rpa = RemovePrivateAsFromText(r.remove_private_as());
  if (!rpa.ok()) return rpa.status();
  c.as_path.remove_private_as = rpa->first;
  c.as_path.remove_private_replace_as = rpa->second;
  c.as_path.local_as = r.local_as();
  c.as_path.local_as_no_prepend = r.local_as_no_prepend();
  c.as_path.local_as_replace_as = r.local_as_replace_as();
  if (r.local_as() == 0 && (r.local_as_no_prepend() || r.local_as_replace_as())) {
    return InvalidArgument("local_as_no_prepend and local_as_replace_as need local_as");
  }
  c.default_originate = r.default_originate();
  s.group = r.group();
  return s;
}

namespace {

StatusOr<PolicyAction> ActionFromProto(v1::PolicyAction a, std::string_view field) {
  switch (a) {
    case v1::POLICY_ACTION_NEXT_TERM:
      return PolicyAction::kNextTerm;
    case v1::POLICY_ACTION_ACCEPT:
      return PolicyAction::kAccept;
    case v1::POLICY_ACTION_REJECT:
      return PolicyAction::kReject;
    default:
      return InvalidArgument(std::string(field) + ": unknown action " + std::to_string(a));
  }
}

}  // namespace

StatusOr<Policy> PolicyFromProto(const v1::DefinePolicyRequest& r) {
  Policy p;
  if (r.name().empty()) return InvalidArgument("name: a policy needs a name");
  p.name = r.name();
  auto def = ActionFromProto(r.default_action(), "default_action");
  if (!def.ok()) return def.status();
  p.default_action = *def == PolicyAction::kNextTerm ? PolicyAction::kReject : *def;
  auto sets = PolicySetsFromProto(r);
  if (!sets.ok()) return sets.status();
  int index = 0;
  for (const v1::PolicyTerm& t : r.terms()) {
    const std::string where =
        "terms." + std::to_string(index++) + (t.name().empty() ? "" : " (" + t.name() + ")");
    PolicyTerm term;
    term.name = t.name();
    for (const v1::PrefixMatch& m : t.prefixes()) {
      auto prefix = ipc::PrefixFromProto(m.prefix(), where + ".prefixes.prefix");
      if (!prefix.ok()) return prefix.status();
      PrefixMatch pm{*prefix, m.ge(), m.le()};
      if (Status s = pm.Validate(); !s.ok()) return InvalidArgument(where + ": " + s.message());
      term.prefixes.push_back(pm);
    }
    for (const std::string& proto : t.protocols()) {
      if (proto.empty()) return InvalidArgument(where + ".protocols: empty protocol name");
      term.protocols.push_back(proto);
    }
    for (const std::string& c : t.communities()) {
      auto v = ParseCommunity(c);
      if (!v.ok()) return InvalidArgument(where + ".communities: " + v.status().message());
      term.communities.push_back(*v);
    }
    if (t.has_as_path_regex()) {
      auto re = CompileAsPathRegex(t.as_path_regex());
      if (!re.ok()) return InvalidArgument(where + ": " + re.status().message());
      term.as_path_regex = t.as_path_regex();
      term.as_path_re = *re;
    }
    for (const auto& n : t.neighbors()) {
      auto a = RequiredAddrFromProto(n, where + ".neighbors");
      if (!a.ok()) return a.status();
      term.neighbors.push_back(*a);
    }
    auto action = ActionFromProto(t.action(), where + ".action");
    if (!action.ok()) return action.status();
    term.action = *action;
    if (t.has_set_local_pref()) term.set_local_pref = t.set_local_pref();
    if (t.has_set_med()) term.set_med = t.set_med();
    auto nh = OptionalAddrFromProto(t.set_nexthop(), where + ".set_nexthop");
    if (!nh.ok()) return nh.status();
    if (*nh && (*nh)->is_zero()) return InvalidArgument(where + ".set_nexthop: the zero address");
    term.set_nexthop = *nh;
    for (const std::string& c : t.add_communities()) {
      auto v = ParseCommunity(c);
      if (!v.ok()) return InvalidArgument(where + ".add_communities: " + v.status().message());
      term.add_communities.push_back(*v);
    }
    if (t.prepend_count() > 32) {
      return InvalidArgument(where + ".prepend_count: at most 32, not " +
                             std::to_string(t.prepend_count()));
    }
    term.prepend_count = t.prepend_count();
    term.prepend_as = t.prepend_as();
    if (term.prepend_as != 0 && term.prepend_count == 0) term.prepend_count = 1;
    if (Status s = TermExtrasFromProto(t, *sets, where, term); !s.ok()) return s;
    p.terms.push_back(std::move(term));
  }
  return p;
}

}  // namespace strata::bgp
