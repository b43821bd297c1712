#include "rib/rib_route.h"

#include <tuple>

namespace strata::rib {

std::string_view ProtocolKindName(ProtocolKind k) {
  return k == ProtocolKind::kIgp ? "igp" : "egp";
}

std::string RibRoute::ToString() const {
  std::string s = prefix.ToString() + " via " + nexthop.ToString();
  if (resolution) s += " (resolved " + resolution->nexthop.ToString() + ")";
  s += " " + protocol.str() + " ad " + std::to_string(admin_distance) + " metric " +
       std::to_string(metric);
  if (tag != 0) s += " tag " + std::to_string(tag);
  return s;
}

Status RibRoute::Validate() const {
  if (nexthop.family() != prefix.family()) {
    return InvalidArgument("nexthop " + nexthop.ToString() + " is not in the family of " +
                           prefix.ToString());
  }
  return Status::Ok();
}

// Stored per route per protocol: 80 bytes with its reference count and generation (BlockPool).
static_assert(sizeof(RibRoute) <= 80);

bool operator==(const RibRoute& a, const RibRoute& b) {
  const bool same_resolution = a.resolution == b.resolution ||
                               (a.resolution && b.resolution && *a.resolution == *b.resolution);
  return same_resolution && a.protocol == b.protocol && a.ifname == b.ifname &&
         a.prefix == b.prefix && a.metric == b.metric && a.admin_distance == b.admin_distance &&
         a.tag == b.tag && a.nexthop == b.nexthop && a.kind == b.kind;
}

bool RouteBetter(const RibRoute& a, const RibRoute& b) {
  return std::tie(a.admin_distance, a.metric, a.protocol) <
         std::tie(b.admin_distance, b.metric, b.protocol);
}

}  // namespace strata::rib
