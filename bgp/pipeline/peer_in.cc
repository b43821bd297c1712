#include "bgp/pipeline/peer_in.h"

#include <algorithm>
#include <cassert>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bgp/pipeline/llgr_community.h"

namespace strata::bgp {

void PeerIn::announce(const BgpRouteRef& route) {
  assert(route && route->peer && route->peer->id == id_);
  // Stamped before anything below has seen the route (a fresh object from the session).
  if (rov_) route->rov = static_cast<uint16_t>(rov_->Validate(*route));
  ++rov_counts_[route->rov];
  auto [held, fresh] = table_.try_emplace(route->prefix, route);  // one descent either way
  if (!fresh) {
    BgpRouteRef old = std::exchange(*held, route);
    forget(*old);
    with_llgr_community_ += IsLlgrStale(*route);
    if (is_stale(*route)) {  // not from the current session (stage tests without one)
      ++stale_;
      llgr_stale_ += IsLlgrStale(*route);
    }
    send_replace(old, route);
    return;
  }
  with_llgr_community_ += IsLlgrStale(*route);
  send_add(route);
}

bool PeerIn::withdraw(const IpPrefix& prefix) {
  const BgpRouteRef* held = table_.find(prefix);
  if (!held) return false;
  BgpRouteRef old = *held;
  forget(*old);
  table_.erase(prefix);
  send_delete(old);
  return true;
}

void PeerIn::prefetch(std::span<const IpPrefix> prefixes) {
  table_.warm(prefixes);
  BgpStage::prefetch(prefixes);
}

void PeerIn::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) { announce(route); }

void PeerIn::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  withdraw(route->prefix);
}

BgpRouteRef PeerIn::lookup_route(const IpPrefix& prefix) const {
  const BgpRouteRef* held = table_.find(prefix);
  return held ? *held : nullptr;
}

bool PeerIn::Revalidate(const IpPrefix& prefix) {
  BgpRouteRef* held = table_.find_mutable(prefix);
  if (!held) return false;
  const RovState now = rov_ ? rov_->Validate(**held) : RovState::kUnverified;
  if (now == (*held)->rov_state()) return false;
  BgpRoutePtr copy = NewRoute(**held);
  copy->rov = static_cast<uint16_t>(now);
  BgpRouteRef old = std::exchange(*held, BgpRouteRef(std::move(copy)));
  --rov_counts_[old->rov];
  ++rov_counts_[(*held)->rov];
  send_replace(old, *held);
  return true;
}

RouteTable PeerIn::take_routes() {
  stale_ = 0;
  with_llgr_community_ = 0;
  llgr_stale_ = 0;
  std::fill(std::begin(rov_counts_), std::end(rov_counts_), 0);
  return std::exchange(table_, RouteTable());
}

void PeerIn::set_session(PeerRef session) {
  if (session == session_) return;
  session_ = std::move(session);
  // A new session has sent nothing yet: whatever is held came from an earlier one.
  stale_ = table_.size();
  llgr_stale_ = with_llgr_community_;
}

RouteTable PeerIn::take_stale(std::optional<Family> family) {
  RouteTable out;
  std::vector<IpPrefix> gone;
  for (auto it = table_.begin(); !it.at_end(); ++it) {
    const BgpRouteRef& r = it.value();
    if (!is_stale(*r) || (family && it.key().family() != *family)) continue;
    out.insert(it.key(), r);
    gone.push_back(it.key());
  }
  for (const IpPrefix& p : gone) {
    forget(**table_.find(p));
    table_.erase(p);
  }
  return out;
}

void PeerIn::forget(const BgpRoute& old) {
  --rov_counts_[old.rov];
  const bool llgr = IsLlgrStale(old);
  with_llgr_community_ -= llgr;
  if (is_stale(old)) {
    --stale_;
    llgr_stale_ -= llgr;
  }
}

RouteTable PeerIn::mark_llgr_stale(std::optional<Family> family) {
  RouteTable dropped;
  std::vector<IpPrefix> to_mark;
  for (auto it = table_.begin(); !it.at_end(); ++it) {
    const BgpRouteRef& r = it.value();
    if (!is_stale(*r) || (family && it.key().family() != *family)) continue;
    if (IsNoLlgr(*r)) {
      dropped.insert(it.key(), r);
    } else if (!IsLlgrStale(*r)) {
      to_mark.push_back(it.key());
    }
  }
  for (auto it = dropped.begin(); !it.at_end(); ++it) {
    forget(*it.value());
    table_.erase(it.key());
  }
  // Routes usually share attribute sets: mark each set once.
  std::unordered_map<const AttributeSet*, AttributeSetPtr> marked;
  for (const IpPrefix& p : to_mark) {
    BgpRouteRef* held = table_.find_mutable(p);
    AttributeSetPtr& attrs = marked[(*held)->attrs.get()];
    if (!attrs) attrs = WithLlgrStale((*held)->attrs);
    BgpRouteRef old = std::exchange(*held, WithAttrs(**held, attrs));
    ++with_llgr_community_;
    ++llgr_stale_;
    send_replace(old, *held);
  }
  return dropped;
}

}  // namespace strata::bgp
