// RouteStore: the trie in which an origin table keeps its routes (and which it hands to a
// DeletionStage when all of them go at once).
//
// Each route carries the generation in which the protocol last announced it (RibRoute::generation,
// stamped by the table), so that graceful restart can mark every route stale in O(1) (bump the
// table's generation) and later sweep the ones not announced again. An entry is one 8-byte
// reference. Threading: single-threaded.
#pragma once

#include <cstdint>

#include "common/route_trie.h"
#include "rib/rib_route.h"
#include "rib/route_stage.h"

namespace strata::rib {

struct StoredRoute {
  RouteRef route;
  uint32_t generation() const { return route->generation; }
};
static_assert(sizeof(StoredRoute) == 8);

using RouteStore = RouteTrie<StoredRoute>;

inline RouteRef RouteOf(const StoredRoute* s) { return s ? s->route : nullptr; }

inline RouteRange ToRouteRange(const RouteStore::Range& r) {
  return RouteRange{RouteOf(r.match.value), r.valid};
}

}  // namespace strata::rib
