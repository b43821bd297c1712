// BgpService's views of what became of each route: list_peer_routes (a peer's routes received,
// rejected, advertised or discarded, a page at a time) and explain_prefix (every path for a
// prefix). The pipeline answers from its stages at the time of the call (BgpPipeline::fate); the
// reasons are put in words here.
#include <algorithm>

#include "bgp/pipeline/decision_steps.h"
#include "bgp/process/bgp_proto_convert.h"
#include "bgp/process/bgp_service.h"
#include "libipc/common_convert.h"

namespace strata::bgp {

namespace {

constexpr uint32_t kDefaultPage = 1000;
// The most routes one page examines for the REJECTED view (most routes are accepted): the reply
// then carries the cursor of the last one examined, so a call never holds the process long.
constexpr uint32_t kMostExamined = 100000;

bool Used(v1::RouteFate f) {
  return f == v1::ROUTE_FATE_BEST || f == v1::ROUTE_FATE_MULTIPATH || f == v1::ROUTE_FATE_CANDIDATE;
}

v1::RouteFate DiscardFate(DiscardLog::Reason r) {
  switch (r) {
    case DiscardLog::Reason::kMalformed:
      return v1::ROUTE_FATE_MALFORMED;
    case DiscardLog::Reason::kFirstAs:
      return v1::ROUTE_FATE_FIRST_AS;
    case DiscardLog::Reason::kOwnNextHop:
      return v1::ROUTE_FATE_OWN_NEXTHOP;
    case DiscardLog::Reason::kMaxPrefix:
      return v1::ROUTE_FATE_MAX_PREFIX;
  }
  return v1::ROUTE_FATE_UNSPECIFIED;
}

}  // namespace

void BgpService::fill_fate(PeerId id, const BgpPipeline::RouteFate& f, v1::PeerRoute* out) const {
  using Verdict = InputFilterStage::Verdict;
  using Nexthop = NexthopResolverStage::State;
  const BgpPeer* peer = f.received->peer ? speaker_.peer(f.received->peer->address) : nullptr;
  fill_route(f.received, false, "", out->mutable_route());
  out->mutable_route()->set_accepted(f.accepted != nullptr);
  out->set_stale(f.stale);
  if (f.accepted) {
    fill_route(f.accepted, f.best, "", out->mutable_accepted());
    out->mutable_accepted()->set_resolvable(f.nexthop == Nexthop::kReachable);
  }
  const uint32_t local_as = speaker_.local_config() ? speaker_.local_config()->local_as : 0;
  switch (f.verdict) {
    case Verdict::kPass:
      break;
    case Verdict::kAsLoop:
      out->set_fate(v1::ROUTE_FATE_AS_LOOP);
      out->set_reason("AS loop: our AS " + std::to_string(local_as) + " is in the AS path");
      return;
    case Verdict::kOriginatorId:
      out->set_fate(v1::ROUTE_FATE_ORIGINATOR_ID_LOOP);
      out->set_reason("ORIGINATOR_ID is our router id (RFC 4456)");
      return;
    case Verdict::kClusterLoop:
      out->set_fate(v1::ROUTE_FATE_CLUSTER_LIST_LOOP);
      out->set_reason("CLUSTER_LIST holds our cluster id (RFC 4456)");
      return;
    case Verdict::kPolicy:
      out->set_fate(v1::ROUTE_FATE_REJECTED_POLICY);
      out->set_reason(peer ? "rejected by " + peer->ExplainImport(f.received)
                           : "rejected by import policy");
      return;
  }
  if (!f.accepted) return;  // the filter passes what it accepts; guards the invariant
  if (f.suppressed) {
    out->set_fate(v1::ROUTE_FATE_DAMPED);
    out->set_reason("suppressed by flap damping (show bgp dampened)");
    return;
  }
  const auto& nh = f.accepted->path().next_hop;
  const std::string nh_text = nh ? nh->ToString() : "";
  if (!f.candidate) {
    if (f.nexthop == Nexthop::kPending) {
      out->set_fate(v1::ROUTE_FATE_NEXTHOP_PENDING);
      out->set_reason("next hop " + nh_text + ": waiting for the RIB's answer");
    } else {
      out->set_fate(v1::ROUTE_FATE_NEXTHOP_UNRESOLVED);
      // The resolver does not keep which: no route to it, or (RFC 4271 5.1.3, 6.3) our own
      // address, a subnet's network or broadcast address, off-link from a single-hop eBGP peer.
      out->set_reason(nh ? "next hop " + nh_text +
                               " unusable: no route in the RIB, or not valid for this peer "
                               "(RFC 4271 5.1.3, 6.3)"
                         : "no next hop");
    }
    return;
  }
  const auto ex = speaker_.pipeline()->explain(f.received->prefix);
  if (!ex) return;  // a candidate has a winner; guards a change between the two lookups
  size_t i = 0;
  while (i < ex->candidates.size() &&
         !(ex->candidates[i]->peer && ex->candidates[i]->peer->id == id)) {
    ++i;
  }
  const std::string step = i < ex->lost_at.size()
                               ? std::string(DecisionReasonName(ex->lost_at[i]))
                               : std::string(DecisionReasonName(ex->winner.reason));
  if (f.best) {
    out->set_fate(v1::ROUTE_FATE_BEST);
    out->set_reason("best: " + std::string(DecisionReasonName(ex->winner.reason)));
    out->mutable_route()->set_best(true);
    out->mutable_accepted()->set_reason(std::string(DecisionReasonName(ex->winner.reason)));
  } else if (i < ex->multipath.size() && ex->multipath[i]) {
    out->set_fate(v1::ROUTE_FATE_MULTIPATH);
    out->set_reason("multipath with the best; lost at " + step);
  } else {
    out->set_fate(v1::ROUTE_FATE_CANDIDATE);
    out->set_reason("lost at " + step);
  }
}

void BgpService::ListPeerRoutes(const v1::ListPeerRoutesRequest& request,
                                ipc::Responder<v1::ListPeerRoutesReply> reply) {
  if (!request.has_peer()) return reply.Fail(InvalidArgument("peer is missing"));
  auto addr = ipc::AddrFromProto(request.peer(), "peer");
  if (!addr.ok()) return reply.Fail(addr.status());
  const BgpPeer* peer = speaker_.peer(*addr);
  if (!peer) return reply.Fail(NotFound("no peer " + addr->ToString()));
  std::optional<IpPrefix> only, after;
  if (request.has_prefix()) {
    auto p = ipc::PrefixFromProto(request.prefix(), "prefix");
    if (!p.ok()) return reply.Fail(p.status());
    only = *p;
  }
  if (request.has_start_after()) {
    auto p = ipc::PrefixFromProto(request.start_after(), "start_after");
    if (!p.ok()) return reply.Fail(p.status());
    after = *p;
  }
  const uint32_t limit = request.limit() == 0 ? kDefaultPage : request.limit();
  v1::ListPeerRoutesReply out;
  BgpPipeline* pl = speaker_.pipeline();
  if (!pl) return reply(out);
  // The cursor of the last route put in (or examined): where the next page starts.
  std::optional<IpPrefix> last;
  bool more = false;
  Status s;
  if (request.view() == v1::PEER_ROUTE_VIEW_DISCARDED) {
    for (const DiscardLog::Entry& e : peer->discards().entries()) {
      if (only && e.prefix != *only) continue;
      v1::PeerRoute* pr = out.add_routes();
      ipc::PrefixToProto(e.prefix, pr->mutable_route()->mutable_prefix());
      pr->set_fate(DiscardFate(e.reason));
      pr->set_reason(*e.why);
      pr->set_unix_ms(e.unix_ms);
    }
    return reply(out);
  }
  if (request.view() == v1::PEER_ROUTE_VIEW_ADVERTISED) {
    s = pl->for_each_advertised(
        peer->id(), only,
        [&](const BgpRouteRef& r) {
          if (static_cast<uint32_t>(out.routes_size()) >= limit) return !(more = true);
          v1::PeerRoute* pr = out.add_routes();
          fill_route(r, false, "", pr->mutable_route());
          pr->set_fate(v1::ROUTE_FATE_ADVERTISED);
          last = r->prefix;
          return true;
        },
        after);
  } else {
    const bool rejected_only = request.view() == v1::PEER_ROUTE_VIEW_REJECTED;
    uint32_t examined = 0;
    s = pl->for_each_received(
        peer->id(), only,
        [&](const BgpPipeline::RouteFate& f) {
          if (static_cast<uint32_t>(out.routes_size()) >= limit || examined >= kMostExamined) {
            return !(more = true);
          }
          ++examined;
          last = f.received->prefix;
          v1::PeerRoute pr;
          fill_fate(peer->id(), f, &pr);
          if (!rejected_only || !Used(pr.fate())) *out.add_routes() = std::move(pr);
          return true;
        },
        after);
  }
  if (!s.ok()) return reply.Fail(s);
  if (more && last) ipc::PrefixToProto(*last, out.mutable_next());
  reply(out);
}

void BgpService::ExplainPrefix(const v1::ExplainPrefixRequest& request,
                               ipc::Responder<v1::ExplainPrefixReply> reply) {
  if (!request.has_prefix()) return reply.Fail(InvalidArgument("prefix is missing"));
  auto prefix = ipc::PrefixFromProto(request.prefix(), "prefix");
  if (!prefix.ok()) return reply.Fail(prefix.status());
  v1::ExplainPrefixReply out;
  BgpPipeline* pl = speaker_.pipeline();
  if (!pl) return reply(out);
  std::vector<PeerId> ids = {speaker_.local_peer()};
  for (const auto& [addr, p] : speaker_.peers()) ids.push_back(p->id());
  for (PeerId id : ids) {
    auto f = pl->fate(id, *prefix);
    if (!f.ok() || !*f) continue;
    fill_fate(id, **f, out.add_paths());
  }
  // The best first, then the other candidates, then the routes no decision sees.
  auto rank = [](const v1::PeerRoute& r) {
    switch (r.fate()) {
      case v1::ROUTE_FATE_BEST:
        return 0;
      case v1::ROUTE_FATE_MULTIPATH:
        return 1;
      case v1::ROUTE_FATE_CANDIDATE:
        return 2;
      default:
        return 3;
    }
  };
  std::stable_sort(
      out.mutable_paths()->begin(), out.mutable_paths()->end(),
      [&](const v1::PeerRoute& a, const v1::PeerRoute& b) { return rank(a) < rank(b); });
  if (auto ex = pl->explain(*prefix)) {
    out.set_best_reason(std::string(DecisionReasonName(ex->winner.reason)));
  }
  reply(out);
}

}  // namespace strata::bgp
