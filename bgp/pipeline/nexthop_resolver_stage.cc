#include "bgp/pipeline/nexthop_resolver_stage.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace strata::bgp {

NexthopResolverStage::NexthopResolverStage(std::string label, BgpStage* parent, NexthopCache& cache,
                                           WalkFn walk)
    : label_(std::move(label)), parent_(parent), cache_(cache), walk_(std::move(walk)) {
  cache_.add_client(this);
}

NexthopResolverStage::~NexthopResolverStage() {
  cache_.remove_client(this);
  for (const auto& [nh, n] : nexthops_) cache_.remove_user(nh);
}

NexthopResolverStage::Answer NexthopResolverStage::Answer::Of(
    const IpAddr& nh, const std::optional<NexthopAnswer>& a) {
  if (!a) return Answer{};
  if (!a->resolvable) return Answer{kUnreachable, 0};
  Answer out{kReachable, a->metric};
  if (!a->connected) return out;
  out.connected = true;
  const IpPrefix& subnet = a->connected->subnet;
  if (nh == a->connected->local) out.not_a_peer = true;  // ourselves
  if (nh.is_v4() && subnet.len() <= 30) {
    const uint32_t host_mask = (1u << (32 - subnet.len())) - 1;
    const uint32_t host = nh.v4_host_order() & host_mask;
    if (host == 0 || host == host_mask) out.not_a_peer = true;  // network, broadcast
  }
  return out;
}

bool NexthopResolverStage::Usable(const BgpRoute& r, const Answer& a) {
  if (a.kind != Answer::kReachable) return false;
  if (r.peer && r.peer->local) return true;  // our own routes may name our own addresses
  if (a.not_a_peer) return false;
  // Off-link third party from a single-hop external peer.
  return a.connected || !r.peer || !r.peer->directly_connected ||
         r.path().next_hop == r.peer->address;
}

std::optional<IpAddr> NexthopResolverStage::NexthopOf(const BgpRoute& r) {
  const auto& nh = r.path().next_hop;
  if (!nh || nh->family() != r.prefix.family() || nh->is_zero()) return std::nullopt;
  return nh;
}

bool NexthopResolverStage::IsSelf(const BgpRoute& r) {
  const auto& nh = r.path().next_hop;
  return r.peer && r.peer->local && nh && nh->is_zero() && nh->family() == r.prefix.family();
}

NexthopResolverStage::Answer NexthopResolverStage::AnswerAt(const Nexthop& n,
                                                            const IpPrefix& p) const {
  if (n.walking && cursor_ && p <= *cursor_) return n.target;
  return n.sent;
}

NexthopResolverStage::Answer NexthopResolverStage::sent_answer(const BgpRoute& r) const {
  const auto nh = NexthopOf(r);
  if (!nh) return IsSelf(r) ? Answer{Answer::kReachable, 0, true} : Answer{};
  auto it = last_ != nexthops_.end() && last_->first == *nh ? last_ : nexthops_.find(*nh);
  if (it == nexthops_.end()) return Answer{};  // not received yet (a parent mid-message)
  return AnswerAt(it->second, r.prefix);
}

BgpRouteRef NexthopResolverStage::annotated(const BgpRouteRef& r, const Answer& a) const {
  if (!Usable(*r, a)) return nullptr;
  if (!r->annotated) {  // first pass through a resolver: nothing below has seen it
    r->annotated = true;
    r->resolvable = true;
    r->igp_metric = a.metric;
    return r;
  }
  if (r->resolvable && r->igp_metric == a.metric) return r;
  BgpRouteRef& copy = copies_[r->prefix];
  if (copy && copy->resolvable && copy->igp_metric == a.metric && SameRoute(*copy, *r) &&
      copy->rov == r->rov) {
    return copy;
  }
  BgpRoutePtr fresh = NewRoute(*r);
  fresh->igp_metric = a.metric;
  fresh->resolvable = true;
  copy = fresh;
  return copy;
}

void NexthopResolverStage::settle(const IpPrefix& p, const BgpRouteRef& out) {
  auto it = copies_.find(p);
  if (it != copies_.end() && it->second != out) copies_.erase(it);
}

NexthopResolverStage::Nexthop* NexthopResolverStage::chain(const BgpRoute& r, const IpAddr* nh) {
  if (!nh) {
    if (!IsSelf(r)) ++unchained_;
    return nullptr;
  }
  if (last_ == nexthops_.end() || last_->first != *nh) last_ = nexthops_.try_emplace(*nh).first;
  Nexthop& n = last_->second;
  if (n.count++ > 0) return &n;
  cache_.add_user(*nh);  // an answer given at once is deferred (in a message)
  n.sent = Answer::Of(*nh, cache_.lookup(*nh));
  return &n;
}

std::optional<IpAddr> NexthopResolverStage::unchain(const BgpRoute& r) {
  const auto nh = NexthopOf(r);
  if (!nh) {
    if (!IsSelf(r)) --unchained_;
    return std::nullopt;
  }
  auto it = last_ != nexthops_.end() && last_->first == *nh ? last_ : nexthops_.find(*nh);
  if (it == nexthops_.end()) return std::nullopt;
  if (--it->second.count > 0) return std::nullopt;
  if (last_ == it) last_ = nexthops_.end();
  nexthops_.erase(it);
  return nh;
}

void NexthopResolverStage::SortUnique(std::vector<BgpRouteRef>& w) {
  std::stable_sort(w.begin(), w.end(), [](const BgpRouteRef& a, const BgpRouteRef& b) {
    return a->prefix < b->prefix;
  });
  w.erase(std::unique(
              w.begin(), w.end(),
              [](const BgpRouteRef& a, const BgpRouteRef& b) { return a->prefix == b->prefix; }),
          w.end());
}

void NexthopResolverStage::compact_waiting(const IpAddr& nh, Nexthop& n) {
  SortUnique(n.waiting);
  std::erase_if(n.waiting, [&](const BgpRouteRef& r) {
    const BgpRouteRef now = parent_->lookup_route(r->prefix);
    return !now || NexthopOf(*now) != nh;
  });
}

BgpRouteRef NexthopResolverStage::receive(const BgpRouteRef& r) {
  const auto nh = NexthopOf(*r);
  Nexthop* n = chain(*r, nh ? &*nh : nullptr);
  if (!n) return IsSelf(*r) ? annotated(r, Answer{Answer::kReachable, 0, true}) : nullptr;
  const Answer a = AnswerAt(*n, r->prefix);
  if (a.kind != Answer::kPending) return annotated(r, a);
  if (n->waiting.size() >= 2 * n->count + 1024) compact_waiting(*nh, *n);
  n->waiting.push_back(r);
  return nullptr;
}

void NexthopResolverStage::end_message() {
  if (--in_message_ > 0) return;
  while (!deferred_.empty()) {
    std::vector<IpPrefix> regions = std::move(deferred_);
    deferred_.clear();
    for (const IpPrefix& region : regions) apply(region);
  }
}

void NexthopResolverStage::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  begin_message();
  ++routes_;
  const BgpRouteRef out = receive(route);
  if (out) send_add(out);
  settle(route->prefix, out);
  end_message();
}

void NexthopResolverStage::replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                                         BgpStage* /*caller*/) {
  begin_message();
  const BgpRouteRef old_out = annotated(old_route, sent_answer(*old_route));
  // Count the new next hop before releasing the old so a shared answer is not deregistered.
  const BgpRouteRef new_out = receive(new_route);
  if (const auto released = unchain(*old_route)) cache_.remove_user(*released);
  send_change(old_out, new_out);
  settle(new_route->prefix, new_out);
  end_message();
}

void NexthopResolverStage::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  begin_message();
  --routes_;
  const BgpRouteRef out = annotated(route, sent_answer(*route));
  if (const auto released = unchain(*route)) cache_.remove_user(*released);
  copies_.erase(route->prefix);
  if (out) send_delete(out);
  end_message();
}

BgpRouteRef NexthopResolverStage::lookup_route(const IpPrefix& prefix) const {
  const BgpRouteRef r = parent_ ? parent_->lookup_route(prefix) : nullptr;
  return r ? annotated(r, sent_answer(*r)) : nullptr;
}

NexthopResolverStage::State NexthopResolverStage::state(const IpPrefix& prefix) const {
  const BgpRouteRef r = parent_ ? parent_->lookup_route(prefix) : nullptr;
  if (!r) return State::kNone;
  switch (sent_answer(*r).kind) {
    case Answer::kReachable:
      return State::kReachable;
    case Answer::kUnreachable:
      return State::kUnreachable;
    case Answer::kPending:
      return NexthopOf(*r) ? State::kPending : State::kUnreachable;  // no next hop: unusable
  }
  return State::kNone;
}

void NexthopResolverStage::replace_parent(BgpStage* old_parent, BgpStage* new_parent) {
  if (parent_ == old_parent) parent_ = new_parent;
}

void NexthopResolverStage::nexthops_changed(const IpPrefix& region) {
  if (in_message_ > 0) {
    deferred_.push_back(region);
    return;
  }
  apply(region);
}

void NexthopResolverStage::apply(const IpPrefix& region) {
  bool changed = false;
  for (auto it = nexthops_.lower_bound(region.addr());
       it != nexthops_.end() && region.Contains(it->first); ++it) {
    Nexthop& n = it->second;
    const Answer a = Answer::Of(it->first, cache_.lookup(it->first));
    if (a.kind == Answer::kPending) continue;
    if (n.sent.kind == Answer::kPending) {
      release_waiting(it->first, n, a);
      continue;
    }
    if (a != (n.walking ? n.target : n.sent)) changed = true;
  }
  if (changed && !walking_) start_walk();  // else the running walk's end starts another
}

void NexthopResolverStage::release_waiting(const IpAddr& nh, Nexthop& n, const Answer& a) {
  n.sent = a;
  std::vector<BgpRouteRef> waiting;
  waiting.swap(n.waiting);
  SortUnique(waiting);  // sent in prefix order, once each
  for (const BgpRouteRef& held : waiting) {
    const BgpRouteRef r = parent_->lookup_route(held->prefix);
    if (!r || NexthopOf(*r) != nh) continue;
    const BgpRouteRef out = annotated(r, a);
    if (out) send_add(out);
    settle(r->prefix, out);
  }
}

bool NexthopResolverStage::prepare_walk() {
  bool any = false;
  for (auto& [nh, n] : nexthops_) {
    if (n.sent.kind == Answer::kPending) continue;
    const Answer a = Answer::Of(nh, cache_.lookup(nh));
    if (a.kind == Answer::kPending || a == n.sent) continue;
    n.target = a;
    n.walking = true;
    any = true;
  }
  cursor_.reset();
  walking_ = any;
  return any;
}

void NexthopResolverStage::start_walk() {
  if (!prepare_walk()) return;
  if (!background_.scheduler) {
    while (walk_slice(background_.slice)) {
    }
    return;
  }
  task_ = background_.scheduler->add(background_.name, [this] {
    if (background_.throttle && background_.throttle()) return true;
    return walk_slice(background_.slice);
  });
}

bool NexthopResolverStage::walk_slice(size_t budget) {
  assert(budget > 0);
  for (size_t done = 0; done < budget; ++done) {
    const std::optional<IpPrefix> p = walk_ ? walk_(cursor_) : std::nullopt;
    if (!p) {
      finish_walk();
      if (!prepare_walk()) return false;  // answers changed during the walk: walk again
      continue;
    }
    visit(*p);
  }
  return true;
}

void NexthopResolverStage::visit(const IpPrefix& p) {
  const BgpRouteRef r = parent_ ? parent_->lookup_route(p) : nullptr;
  const auto nh = r ? NexthopOf(*r) : std::nullopt;
  auto it = nh ? nexthops_.find(*nh) : nexthops_.end();
  if (it == nexthops_.end() || !it->second.walking) {
    cursor_ = p;
    return;
  }
  const Nexthop& n = it->second;
  const BgpRouteRef old_out = annotated(r, n.sent);
  const BgpRouteRef new_out = annotated(r, n.target);
  cursor_ = p;  // lookups of p answer the new annotation from here on
  if (old_out && new_out && old_out != new_out) ++reevaluated_;
  send_change(old_out, new_out);
  settle(p, new_out);
}

void NexthopResolverStage::finish_walk() {
  for (auto& [nh, n] : nexthops_) {
    if (!n.walking) continue;
    n.sent = n.target;
    n.walking = false;
  }
  cursor_.reset();
  walking_ = false;
}

NexthopResolverStage::Counters NexthopResolverStage::counters() const {
  Counters c;
  c.reevaluated = reevaluated_;
  c.unresolvable = unchained_;
  for (const auto& [nh, n] : nexthops_) {
    if (n.sent.kind == Answer::kPending) c.held += n.count;
    if (n.sent.kind == Answer::kUnreachable) c.unresolvable += n.count;
  }
  return c;
}

}  // namespace strata::bgp
