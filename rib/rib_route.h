// RibRoute: one route as the RIB sees it, immutable and shared between stages.
//
// Origin tables create routes and stamp them with their protocol, kind and admin distance; later
// stages never modify a route, they make a new one (ExtInt makes a resolved copy of an external
// route). Stages pass RouteRef (a counted pointer, the count inside the route) so a route is
// stored once and referenced everywhere. RouteBetter is the single preference order used by every
// decision stage. Thread-compatible value type.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "common/status.h"
#include "rib/block_pool.h"
#include "rib/ref_count.h"
#include "rib/resolution.h"
#include "rib/symbol.h"

namespace strata::rib {

// IGP routes may resolve the nexthops of EGP routes; EGP routes never resolve anything.
enum class ProtocolKind : uint8_t { kIgp, kEgp };

std::string_view ProtocolKindName(ProtocolKind k);  // "igp" / "egp"

// The protocol name of directly connected subnets: EGP nexthops inside them need no resolving.
inline constexpr std::string_view kConnectedProtocol = "connected";

struct RibRoute {
  // Fields are ordered by alignment, largest first, so the struct has no padding holes: one
  // RibRoute is stored per route per protocol, so every byte counts a million times.
  Symbol protocol;
  // Outgoing interface name if the protocol knows it (connected routes do); may be empty.
  Symbol ifname;
  // Set by ExtInt on an EGP route whose nexthop was resolved; null otherwise.
  ResolutionRef resolution;
  IpPrefix prefix;
  uint32_t metric = 0;
  // Stamped by the origin table; lower is preferred.
  uint32_t admin_distance = 0;
  uint32_t tag = 0;
  // Origin-table bookkeeping, not part of the route's value: the table generation in which the
  // protocol last announced the route (graceful restart: older than the table's means stale).
  uint32_t generation = 0;
  // References held by RouteRefs (not part of the value either; a copy starts at 0).
  RefCount refs;
  // The nexthop as the protocol gave it (for BGP the peer's NEXT_HOP attribute).
  IpAddr nexthop;
  ProtocolKind kind = ProtocolKind::kIgp;

  // The router packets are sent to: the resolved nexthop if any, else the protocol's nexthop.
  const IpAddr& forwarding_nexthop() const { return resolution ? resolution->nexthop : nexthop; }
  std::optional<IpAddr> resolved_nexthop() const {
    return resolution ? std::optional<IpAddr>(resolution->nexthop) : std::nullopt;
  }
  std::optional<IpPrefix> resolved_via() const {
    return resolution ? std::optional<IpPrefix>(resolution->via) : std::nullopt;
  }
  uint32_t igp_metric() const { return resolution ? resolution->igp_metric : 0; }
  // "10.0.0.0/8 via 192.0.2.1 static ad 1 metric 5".
  std::string ToString() const;
  // Checks what untrusted input may get wrong (families agree).
  Status Validate() const;

  // Field by field; resolutions compare by value.
  friend bool operator==(const RibRoute& a, const RibRoute& b);
};

using RouteRef = IntrusiveRef<RibRoute>;

// From a BlockPool of 80-byte blocks (route and count), where malloc would take a 96-byte chunk.
inline RouteRef MakeRoute(RibRoute r) { return RouteRef::Make(std::move(r)); }

// True if `a` is preferred to `b` for the same prefix: lower admin distance, then lower metric,
// then protocol name (a total order, so every stage makes the same choice).
bool RouteBetter(const RibRoute& a, const RibRoute& b);

// The preferred of two possibly-null routes for the same prefix.
inline const RouteRef& PickBetter(const RouteRef& a, const RouteRef& b) {
  if (!a) return b;
  if (!b) return a;
  return RouteBetter(*b, *a) ? b : a;
}

}  // namespace strata::rib
