#include "bgp/pipeline/peer_out.h"

#include <cassert>

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
  if (pending_.size() == 1) {
    // One change (a route event between bulk runs): no grouping.
    auto& [prefix, attrs] = *pending_.begin();
    if (attrs) {
      batch.announcements.push_back(AnnouncementGroup{std::move(attrs), prefix.family(), {prefix}});
    } else {
      batch.withdrawals.push_back(prefix);
    }
    pending_.clear();
    send(std::move(batch));
    return;
  }
  // Two passes, so each group's prefixes take one allocation: the groups and their sizes, then
  // the prefixes (in order: each group's come sorted). The index is kept for its capacity.
  group_of_.clear();
  size_t withdrawals = 0;
  for (const auto& [prefix, attrs] : pending_) {
    if (!attrs) {
      ++withdrawals;
      group_of_.push_back(kWithdrawal);
      continue;
    }
    auto& by_attrs = groups_[prefix.is_v4() ? 0 : 1];
    auto [it, fresh] =
        by_attrs.try_emplace(attrs, static_cast<uint32_t>(batch.announcements.size()));
    if (fresh) {
      batch.announcements.push_back(AnnouncementGroup{attrs, prefix.family(), {}});
      group_sizes_.push_back(0);
    }
    ++group_sizes_[it->second];
    group_of_.push_back(it->second);
  }
  batch.withdrawals.reserve(withdrawals);
  for (size_t g = 0; g < batch.announcements.size(); ++g) {
    batch.announcements[g].prefixes.reserve(group_sizes_[g]);
  }
  size_t i = 0;
  for (const auto& [prefix, attrs] : pending_) {
    const uint32_t g = group_of_[i++];
    if (g == kWithdrawal) {
      batch.withdrawals.push_back(prefix);
    } else {
      batch.announcements[g].prefixes.push_back(prefix);
    }
  }
  groups_[0].clear();
  groups_[1].clear();
  group_sizes_.clear();
  pending_.clear();
  send(std::move(batch));
}

void PeerOut::send(UpdateBatch batch) {
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
