#include "bgp/pipeline/bgp_route.h"

#include <new>

#include "common/block_pool.h"

namespace strata::bgp {

std::string BgpRoute::ToString() const {
  std::string s = prefix.ToString();
  if (peer) s += " from " + peer->address.ToString();
  if (attrs) s += " [" + attrs->attrs().ToString() + "]";
  return s;
}

namespace {
// Routes in one pooled 40-byte block each (common/block_pool.h), where malloc takes 48 (a 40-byte
// request and its 8-byte header, in 16-byte steps).
using RoutePool = PoolAllocator<BgpRoute>;
}  // namespace

void BgpRoute::Free(const BgpRoute* r) {
  BgpRoute* p = const_cast<BgpRoute*>(r);
  p->~BgpRoute();
  RoutePool().deallocate(p, 1);
}

BgpRoutePtr NewRoute() { return BgpRoutePtr(new (RoutePool().allocate(1)) BgpRoute()); }

BgpRoutePtr NewRoute(const BgpRoute& r) {
  return BgpRoutePtr(new (RoutePool().allocate(1)) BgpRoute(r));
}

BgpRouteRef MakeRoute(const IpPrefix& prefix, AttributeSetPtr attrs, PeerRef peer) {
  BgpRoutePtr r = NewRoute();
  r->prefix = prefix;
  r->attrs = std::move(attrs);
  r->peer = std::move(peer);
  return r;
}

BgpRouteRef WithAttrs(const BgpRoute& r, AttributeSetPtr attrs) {
  BgpRoutePtr copy = NewRoute(r);
  copy->attrs = std::move(attrs);
  return copy;
}

bool SameRoute(const BgpRoute& a, const BgpRoute& b) {
  if (a.prefix != b.prefix || a.peer != b.peer) return false;
  return AttributeSetPtrEq()(a.attrs, b.attrs);
}

}  // namespace strata::bgp
