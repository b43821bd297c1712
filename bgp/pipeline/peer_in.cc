#include "bgp/pipeline/peer_in.h"

#include <cassert>
#include <utility>

namespace strata::bgp {

void PeerIn::announce(const BgpRouteRef& route) {
  assert(route && route->peer && route->peer->id == id_);
  if (BgpRouteRef* held = table_.find_mutable(route->prefix)) {
    BgpRouteRef old = std::exchange(*held, route);
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

RouteTable PeerIn::take_routes() { return std::exchange(table_, RouteTable()); }

}  // namespace strata::bgp
