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

#include "common/block_pool.h"
#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "common/status.h"
#include "rib/ref_count.h"
#include "rib/resolution.h"
#include "rib/route_attrs.h"
#include "rib/symbol.h"

namespace strata::rib {

// The protocol name of directly connected subnets: EGP nexthops inside them need no resolving.
inline constexpr std::string_view kConnectedProtocol = "connected";

struct RibRoute {
  RibRoute() = default;
  RibRoute(const IpPrefix& p, const RouteAttrs& a) : prefix(p), attrs_(a) {}

  // 32 bytes (36 with a 4-byte prefix length): one RibRoute is stored per route per protocol, so
  // every byte counts a million times. The attributes are interned (route_attrs.h): routes share a
  // handful of sets.
  IpPrefix prefix;
  // Origin-table bookkeeping, not part of the route's value: the table generation in which the
  // protocol last announced the route (graceful restart: older than the table's means stale).
  uint32_t generation = 0;
  // References held by RouteRefs (not part of the value either; a copy starts at 0).
  RefCount refs;

  const RouteAttrs& attrs() const { return attrs_.get(); }
  const SharedAttrs& shared_attrs() const { return attrs_; }
  // Replaces all attributes at once (one interning): build a RouteAttrs to change several.
  void set_attrs(const RouteAttrs& a) { attrs_ = SharedAttrs(a); }
  void set_attrs(SharedAttrs a) { attrs_ = std::move(a); }

  const Symbol& protocol() const { return attrs().protocol; }
  const Symbol& ifname() const { return attrs().ifname; }
  const ResolutionRef& resolution() const { return attrs().resolution; }
  const IpAddr& nexthop() const { return attrs().nexthop; }
  uint32_t metric() const { return attrs().metric; }
  uint32_t admin_distance() const { return attrs().admin_distance; }
  uint32_t tag() const { return attrs().tag; }
  ProtocolKind kind() const { return attrs().kind; }
  // The further next hops of a multipath route (null: none).
  const MultipathRef& multipath() const { return attrs().multipath; }

  // One attribute (each call interns a new set: for tests and cold paths).
  void set_protocol(Symbol v) {
    with([&](RouteAttrs& a) { a.protocol = v; });
  }
  void set_ifname(Symbol v) {
    with([&](RouteAttrs& a) { a.ifname = v; });
  }
  void set_resolution(ResolutionRef v) {
    with([&](RouteAttrs& a) { a.resolution = std::move(v); });
  }
  void set_nexthop(const IpAddr& v) {
    with([&](RouteAttrs& a) { a.nexthop = v; });
  }
  void set_metric(uint32_t v) {
    with([&](RouteAttrs& a) { a.metric = v; });
  }
  void set_admin_distance(uint32_t v) {
    with([&](RouteAttrs& a) { a.admin_distance = v; });
  }
  void set_tag(uint32_t v) {
    with([&](RouteAttrs& a) { a.tag = v; });
  }
  void set_kind(ProtocolKind v) {
    with([&](RouteAttrs& a) { a.kind = v; });
  }
  void set_multipath(MultipathRef v) {
    with([&](RouteAttrs& a) { a.multipath = std::move(v); });
  }

  // The router packets are sent to: the resolved nexthop if any, else the protocol's nexthop.
  const IpAddr& forwarding_nexthop() const {
    const RouteAttrs& a = attrs();
    return a.resolution ? a.resolution->nexthop : a.nexthop;
  }
  std::optional<IpAddr> resolved_nexthop() const {
    return resolution() ? std::optional<IpAddr>(resolution()->nexthop) : std::nullopt;
  }
  std::optional<IpPrefix> resolved_via() const {
    return resolution() ? std::optional<IpPrefix>(resolution()->via) : std::nullopt;
  }
  uint32_t igp_metric() const { return resolution() ? resolution()->igp_metric : 0; }
  // "10.0.0.0/8 via 192.0.2.1 static ad 1 metric 5".
  std::string ToString() const;
  // Checks what untrusted input may get wrong (families agree).
  Status Validate() const;

  // Prefix and attributes; resolutions compare by value.
  friend bool operator==(const RibRoute& a, const RibRoute& b) {
    return a.prefix == b.prefix && (a.attrs_ == b.attrs_ || a.attrs() == b.attrs());
  }

 private:
  template <typename F>
  void with(F change) {
    RouteAttrs a = attrs();
    change(a);
    set_attrs(a);
  }
  SharedAttrs attrs_;
};

using RouteRef = IntrusiveRef<RibRoute>;

// From a BlockPool of 32-byte blocks (route and count), where malloc would take a 48-byte chunk.
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
