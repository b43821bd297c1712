#include "rib/rib_route.h"

#include <tuple>

namespace strata::rib {

std::string RibRoute::ToString() const {
  const RouteAttrs& a = attrs();
  std::string s = prefix.ToString() + " via " + a.nexthop.ToString();
  if (a.resolution) s += " (resolved " + a.resolution->nexthop.ToString() + ")";
  s += " " + a.protocol.str() + " ad " + std::to_string(a.admin_distance) + " metric " +
       std::to_string(a.metric);
  if (a.tag != 0) s += " tag " + std::to_string(a.tag);
  s += MultipathToString(a.multipath);
  return s;
}

Status RibRoute::Validate() const {
  if (nexthop().family() != prefix.family()) {
    return InvalidArgument("nexthop " + nexthop().ToString() + " is not in the family of " +
                           prefix.ToString());
  }
  return ValidateMultipath(nexthop(), multipath());
}

// Stored per route per protocol: 32 bytes with its reference count and generation (BlockPool).
static_assert(sizeof(RibRoute) == 32);

bool RouteBetter(const RibRoute& a, const RibRoute& b) {
  const RouteAttrs& x = a.attrs();
  const RouteAttrs& y = b.attrs();
  return std::tie(x.admin_distance, x.metric, x.protocol) <
         std::tie(y.admin_distance, y.metric, y.protocol);
}

}  // namespace strata::rib
