#include "rib/rib_route.h"

#include <tuple>

namespace strata::rib {

std::string RibRoute::ToString() const {
  const RouteAttrs& a = attrs();
  std::string s = prefix.ToString();
  if (a.type != RouteType::kUnicast) {
    s += " " + std::string(RouteTypeName(a.type));
  } else if (a.nexthop.is_zero() && !a.ifname.empty()) {
    s += " dev " + a.ifname.str();
  } else {
    s += " via " + a.nexthop.ToString();
    if (a.weight != 1) s += " weight " + std::to_string(a.weight);
  }
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
  const RouteAttrs& a = attrs();
  if (a.type != RouteType::kUnicast) {
    if (!a.nexthop.is_zero() || a.multipath || !a.ifname.empty()) {
      const std::string_view name = RouteTypeName(a.type);
      return InvalidArgument((name[0] == 'u' ? "an " : "a ") + std::string(name) + " route " +
                             prefix.ToString() + " has no next hop and no interface");
    }
    return Status::Ok();
  }
  if (a.weight < 1 || a.weight > kMaxWeight) {
    return InvalidArgument("nexthop " + a.nexthop.ToString() + " has weight " +
                           std::to_string(a.weight) + ", not 1..256");
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
