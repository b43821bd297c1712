// RouteStore: the trie in which an origin table keeps its routes (and which it hands to a
// DeletionStage when all of them go at once).
//
// Each entry carries the generation in which the protocol last announced it, so that graceful
// restart can mark every route stale in O(1) (bump the table's generation) and later sweep the
// ones not announced again. Threading: single-threaded.
#pragma once

#include <cstdint>

#include "rib/rib_route.h"
#include "rib/route_stage.h"
#include "rib/route_trie.h"

namespace strata::rib {

struct StoredRoute {
  RouteRef route;
  uint64_t generation = 0;
};

using RouteStore = RouteTrie<StoredRoute>;

inline RouteRef RouteOf(const StoredRoute* s) { return s ? s->route : nullptr; }

inline RouteRange ToRouteRange(const RouteStore::Range& r) {
  return RouteRange{RouteOf(r.match.value), r.valid};
}

}  // namespace strata::rib
