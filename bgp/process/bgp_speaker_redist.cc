// BgpSpeaker: routes redistributed from the RIB (static, connected) enter the pipeline through
// the local pseudo-peer like networks, with ORIGIN INCOMPLETE, and carry their protocol to the
// export policies in PathAttributes::local_protocol (part of the route, so the filter stages see
// the same protocol whenever they evaluate it). The local pseudo-peer holds one route a prefix:
// a network (add_network) replaces a redistributed route of its prefix and gives it back when
// deleted.
#include "bgp/process/bgp_speaker.h"

namespace strata::bgp {

void BgpSpeaker::inject_redist(const IpPrefix& prefix, const RedistRoute& route) {
  PathAttributes a;
  a.origin = Origin::kIncomplete;
  a.as_path = AsPath();
  a.next_hop = route.nexthop ? *route.nexthop : IpAddr::Zero(prefix.family());
  a.local_protocol() = route.protocol;
  AttributeSetPtr attrs = interner_.Intern(std::move(a));
  const IpPrefix one[] = {prefix};
  (void)pipeline_->receive_update(local_peer_id_, attrs, one, {});
}

void BgpSpeaker::withdraw_local(const IpPrefix& prefix) {
  if (!pipeline_) return;
  const IpPrefix one[] = {prefix};
  (void)pipeline_->receive_update(local_peer_id_, nullptr, {}, one);
}

Status BgpSpeaker::RedistAdd(const IpPrefix& prefix, RedistRoute route) {
  if (route.protocol.empty()) return InvalidArgument("redistributed route without protocol");
  if (route.nexthop && route.nexthop->family() != prefix.family()) route.nexthop.reset();
  if (route.nexthop && route.nexthop->is_zero()) route.nexthop.reset();
  if (auto it = redist_.find(prefix); it != redist_.end() &&
                                      it->second.protocol == route.protocol &&
                                      it->second.nexthop == route.nexthop) {
    return Status::Ok();  // unchanged (e.g. sent again after a RIB restart): nothing to announce
  }
  redist_[prefix] = route;
  if (networks_.contains(prefix)) return Status::Ok();  // add_network wins
  if (pipeline_) inject_redist(prefix, route);
  return Status::Ok();
}

Status BgpSpeaker::RedistDelete(const IpPrefix& prefix) {
  if (!redist_.erase(prefix)) return NotFound(prefix.ToString() + " is not redistributed");
  if (!networks_.contains(prefix)) withdraw_local(prefix);
  return Status::Ok();
}

}  // namespace strata::bgp
