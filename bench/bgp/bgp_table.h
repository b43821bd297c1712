// BenchTable: the IPv4 routes the BGP benchmark's feeder announces, grouped by attribute set
// the way a router packs them (one group per AS path and next hop).
//
// Up to 577,703 routes come straight from pch_as3856_20151023 (real AS paths and next hops).
// Past that, the prefixes come from rv_pfx2as_20240406 (998,042, origin AS only) and each gets
// the AS path and next hop of a pch route with the same origin AS when pch has one (the k-th
// prefix of an origin takes that origin's pch paths in turn), else the transit part of the pch
// paths in round-robin order followed by its own origin AS. The default route is left out and
// duplicate prefixes are kept once. Real next hops are mapped one to one onto addresses of the
// benchmark's link (10.99.1.1, 10.99.1.2, ...) so that every router accepts and can install
// them. Paths are sent as they are; the feeder puts its own AS in front.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bgp/wire/as_path.h"
#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "common/status.h"

namespace strata::bench {

struct RouteGroup {
  bgp::AsPath path;
  IpAddr next_hop;
  std::vector<IpPrefix> prefixes;
};

struct BenchTable {
  std::vector<RouteGroup> groups;
  size_t routes = 0;
  std::string source;  // how it was built, for the report
};

// REQUIRES: data_dir holds the two folders named above.
StatusOr<BenchTable> LoadBenchTable(const std::string& data_dir, size_t n);

}  // namespace strata::bench
