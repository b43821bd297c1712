#include "fea/kernel_route.h"

#include <algorithm>

namespace strata::fea {

std::string KernelRoute::ToString() const {
  std::string s = prefix.ToString() + " table " + std::to_string(table) + " proto " +
                  std::to_string(protocol) + " metric " + std::to_string(metric);
  if (type != RouteType::kUnicast) return s + " " + std::string(RouteTypeName(type));
  for (const auto& nh : nexthops) {
    s += " nexthop";
    if (nh.gateway) s += " via " + nh.gateway->ToString();
    s += " if " + std::to_string(nh.ifindex) + " weight " + std::to_string(nh.weight);
  }
  return s;
}

bool SameForwarding(const KernelRoute& a, const KernelRoute& b) {
  if (a.prefix != b.prefix || a.type != b.type) return false;
  if (a.nexthops.size() != b.nexthops.size()) return false;
  auto x = a.nexthops;
  auto y = b.nexthops;
  if (x.size() == 1) {
    x[0].weight = 1;
    y[0].weight = 1;
  }
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return x == y;
}

std::optional<GatewayHop> SharedGatewayHop(const KernelRoute& r) {
  if (r.type != RouteType::kUnicast || r.nexthops.size() != 1) return std::nullopt;
  const KernelNextHop& nh = r.nexthops[0];
  if (!nh.gateway || nh.ifindex == 0) return std::nullopt;
  return GatewayHop{*nh.gateway, nh.ifindex};
}

}  // namespace strata::fea
