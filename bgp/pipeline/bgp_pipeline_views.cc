// BgpPipeline's operators' views of one peer's routes: received, accepted or rejected and why,
// usable or not and why, advertised (default-originate's defaults included). Each is asked of the
// branch's stages at the time of the call (lookups; nothing is stored for the views).
#include "bgp/pipeline/bgp_pipeline.h"

namespace strata::bgp {

StatusOr<std::optional<BgpPipeline::RouteFate>> BgpPipeline::fate(PeerId id,
                                                                  const IpPrefix& prefix) const {
  const Peer* p = find(id);
  if (!p) return NotFound("no peer " + std::to_string(id));
  RouteFate f;
  f.received = p->in->lookup_route(prefix);
  if (!f.received) return std::optional<RouteFate>();
  f.stale = f.received->peer != p->session;
  f.accepted = p->filter_in->Explain(f.received, &f.verdict);
  if (!f.accepted) return std::optional<RouteFate>(std::move(f));
  f.suppressed = p->damping && p->damping->suppressed(prefix);
  if (f.suppressed) return std::optional<RouteFate>(std::move(f));
  f.nexthop = p->resolver->state(prefix);
  f.candidate = p->resolver->lookup_route(prefix);
  if (f.candidate) {
    const auto why = decision_->Explain(prefix);
    f.best =
        why && why->winner.route && why->winner.route->peer && why->winner.route->peer->id == id;
  }
  return std::optional<RouteFate>(std::move(f));
}

Status BgpPipeline::for_each_received(PeerId id, const std::optional<IpPrefix>& prefix,
                                      const std::function<bool(const RouteFate&)>& visit,
                                      const std::optional<IpPrefix>& start_after) const {
  const Peer* p = find(id);
  if (!p) return NotFound("no peer " + std::to_string(id));
  if (prefix) {
    auto f = fate(id, *prefix);
    if (f.ok() && *f) visit(**f);
    return Status::Ok();
  }
  std::optional<IpPrefix> after = start_after;
  while (true) {
    const auto hit = p->in->table().next_after(after);
    if (!hit.value) return Status::Ok();
    after = hit.prefix;
    auto f = fate(id, hit.prefix);
    if (f.ok() && *f && !visit(**f)) return Status::Ok();
  }
}

Status BgpPipeline::for_each_advertised(PeerId id, const std::optional<IpPrefix>& prefix,
                                        const std::function<bool(const BgpRouteRef&)>& visit,
                                        const std::optional<IpPrefix>& start_after) const {
  const Peer* p = find(id);
  if (!p) return NotFound("no peer " + std::to_string(id));
  if (!p->filter_out) return FailedPrecondition("peer " + std::to_string(id) + " is not up");
  if (prefix) {
    if (BgpRouteRef r = p->filter_out->lookup_route(*prefix)) visit(r);
    return Status::Ok();
  }
  // The prefixes with a winner are among those some branch holds, plus the default routes a
  // peer with default_originate gets though no branch holds them.
  std::optional<IpPrefix> after = start_after;
  while (true) {
    std::optional<IpPrefix> next;
    for (const auto& [other, q] : peers_) {
      const std::optional<IpPrefix> n = NextHeld(*q, after);
      if (n && (!next || *n < *next)) next = n;
    }
    for (Family f : {Family::kIpv4, Family::kIpv6}) {
      const IpPrefix d = IpPrefix::Default(f);
      if ((!after || *after < d) && (!next || d < *next)) next = d;
    }
    if (!next) return Status::Ok();
    after = next;
    if (BgpRouteRef r = p->filter_out->lookup_route(*next); r && !visit(r)) return Status::Ok();
  }
}

}  // namespace strata::bgp
