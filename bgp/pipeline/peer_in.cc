#include "bgp/pipeline/peer_in.h"

#include <cassert>
#include <utility>
#include <vector>

namespace strata::bgp {

void PeerIn::announce(const BgpRouteRef& route) {
  assert(route && route->peer && route->peer->id == id_);
  if (BgpRouteRef* held = table_.find_mutable(route->prefix)) {
    BgpRouteRef old = std::exchange(*held, route);
    if (is_stale(*old) && !is_stale(*route)) --stale_;
    send_replace(old, route);
    return;
  }
  table_.insert(route->prefix, route);
  send_add(route);
}

bool PeerIn::withdraw(const IpPrefix& prefix) {
  const BgpRouteRef* held = table_.find(prefix);
  if (!held) return false;
  BgpRouteRef old = *held;
  if (is_stale(*old)) --stale_;
  table_.erase(prefix);
  send_delete(old);
  return true;
}

void PeerIn::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) { announce(route); }

void PeerIn::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  withdraw(route->prefix);
}

BgpRouteRef PeerIn::lookup_route(const IpPrefix& prefix) const {
  const BgpRouteRef* held = table_.find(prefix);
  return held ? *held : nullptr;
}

RouteTable PeerIn::take_routes() {
  stale_ = 0;
  return std::exchange(table_, RouteTable());
}

void PeerIn::set_session(PeerRef session) {
  if (session == session_) return;
  session_ = std::move(session);
  // A new session has sent nothing yet: whatever is held came from an earlier one.
  stale_ = table_.size();
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
  for (const IpPrefix& p : gone) table_.erase(p);
  stale_ -= gone.size();
  return out;
}

}  // namespace strata::bgp
