// Multipath: the further next hops of an equal-cost multipath route (ECMP), beside its own.
//
// A protocol (BGP with maximum-paths) may give a route several next hops to forward to at equal
// cost. The route's own `nexthop` is the first; the others are a Multipath, an immutable list
// shared by the routes of one set (a route's attributes hold it, route_attrs.h). ExtInt resolves
// each hop of an EGP route on its own (MultipathHop::resolution, like the route's own
// resolution) and the FEA gets the route with every next hop that resolves.
// Values compare and hash by content, resolutions by value. Thread-compatible value type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/ip_addr.h"
#include "common/status.h"
#include "rib/resolution.h"
#include "rib/symbol.h"

namespace strata::rib {

struct MultipathHop {
  IpAddr nexthop;            // as the protocol gave it
  ResolutionRef resolution;  // set by ExtInt when the hop resolves; null otherwise
  // The interface the protocol gave (static routes), or the one of the internal route it
  // resolved through, if known.
  Symbol ifname;
  uint16_t weight = 1;  // its share of flows (1..256), as the protocol gave it

  friend bool operator==(const MultipathHop& a, const MultipathHop& b) {
    const bool same_resolution = a.resolution == b.resolution ||
                                 (a.resolution && b.resolution && *a.resolution == *b.resolution);
    return a.nexthop == b.nexthop && a.ifname == b.ifname && a.weight == b.weight &&
           same_resolution;
  }
};

using Multipath = std::vector<MultipathHop>;
// Null: a route with one next hop (nearly every route: the pointer costs nothing else).
using MultipathRef = std::shared_ptr<const Multipath>;

// The most next hops of a route, its own included (the FEA's and the kernel's limit).
inline constexpr size_t kMaxNextHops = 64;
// The largest weight of a next hop (the kernel's).
inline constexpr uint16_t kMaxWeight = 256;

inline MultipathRef MakeMultipath(Multipath hops) {
  if (hops.empty()) return nullptr;
  return std::make_shared<const Multipath>(std::move(hops));
}

// Null and empty are alike; else hop by hop.
bool SameMultipath(const MultipathRef& a, const MultipathRef& b);
size_t HashMultipath(const MultipathRef& m);

// The hops of a route whose own next hop is `first`: of its family, none twice nor equal to
// `first`, at most kMaxNextHops - 1, weights 1..kMaxWeight.
Status ValidateMultipath(const IpAddr& first, const MultipathRef& m);

// " multipath 192.0.2.2 192.0.2.3 weight 2" ("" for none; a weight only where not 1).
std::string MultipathToString(const MultipathRef& m);

}  // namespace strata::rib
