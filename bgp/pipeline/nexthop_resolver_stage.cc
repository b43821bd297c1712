#include "bgp/pipeline/nexthop_resolver_stage.h"

#include <algorithm>
#include <vector>

namespace strata::bgp {

NexthopResolverStage::NexthopResolverStage(std::string label, BgpStage* parent, NexthopCache& cache)
    : label_(std::move(label)), parent_(parent), cache_(cache) {
  cache_.add_client(this);
}

NexthopResolverStage::~NexthopResolverStage() {
  cache_.remove_client(this);
  for (const auto& [nh, prefixes] : by_nexthop_) {
    for (size_t i = 0; i < prefixes.size(); ++i) cache_.remove_user(nh);
  }
}

std::optional<IpAddr> NexthopResolverStage::NexthopOf(const BgpRoute& r) {
  const auto& nh = r.path().next_hop;
  if (!nh || nh->family() != r.prefix.family() || nh->is_zero()) return std::nullopt;
  return nh;
}

void NexthopResolverStage::index(const BgpRouteRef& r) {
  if (auto nh = NexthopOf(*r)) {
    by_nexthop_[*nh].insert(r->prefix);
    cache_.add_user(*nh);  // may answer synchronously and call nexthops_changed
  }
}

void NexthopResolverStage::unindex(const BgpRouteRef& r) {
  if (auto nh = NexthopOf(*r)) {
    auto it = by_nexthop_.find(*nh);
    if (it != by_nexthop_.end()) {
      it->second.erase(r->prefix);
      if (it->second.empty()) by_nexthop_.erase(it);
    }
    cache_.remove_user(*nh);
  }
}

BgpRouteRef NexthopResolverStage::Annotated(const BgpRouteRef& in, uint32_t metric) {
  if (!in->annotated) {  // first pass through a resolver: nothing below has seen it
    in->annotated = true;
    in->resolvable = true;
    in->igp_metric = metric;
    return in;
  }
  if (in->resolvable && in->igp_metric == metric) return in;
  auto copy = std::make_shared<BgpRoute>(*in);
  copy->igp_metric = metric;
  copy->resolvable = true;
  return copy;
}

void NexthopResolverStage::reevaluate(Entry& e) {
  const bool same_input = e.sent && e.sent_from_in;
  BgpRouteRef annotated;
  if (auto nh = NexthopOf(*e.in)) {
    if (auto answer = cache_.lookup(*nh); answer && answer->resolvable) {
      if (same_input && e.sent->igp_metric == answer->metric) return;
      annotated = Annotated(e.in, answer->metric);
    }
  } else if (const auto& self = e.in->path().next_hop;
             self && self->is_zero() && self->family() == e.in->prefix.family()) {
    // The zero address is "ourselves": a route we originate, always usable.
    if (same_input && e.sent) return;
    annotated = Annotated(e.in, 0);
  }
  if (same_input && annotated) ++reevaluated_;
  BgpRouteRef old = std::exchange(e.sent, annotated);
  e.sent_from_in = annotated != nullptr;
  send_change(old, annotated);
}

void NexthopResolverStage::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  auto [e, fresh] = entries_.try_emplace(route->prefix, Entry{route, nullptr, false});
  if (!fresh) *e = Entry{route, nullptr, false};
  index(route);    // a synchronous answer may already send the route
  reevaluate(*e);  // slabs never move: e is still valid
}

void NexthopResolverStage::replace_route(const BgpRouteRef& /*old_route*/,
                                         const BgpRouteRef& new_route, BgpStage* /*caller*/) {
  Entry* e = entries_.find_mutable(new_route->prefix);
  if (!e) {  // contract broken upstream; treat as add
    add_route(new_route, nullptr);
    return;
  }
  BgpRouteRef previous = std::exchange(e->in, new_route);
  e->sent_from_in = false;
  if (NexthopOf(*previous) != NexthopOf(*new_route)) {
    // Index the new next hop before unindexing the old so a shared answer is not deregistered.
    index(new_route);
    unindex(previous);
  }
  reevaluate(*entries_.find_mutable(new_route->prefix));  // slabs never move: e is still valid
}

void NexthopResolverStage::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  Entry* found = entries_.find_mutable(route->prefix);
  if (!found) return;
  Entry e = std::move(*found);
  entries_.erase(route->prefix);
  unindex(e.in);
  if (e.sent) send_delete(e.sent);
}

BgpRouteRef NexthopResolverStage::lookup_route(const IpPrefix& prefix) const {
  const Entry* e = entries_.find(prefix);
  return e ? e->sent : nullptr;
}

void NexthopResolverStage::replace_parent(BgpStage* old_parent, BgpStage* new_parent) {
  if (parent_ == old_parent) parent_ = new_parent;
}

void NexthopResolverStage::nexthops_changed(const IpPrefix& region) {
  std::vector<IpPrefix> affected;
  for (auto it = by_nexthop_.lower_bound(region.addr());
       it != by_nexthop_.end() && region.Contains(it->first); ++it) {
    const size_t start = affected.size();
    affected.insert(affected.end(), it->second.begin(), it->second.end());
    std::sort(affected.begin() + static_cast<std::ptrdiff_t>(start), affected.end());
  }
  for (const IpPrefix& p : affected) {
    if (Entry* e = entries_.find_mutable(p)) reevaluate(*e);
  }
}

NexthopResolverStage::Counters NexthopResolverStage::counters() const {
  Counters c;
  c.reevaluated = reevaluated_;
  for (auto hit = entries_.next_after(std::nullopt); hit.value;
       hit = entries_.next_after(hit.prefix)) {
    const Entry& e = *hit.value;
    if (e.sent) continue;
    auto nh = NexthopOf(*e.in);
    if (nh && !cache_.lookup(*nh)) {
      ++c.held;
    } else {
      ++c.unresolvable;
    }
  }
  return c;
}

}  // namespace strata::bgp
