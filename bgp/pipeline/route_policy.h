// RoutePolicy: the hook through which import and export policy plug into the filter stages.
//
// A policy returns the route to pass on (the same one, or a new one made with WithAttrs), or
// null to reject it. REQUIRES: deterministic for a given route while it is installed, because the
// filters hold nothing and re-apply the policy to deletes and lookups. Changing a policy is done
// by re-filtering in background slices (PolicyRefilter), never by swapping this function under
// live routes. Threading: called on the pipeline's thread only.
#pragma once

#include <functional>

#include "bgp/pipeline/bgp_route.h"

namespace strata::bgp {

using RoutePolicy = std::function<BgpRouteRef(const BgpRouteRef&)>;

}  // namespace strata::bgp
