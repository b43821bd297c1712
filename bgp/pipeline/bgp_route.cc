#include "bgp/pipeline/bgp_route.h"

#include "rib/block_pool.h"

namespace strata::bgp {

std::string BgpRoute::ToString() const {
  std::string s = prefix.ToString();
  if (peer) s += " from " + peer->address.ToString();
  if (attrs) s += " [" + attrs->attrs().ToString() + "]";
  return s;
}

BgpRouteRef MakeRoute(const IpPrefix& prefix, AttributeSetPtr attrs, PeerRef peer) {
  // Route and control block in one pooled 80-byte block (rib/block_pool.h), where malloc takes 96.
  auto r = std::allocate_shared<BgpRoute>(rib::PoolAllocator<BgpRoute>());
  r->prefix = prefix;
  r->attrs = std::move(attrs);
  r->peer = std::move(peer);
  return r;
}

BgpRouteRef WithAttrs(const BgpRoute& r, AttributeSetPtr attrs) {
  auto copy = std::allocate_shared<BgpRoute>(rib::PoolAllocator<BgpRoute>(), r);
  copy->attrs = std::move(attrs);
  return copy;
}

bool SameRoute(const BgpRoute& a, const BgpRoute& b) {
  if (a.prefix != b.prefix || a.peer != b.peer) return false;
  return AttributeSetPtrEq()(a.attrs, b.attrs);
}

}  // namespace strata::bgp
