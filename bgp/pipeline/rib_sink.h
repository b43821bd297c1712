// RibSink: where the pipeline's winning routes go; the process implements it over IPC to the RIB.
//
// eBGP-learned winners go to the RIB's "ebgp" origin table, iBGP-learned ones to "ibgp"; a
// winner that moves from one to the other is a delete from one and an add to the other. The
// next hop is route->path().next_hop (the RIB resolves it); derived data (IGP metric) is there
// for information. end_batch() marks the end of a run of changes so the process can send them
// as one IPC batch. REQUIRES: no synchronous calls back into the pipeline.
// Threading: the pipeline's thread.
#pragma once

#include <span>
#include <string_view>

#include "bgp/pipeline/bgp_route.h"

namespace strata::bgp {

enum class RibOrigin { kEbgp, kIbgp };

inline std::string_view RibOriginName(RibOrigin o) {
  return o == RibOrigin::kEbgp ? "ebgp" : "ibgp";
}
inline RibOrigin RibOriginOf(const BgpRoute& r) {
  return r.peer->internal() ? RibOrigin::kIbgp : RibOrigin::kEbgp;
}

class RibSink {
 public:
  virtual ~RibSink() = default;
  virtual void add_route(RibOrigin origin, const BgpRouteRef& route) = 0;
  // Same prefix, same origin table.
  virtual void replace_route(RibOrigin origin, const BgpRouteRef& old_route,
                             const BgpRouteRef& new_route) = 0;
  virtual void delete_route(RibOrigin origin, const BgpRouteRef& route) = 0;
  virtual void end_batch() = 0;
  // A hint (BgpStage::prefetch): changes for these prefixes come next. Default: nothing.
  virtual void prefetch(std::span<const IpPrefix> /*prefixes*/) {}
};

}  // namespace strata::bgp
