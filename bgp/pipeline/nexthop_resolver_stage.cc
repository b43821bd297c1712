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
  for (const auto& [nh, chain] : by_nexthop_) cache_.remove_user(nh);
}

std::optional<IpAddr> NexthopResolverStage::NexthopOf(const BgpRoute& r) {
  const auto& nh = r.path().next_hop;
  if (!nh || nh->family() != r.prefix.family() || nh->is_zero()) return std::nullopt;
  return nh;
}

void NexthopResolverStage::index(uint32_t h, Entry& e) {
  const auto nh = NexthopOf(e.in());
  if (!nh) return;
  if (last_chain_ == by_nexthop_.end() || last_chain_->first != *nh) {
    last_chain_ = by_nexthop_.try_emplace(*nh).first;
  }
  Chain& chain = last_chain_->second;
  e.prev = kNoEntry;
  e.next = chain.first;
  if (chain.first != kNoEntry) entries_.at(chain.first).prev = h;
  chain.first = h;
  if (chain.count++ == 0)
    cache_.add_user(*nh);  // may answer synchronously and call nexthops_changed
}

std::optional<IpAddr> NexthopResolverStage::unlink(Entry& e) {
  const auto nh = NexthopOf(e.in());
  if (!nh) return std::nullopt;
  auto it = last_chain_ != by_nexthop_.end() && last_chain_->first == *nh ? last_chain_
                                                                          : by_nexthop_.find(*nh);
  if (it == by_nexthop_.end()) return std::nullopt;
  Chain& chain = it->second;
  if (e.prev != kNoEntry) {
    entries_.at(e.prev).next = e.next;
  } else {
    chain.first = e.next;
  }
  if (e.next != kNoEntry) entries_.at(e.next).prev = e.prev;
  e.prev = e.next = kNoEntry;
  if (--chain.count > 0) return std::nullopt;
  if (last_chain_ == it) last_chain_ = by_nexthop_.end();
  by_nexthop_.erase(it);
  return nh;
}

void NexthopResolverStage::unindex(Entry& e) {
  if (auto released = unlink(e)) cache_.remove_user(*released);
}

BgpRouteRef NexthopResolverStage::sent_of(const Entry& e) const {
  switch (e.sent()) {
    case Sent::kNothing:
      return nullptr;
    case Sent::kIn:
      return e.in_ref();
    case Sent::kCopy:
      break;
  }
  auto it = copies_.find(e.in().prefix);
  return it == copies_.end() ? nullptr : it->second;
}

void NexthopResolverStage::set_sent(Entry& e, BgpRouteRef sent) {
  if (sent && !e.is_in(sent)) {
    copies_[e.in().prefix] = std::move(sent);
    e.set_sent(Sent::kCopy);
    e.set_sent_from_in(true);
    return;
  }
  if (e.sent() == Sent::kCopy) copies_.erase(e.in().prefix);
  e.set_sent(sent ? Sent::kIn : Sent::kNothing);
  e.set_sent_from_in(false);
}

BgpRouteRef NexthopResolverStage::Annotated(const BgpRouteRef& in, uint32_t metric) {
  if (!in->annotated) {  // first pass through a resolver: nothing below has seen it
    in->annotated = true;
    in->resolvable = true;
    in->igp_metric = metric;
    return in;
  }
  if (in->resolvable && in->igp_metric == metric) return in;
  BgpRoutePtr copy = NewRoute(*in);
  copy->igp_metric = metric;
  copy->resolvable = true;
  return copy;
}

void NexthopResolverStage::reevaluate(Entry& e) {
  const bool same_input = e.sent() == Sent::kIn || (e.sent() == Sent::kCopy && e.sent_from_in());
  BgpRouteRef annotated;
  if (auto nh = NexthopOf(e.in())) {
    if (auto answer = cache_.lookup(*nh); answer && answer->resolvable) {
      if (same_input && sent_of(e)->igp_metric == answer->metric) return;
      annotated = Annotated(e.in_ref(), answer->metric);
    }
  } else if (const auto& self = e.in().path().next_hop;
             self && self->is_zero() && self->family() == e.in().prefix.family()) {
    // The zero address is "ourselves": a route we originate, always usable.
    if (same_input) return;
    annotated = Annotated(e.in_ref(), 0);
  }
  if (same_input && annotated) ++reevaluated_;
  BgpRouteRef old = sent_of(e);
  set_sent(e, annotated);
  send_change(old, annotated);
}

void NexthopResolverStage::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  auto [h, fresh] = entries_.try_emplace_handle(route->prefix, Entry(route));
  Entry* e = &entries_.at(h);
  if (!fresh) {  // contract broken upstream (an add for a prefix held); treat as replace
    replace_route(e->in_ref(), route, nullptr);
    return;
  }
  index(h, *e);    // a synchronous answer may already send the route
  reevaluate(*e);  // slabs never move: e is still valid
}

void NexthopResolverStage::replace_route(const BgpRouteRef& /*old_route*/,
                                         const BgpRouteRef& new_route, BgpStage* /*caller*/) {
  const uint32_t h = entries_.find_handle(new_route->prefix);
  if (h == kNoEntry) {  // contract broken upstream; treat as add
    add_route(new_route, nullptr);
    return;
  }
  Entry* e = &entries_.at(h);
  // What was sent stays sent until reevaluate replaces it: kept aside if it was `in` itself.
  if (e->sent() == Sent::kIn) {
    copies_[e->in().prefix] = e->in_ref();
    e->set_sent(Sent::kCopy);
  }
  e->set_sent_from_in(false);
  const bool moved = NexthopOf(e->in()) != NexthopOf(*new_route);
  // Chain the new next hop before releasing the old so a shared answer is not deregistered.
  const std::optional<IpAddr> released = moved ? unlink(*e) : std::nullopt;
  e->set_in(new_route);
  if (moved) index(h, *e);
  if (released) cache_.remove_user(*released);
  reevaluate(*e);  // slabs never move: e is still valid
}

void NexthopResolverStage::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  Entry* e = entries_.find_mutable(route->prefix);
  if (!e) return;
  unindex(*e);
  const BgpRouteRef sent = sent_of(*e);
  if (e->sent() == Sent::kCopy) copies_.erase(route->prefix);
  entries_.erase(route->prefix);
  if (sent) send_delete(sent);
}

void NexthopResolverStage::prefetch(std::span<const IpPrefix> prefixes) {
  entries_.warm(prefixes);
  BgpStage::prefetch(prefixes);
}

BgpRouteRef NexthopResolverStage::lookup_route(const IpPrefix& prefix) const {
  const Entry* e = entries_.find(prefix);
  return e ? sent_of(*e) : nullptr;
}

void NexthopResolverStage::replace_parent(BgpStage* old_parent, BgpStage* new_parent) {
  if (parent_ == old_parent) parent_ = new_parent;
}

void NexthopResolverStage::nexthops_changed(const IpPrefix& region) {
  std::vector<IpPrefix> affected;
  for (auto it = by_nexthop_.lower_bound(region.addr());
       it != by_nexthop_.end() && region.Contains(it->first); ++it) {
    const size_t start = affected.size();
    for (uint32_t h = it->second.first; h != kNoEntry; h = entries_.at(h).next) {
      affected.push_back(entries_.at(h).in().prefix);
    }
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
    if (e.sent() != Sent::kNothing) continue;
    auto nh = NexthopOf(e.in());
    if (nh && !cache_.lookup(*nh)) {
      ++c.held;
    } else {
      ++c.unresolvable;
    }
  }
  return c;
}

}  // namespace strata::bgp
