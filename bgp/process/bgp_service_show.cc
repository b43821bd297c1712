// BgpService's show methods: list_peers, list_routes, get_stats.
#include <cstdio>
#include <map>

#include "bgp/pipeline/decision_steps.h"
#include "bgp/process/bgp_proto_convert.h"
#include "bgp/process/bgp_service.h"
#include "libipc/common_convert.h"

namespace strata::bgp {

namespace {

std::string_view OriginName(Origin o) {
  switch (o) {
    case Origin::kIgp:
      return "igp";
    case Origin::kEgp:
      return "egp";
    case Origin::kIncomplete:
      return "incomplete";
  }
  return "incomplete";
}

std::string FamilyName(const AfiSafi& f) {
  if (f == kIpv4Unicast) return "ipv4-unicast";
  if (f == kIpv6Unicast) return "ipv6-unicast";
  return "afi-" + std::to_string(f.afi) + "-safi-" + std::to_string(f.safi);
}

uint64_t Sum(const std::array<uint64_t, PeerCounters::kNumTypes>& a) {
  uint64_t n = 0;
  for (uint64_t v : a) n += v;
  return n;
}

// "", "if-all-private", "all", with " replace-as".
std::string RemovePrivateAsName(const AsPathOptions& o) {
  std::string out;
  if (o.remove_private_as == RemovePrivateAs::kIfAllPrivate) out = "if-all-private";
  if (o.remove_private_as == RemovePrivateAs::kAll) out = "all";
  if (!out.empty() && o.remove_private_replace_as) out += " replace-as";
  return out;
}

}  // namespace

void BgpService::fill_peer(const BgpPeer& p, v1::PeerStatus* out) const {
  const PeerConfig& c = p.settings().session;
  const SessionFsm& fsm = p.session().fsm();
  ipc::AddrToProto(c.peer_address, out->mutable_peer());
  out->set_peer_as(c.peer_as);
  out->set_description(c.description);
  out->set_peer_type(std::string(PeerTypeName(c.peer_type())));
  out->set_state(std::string(SessionStateName(fsm.state())));
  out->set_enabled(p.settings().enabled);
  if (auto since = p.state_since()) {
    out->set_uptime_s(static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - *since)
            .count()));
  }
  if (const OpenMessage* open = fsm.remote_open()) {
    ipc::AddrToProto(open->bgp_id, out->mutable_remote_router_id());
  }
  if (auto local = p.session().local_address()) {
    ipc::AddrToProto(*local, out->mutable_local_address());
  } else if (c.local_address) {
    ipc::AddrToProto(*c.local_address, out->mutable_local_address());
  }
  if (bfd_ != nullptr) out->set_bfd(bfd_->State(p.settings().session.peer_address));
  if (fsm.state() == SessionState::kEstablished && p.other_family_next_hop()) {
    ipc::AddrToProto(*p.other_family_next_hop(), out->mutable_other_family_next_hop());
  }
  if (const NegotiatedSession* n = fsm.negotiated()) {
    out->set_hold_time(n->hold_time);
    for (const AfiSafi& f : n->families) out->add_families(FamilyName(f));
    if (n->codec.four_octet_as) out->add_capabilities("4-octet-as");
    if (n->route_refresh) out->add_capabilities("route-refresh");
    if (n->enhanced_route_refresh) out->add_capabilities("enhanced-route-refresh");
    if (n->codec.extended_message) out->add_capabilities("extended-message");
    if (n->graceful_restart) out->add_capabilities("graceful-restart");
    if (n->long_lived_graceful_restart) out->add_capabilities("long-lived-graceful-restart");
    for (const AfiSafi& f : n->families) out->add_capabilities("multiprotocol:" + FamilyName(f));
  }
  if (BgpPipeline* pl = speaker_.pipeline()) {
    if (auto pc = pl->counters(p.id()); pc.ok()) {
      out->set_prefixes_received(pc->received);
      out->set_prefixes_accepted(pc->accepted);
      out->set_prefixes_advertised(pc->advertised);
      out->set_originator_id_loops(pc->originator_id_loop);
      out->set_cluster_list_loops(pc->cluster_loop);
      out->set_as_loops(pc->as_loop);
      out->set_rpki_valid(pc->rov_valid);
      out->set_rpki_invalid(pc->rov_invalid);
      out->set_rpki_not_found(pc->rov_not_found);
    }
  }
  const PeerCounters& sc = fsm.counters();
  out->set_messages_in(Sum(sc.messages_in));
  out->set_messages_out(Sum(sc.messages_out));
  out->set_updates_in(sc.in(MessageType::kUpdate));
  out->set_updates_out(sc.out(MessageType::kUpdate));
  out->set_established_transitions(sc.established_count);
  out->set_last_error(p.last_error());
  const EffectivePolicy in = p.effective_policy(PolicyDirection::kImport);
  const EffectivePolicy exp = p.effective_policy(PolicyDirection::kExport);
  out->set_import_policy(in.name);
  out->set_export_policy(exp.name);
  out->set_import_policy_inherited(in.inherited);
  out->set_export_policy_inherited(exp.inherited);
  out->set_malformed_updates(p.counters().malformed_updates);
  out->set_max_prefixes_exceeded(p.max_prefixes_exceeded());
  out->set_first_as_violations(p.counters().first_as_violations);
  out->set_own_next_hop_routes(p.counters().own_next_hop);
  out->set_oversize_withdrawn(p.counters().oversize_withdrawn);
  out->set_route_reflector_client(c.route_reflector_client);
  out->set_group(p.settings().group);
  out->set_local_as(c.as_path.local_as);
  out->set_allowas_in(c.as_path.allowas_in);
  out->set_remove_private_as(RemovePrivateAsName(c.as_path));
  out->set_default_originate(c.default_originate);
  const PeerGracefulRestart& gr = p.graceful_restart();
  out->set_graceful_restart_configured(p.settings().graceful_restart);
  out->set_graceful_restart(gr.negotiated());
  out->set_peer_restart_time(gr.peer_restart_time());
  out->set_stale_routes(gr.stale_routes());
  out->set_peer_restarting(gr.helping());
  out->set_output_deferred(p.output_gate().closed());
  if (p.output_gate().closed()) out->set_output_deferred_routes(p.output_gate().size());
  for (const AfiSafi& f : p.end_of_rib_received()) out->add_end_of_rib_received(FamilyName(f));
  out->set_long_lived_stale_time(p.settings().long_lived_stale_time);
  out->set_long_lived_graceful_restart(gr.llgr_negotiated());
  out->set_llgr_stale_routes(gr.llgr_stale_routes());
  if (auto left = gr.llgr_time_left())
    out->set_llgr_time_left(static_cast<uint32_t>(left->count()));
}

void BgpService::ListPeers(const v1::ListPeersRequest& request,
                           ipc::Responder<v1::ListPeersReply> reply) {
  auto only = OptionalAddrFromProto(request.peer(), "peer");
  if (!only.ok()) return reply.Fail(only.status());
  v1::ListPeersReply out;
  if (*only) {
    const BgpPeer* p = speaker_.peer(**only);
    if (!p) return reply.Fail(NotFound("no peer " + (*only)->ToString()));
    fill_peer(*p, out.add_peers());
  } else {
    for (const auto& [addr, p] : speaker_.peers()) fill_peer(*p, out.add_peers());
  }
  reply(out);
}

void BgpService::fill_route(const BgpRouteRef& r, bool best, std::string_view reason,
                            v1::BgpRoute* out) const {
  ipc::PrefixToProto(r->prefix, out->mutable_prefix());
  if (r->peer && !r->peer->address.is_zero())
    ipc::AddrToProto(r->peer->address, out->mutable_peer());
  fill_attributes(r->path(), out);
  out->set_best(best);
  if (best) out->set_reason(std::string(reason));
  out->set_resolvable(r->resolvable);
  out->set_igp_metric(r->igp_metric);
  out->set_rpki(std::string(RovStateName(r->rov_state())));
  out->set_accepted(true);
}

void BgpService::fill_attributes(const PathAttributes& a, v1::BgpRoute* out) {
  if (a.next_hop) ipc::AddrToProto(*a.next_hop, out->mutable_nexthop());
  out->set_as_path(a.as_path ? a.as_path->ToString() : "");
  out->set_origin(std::string(OriginName(a.origin.value_or(Origin::kIncomplete))));
  if (a.med) out->set_med(*a.med);
  if (a.local_pref) out->set_local_pref(*a.local_pref);
  for (uint32_t c : a.communities) out->add_communities(CommunityToString(c));
  for (const LargeCommunity& lc : a.large_communities()) {
    out->add_large_communities(std::to_string(lc.global_admin) + ":" + std::to_string(lc.local1) +
                               ":" + std::to_string(lc.local2));
  }
  for (uint64_t ec : a.ext_communities()) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(ec));
    out->add_ext_communities(buf);
  }
  if (a.originator_id()) ipc::AddrToProto(*a.originator_id(), out->mutable_originator_id());
  for (uint32_t c : a.cluster_list()) out->add_cluster_list(IpAddr::V4(c).ToString());
}

void BgpService::ListRoutes(const v1::ListRoutesRequest& request,
                            ipc::Responder<v1::ListRoutesReply> reply) {
  std::optional<IpPrefix> only;
  if (!request.prefix().addr().empty()) {
    auto p = ipc::PrefixFromProto(request.prefix(), "prefix");
    if (!p.ok()) return reply.Fail(p.status());
    only = *p;
  }
  auto peer = OptionalAddrFromProto(request.peer(), "peer");
  if (!peer.ok()) return reply.Fail(peer.status());
  if (*peer && !speaker_.peer(**peer)) {
    return reply.Fail(NotFound("no peer " + (*peer)->ToString()));
  }
  v1::ListRoutesReply out;
  BgpPipeline* pl = speaker_.pipeline();
  if (!pl) return reply(out);
  std::vector<IpPrefix> prefixes = only ? std::vector<IpPrefix>{*only} : pl->fanout().prefixes();
  for (const IpPrefix& prefix : prefixes) {
    auto ex = pl->explain(prefix);
    if (!ex) continue;
    for (const BgpRouteRef& r : ex->candidates) {
      const bool best = r == ex->winner.route || SameRoute(*r, *ex->winner.route);
      if (request.best_only() && !best) continue;
      if (*peer && r->peer->address != **peer) continue;
      if (request.limit() != 0 && static_cast<uint32_t>(out.routes_size()) >= request.limit()) {
        out.set_truncated(true);
        return reply(out);
      }
      fill_route(r, best, DecisionReasonName(ex->winner.reason), out.add_routes());
    }
  }
  reply(out);
}

void BgpService::GetStats(const v1::GetStatsRequest&, ipc::Responder<v1::GetStatsReply> reply) {
  v1::GetStatsReply out;
  out.set_peers(speaker_.peers().size());
  uint64_t established = 0;
  for (const auto& [addr, p] : speaker_.peers()) {
    established += p->session().state() == SessionState::kEstablished;
  }
  out.set_peers_established(established);
  if (speaker_.configured()) ipc::AddrToProto(speaker_.cluster_id(), out.mutable_cluster_id());
  out.set_graceful_restart_restarting(speaker_.restarting());
  if (auto left = speaker_.deferral_remaining()) {
    out.set_graceful_restart_deferral_remaining_s(static_cast<uint32_t>(left->count()));
  }
  for (const IpAddr& a : speaker_.awaited_end_of_rib()) {
    ipc::AddrToProto(a, out.add_graceful_restart_awaiting());
  }
  if (BgpPipeline* pl = speaker_.pipeline()) {
    out.set_prefixes(pl->decision().size());
    uint64_t paths = 0;
    if (auto c = pl->counters(speaker_.local_peer()); c.ok()) paths += c->received;
    for (const auto& [addr, p] : speaker_.peers()) {
      if (auto c = pl->counters(p->id()); c.ok()) paths += c->received;
    }
    out.set_paths(paths);
    out.set_nexthops(pl->nexthop_cache().answers());
    out.set_fanout_queue(pl->fanout().queue_size());
  }
  out.set_attribute_sets(speaker_.attribute_sets());
  if (sink_) {
    out.set_rib_routes_sent(sink_->counters().routes_sent);
    out.set_rib_queue(sink_->queued());
  }
  out.set_background_tasks(speaker_.background_tasks());
  out.set_input_pauses(speaker_.input_pauses());
  out.set_input_paused(speaker_.input_paused());
  out.set_import_policy(speaker_.vr_policies().import_policy.name);
  out.set_export_policy(speaker_.vr_policies().export_policy.name);
  if (redist_) {
    for (const std::string& p : redist_->protocols()) out.add_redistributed_protocols(p);
  }
  std::map<std::string, uint64_t> per_protocol;
  for (const auto& [prefix, r] : speaker_.redistributed()) ++per_protocol[r.protocol];
  for (const auto& [protocol, n] : per_protocol) {
    v1::RedistributedCount* c = out.add_redistributed_routes();
    c->set_protocol(protocol);
    c->set_routes(n);
  }
  reply(out);
}

}  // namespace strata::bgp
