// RibSink: where the pipeline's winning routes go; the process implements it over IPC to the RIB.
//
// eBGP-learned winners go to the RIB's "ebgp" origin table, iBGP-learned ones to "ibgp"; a
// winner that moves from one to the other is a delete from one and an add to the other. The
// next hop is route->path().next_hop (the RIB resolves it); derived data (IGP metric) is there
// for information. With multipath on, each add or replace also carries the next hops of the
// winner's other multipath members (RibMultipath), for the RIB to install them all. end_batch()
// marks the end of a run of changes so the process can send them as one IPC batch. REQUIRES: no
// synchronous calls back into the pipeline, except RibFeed::pause and resume.
//
// RibFeed is the sink's handle on the branch that feeds it (the pipeline's fanout reader for the
// RIB), given by attach(). With it a sink need not keep a copy of what it was given, as a peer's
// output keeps no Adj-RIB-Out: it pauses the branch while its IPC is behind (backpressure, as a
// busy session does) and asks for everything again (a dump, as a peer coming up gets) when the
// RIB lost, or never had, what it was given.
// Threading: the pipeline's thread.
#pragma once

#include <string_view>
#include <vector>

#include "bgp/pipeline/bgp_route.h"

namespace strata::bgp {

enum class RibOrigin { kEbgp, kIbgp };

inline std::string_view RibOriginName(RibOrigin o) {
  return o == RibOrigin::kEbgp ? "ebgp" : "ibgp";
}
inline RibOrigin RibOriginOf(const BgpRoute& r) {
  return r.peer->internal() ? RibOrigin::kIbgp : RibOrigin::kEbgp;
}

// The multipath side of an add or replace: whether multipath is on, and the next hops of the
// winner's other members (DecisionStage::Multipath; empty: the winner's alone). With it on, a
// sink keeping no table does not know which next hops the RIB holds for the route replaced, so
// it sends every replace (the RIB's replace of an unchanged route changes nothing).
struct RibMultipath {
  bool enabled = false;
  std::vector<IpAddr> nexthops;
};

class RibFeed {
 public:
  virtual ~RibFeed() = default;
  // Stops (resumes) the branch's deliveries; both may be called from within one.
  virtual void pause() = 0;
  virtual void resume() = 0;
  // From now on the sink is fed as if it had been given nothing: every current winner comes as
  // an add (a dump, in background slices), then the changes after it. Not synchronous: call it
  // from outside the sink's own calls.
  virtual void resend() = 0;
  // True until the dump a resend started has been delivered.
  virtual bool resending() const = 0;
};

class RibSink {
 public:
  virtual ~RibSink() = default;
  // The feed of the pipeline just built (it has given nothing yet); detach when it goes (only
  // if it is still the one attached). Default: ignored.
  virtual void attach(RibFeed* /*feed*/) {}
  virtual void detach(RibFeed* /*feed*/) {}
  virtual void add_route(RibOrigin origin, const BgpRouteRef& route,
                         const RibMultipath& multipath) = 0;
  // Same prefix, same origin table; `multipath` is new_route's.
  virtual void replace_route(RibOrigin origin, const BgpRouteRef& old_route,
                             const BgpRouteRef& new_route, const RibMultipath& multipath) = 0;
  virtual void delete_route(RibOrigin origin, const BgpRouteRef& route) = 0;
  virtual void end_batch() = 0;
};

}  // namespace strata::bgp
