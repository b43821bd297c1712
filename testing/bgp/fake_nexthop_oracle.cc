#include "testing/bgp/fake_nexthop_oracle.h"

namespace strata::bgp {

NexthopAnswer FakeNexthopOracle::Answer(const IpAddr& nexthop) const {
  const auto range = igp_.range(nexthop);
  NexthopAnswer a;
  a.covering = range.valid;
  a.resolvable = range.match.value != nullptr;
  a.metric = a.resolvable ? *range.match.value : 0;
  if (a.resolvable) {
    if (auto it = connected_.find(range.match.prefix); it != connected_.end()) {
      a.connected = NexthopAnswer::Connected{it->first, it->second};
    }
  }
  return a;
}

void FakeNexthopOracle::register_interest(const IpAddr& nexthop) {
  ++questions_;
  if (auto_answer_) {
    answer(nexthop);
  } else {
    queue_.push_back(nexthop);
  }
}

void FakeNexthopOracle::answer(const IpAddr& nexthop) {
  const NexthopAnswer a = Answer(nexthop);
  registered_.insert(a.covering);
  if (listener_) listener_->nexthop_answer(nexthop, a);
}

size_t FakeNexthopOracle::answer_all() {
  size_t n = 0;
  while (!queue_.empty()) {
    std::vector<IpAddr> batch = std::move(queue_);
    queue_.clear();
    for (const IpAddr& nh : batch) answer(nh);
    n += batch.size();
  }
  return n;
}

void FakeNexthopOracle::invalidate_overlapping(const IpPrefix& prefix) {
  std::vector<IpPrefix> hit;
  for (const IpPrefix& c : registered_) {
    if (c.Overlaps(prefix)) hit.push_back(c);
  }
  for (const IpPrefix& c : hit) {
    registered_.erase(c);
    if (listener_) listener_->nexthop_invalidated(c);
  }
}

void FakeNexthopOracle::set_route(const IpPrefix& prefix, uint32_t metric) {
  igp_.insert(prefix, metric);
  invalidate_overlapping(prefix);
}

void FakeNexthopOracle::set_connected(const IpPrefix& subnet, const IpAddr& local) {
  connected_[subnet] = local;
  set_route(subnet, 0);
}

void FakeNexthopOracle::remove_route(const IpPrefix& prefix) {
  connected_.erase(prefix);
  if (igp_.erase(prefix)) invalidate_overlapping(prefix);
}

}  // namespace strata::bgp
