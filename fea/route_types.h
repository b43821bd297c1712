// Route values of the FEA core: a change as a client asks for it (RouteChange, unvalidated)
// and a route as the FEA holds it (FeaRoute, validated, next hops resolved to interfaces).
// The service adapter converts IPC messages to these; nothing below it sees protobuf.
// Thread-compatible value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "common/route_type.h"

namespace strata::fea {

enum class RouteOp : uint8_t { kUnspecified, kAdd, kReplace, kDelete };

struct NextHopSpec {
  std::optional<IpAddr> address;  // none: directly connected through `interface`
  std::string interface;          // "": found from the address among the VR's subnets
  uint32_t weight = 0;            // 0 = 1
};

struct RouteChange {
  RouteOp op = RouteOp::kUnspecified;
  // Raw, as received: validation refuses host bits and bad lengths.
  std::optional<IpAddr> prefix_addr;
  int prefix_len = 0;
  std::vector<NextHopSpec> nexthops;
  uint32_t metric = 0;
  std::string protocol;
  uint32_t admin_distance = 0;
  // Unset: unicast, or a blackhole when there are no next hops.
  std::optional<RouteType> type;
};

struct ResolvedNextHop {
  std::optional<IpAddr> address;
  uint32_t ifindex = 0;
  std::string interface;
  uint32_t weight = 1;  // 1..256
  friend bool operator==(const ResolvedNextHop&, const ResolvedNextHop&) = default;
};

struct FeaRoute {
  IpPrefix prefix;
  RouteType type = RouteType::kUnicast;
  std::vector<ResolvedNextHop> nexthops;  // empty unless unicast; never empty if unicast
  uint32_t metric = 0;
  std::string protocol;
  uint32_t admin_distance = 0;
};

}  // namespace strata::fea
