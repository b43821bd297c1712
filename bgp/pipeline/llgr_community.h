// Long-lived graceful restart communities (RFC 9494 3.2, 3.3) and the helpers the pipeline's
// stages use to test and set them.
//
// LLGR_STALE (65535:6) marks a route kept after its session went and its graceful restart time
// ended: it is least preferred (DecisionSteps) and only advertised to peers that negotiated LLGR
// (OutputFilterStage). NO_LLGR (65535:7) asks that a route be withdrawn rather than kept so.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>

#include "bgp/pipeline/bgp_route.h"

namespace strata::bgp {

inline constexpr uint32_t kLlgrStaleCommunity = 0xFFFF0006u;
inline constexpr uint32_t kNoLlgrCommunity = 0xFFFF0007u;

bool HasCommunity(const PathAttributes& attrs, uint32_t community);
inline bool IsLlgrStale(const BgpRoute& r) { return HasCommunity(r.path(), kLlgrStaleCommunity); }
inline bool IsNoLlgr(const BgpRoute& r) { return HasCommunity(r.path(), kNoLlgrCommunity); }
// `attrs` with LLGR_STALE added (the same set if it already carries it).
AttributeSetPtr WithLlgrStale(const AttributeSetPtr& attrs);

}  // namespace strata::bgp
