#include "bgp/pipeline/peer_out.h"

#include <cassert>
#include <unordered_map>

namespace strata::bgp {

PeerOut::PeerOut(PeerId peer, SessionSink& sink, BgpStage* parent, size_t max_batch, FlowFn flow)
    : PassThroughStage(parent),
      peer_(peer),
      sink_(sink),
      max_batch_(max_batch),
      flow_(std::move(flow)) {
  assert(max_batch_ > 0);
}

void PeerOut::queue(const IpPrefix& prefix, AttributeSetPtr attrs) {
  pending_[prefix] = std::move(attrs);
  if (pending_.size() >= max_batch_) flush();
}

void PeerOut::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  ++counters_.advertised;
  queue(route->prefix, route->attrs);
}

void PeerOut::replace_route(const BgpRouteRef& /*old_route*/, const BgpRouteRef& new_route,
                            BgpStage* /*caller*/) {
  queue(new_route->prefix, new_route->attrs);
}

void PeerOut::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  --counters_.advertised;
  queue(route->prefix, nullptr);
}

void PeerOut::set_blocked(bool blocked) {
  if (blocked_ == blocked) return;
  blocked_ = blocked;
  counters_.busy_pauses += blocked;
  if (flow_) flow_(blocked);
}

void PeerOut::flush() {
  if (pending_.empty()) return;
  if (sink_.busy()) {
    set_blocked(true);
    return;
  }
  UpdateBatch batch;
  std::unordered_map<AttributeSetPtr, size_t, AttributeSetPtrHash, AttributeSetPtrEq> groups[2];
  for (auto& [prefix, attrs] : pending_) {
    if (!attrs) {
      batch.withdrawals.push_back(prefix);
      continue;
    }
    auto& by_attrs = groups[prefix.is_v4() ? 0 : 1];
    auto [it, fresh] = by_attrs.try_emplace(attrs, batch.announcements.size());
    if (fresh) batch.announcements.push_back(AnnouncementGroup{attrs, prefix.family(), {}});
    batch.announcements[it->second].prefixes.push_back(prefix);
  }
  pending_.clear();
  counters_.withdrawals_sent += batch.withdrawals.size();
  for (const AnnouncementGroup& g : batch.announcements) {
    counters_.announcements_sent += g.prefixes.size();
  }
  ++counters_.batches_sent;
  sink_.send_updates(std::move(batch));
  if (sink_.busy()) set_blocked(true);
}

void PeerOut::sink_ready() {
  if (sink_.busy()) return;
  flush();  // may find the sink busy again
  if (!sink_.busy()) set_blocked(false);
}

}  // namespace strata::bgp
