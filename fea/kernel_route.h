// KernelRoute and friends: the FEA's view of one route in a Linux routing table, and one change
// to it. Plain value types shared by the netlink codec, the RouteKernel interface (real and fake)
// and the reconciler, so that none of them depends on the others. Thread-compatible.
#pragma once

#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "common/route_type.h"

namespace strata::fea {

struct KernelNextHop {
  std::optional<IpAddr> gateway;  // none: directly connected through ifindex
  uint32_t ifindex = 0;
  uint32_t weight = 1;  // 1..256 (the kernel stores weight - 1 in a byte)
  friend bool operator==(const KernelNextHop&, const KernelNextHop&) = default;
  friend auto operator<=>(const KernelNextHop&, const KernelNextHop&) = default;
};

struct KernelRoute {
  uint32_t table = 0;
  IpPrefix prefix;
  uint8_t protocol = 0;  // rtm_protocol: who installed it
  uint32_t metric = 0;   // RTA_PRIORITY
  RouteType type = RouteType::kUnicast;
  // Empty unless unicast. Inline for one next hop: a kernel table of a million routes is held
  // as KernelRoutes (installed set, dumps, reconcile), one heap block per route otherwise.
  boost::container::small_vector<KernelNextHop, 1> nexthops;
  friend bool operator==(const KernelRoute&, const KernelRoute&) = default;
  std::string ToString() const;
};

// True when a and b forward the same way (next hops compared as a set; a single next hop's
// weight is meaningless and ignored). Table, protocol and metric are not compared.
bool SameForwarding(const KernelRoute& a, const KernelRoute& b);

// One gateway through one device: the next hop that many routes share, and that the kernel can
// hold once for all of them as a nexthop object (an object needs both).
struct GatewayHop {
  IpAddr gateway;
  uint32_t ifindex = 0;
  friend bool operator==(const GatewayHop&, const GatewayHop&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const GatewayHop& g) {
    return H::combine(std::move(h), HashAddr(g.gateway, g.ifindex));
  }
};

// The route's GatewayHop when its only next hop has a gateway and a device; nullopt for
// blackholes, connected routes and ECMP (spelt out in the route itself).
std::optional<GatewayHop> SharedGatewayHop(const KernelRoute& r);

enum class KernelOpType : uint8_t {
  kAdd,      // create; fails (EEXIST) if any route with this prefix and metric exists
  kReplace,  // replace our route with this prefix and metric (create if gone)
  kDelete,   // delete the route with this prefix, metric and protocol
};

struct KernelOp {
  KernelOpType type = KernelOpType::kAdd;
  KernelRoute route;
  friend bool operator==(const KernelOp&, const KernelOp&) = default;
};

}  // namespace strata::fea
