// RouteKernel: the forwarding plane's routing tables, behind an interface so that the FEA's
// logic runs in memory in tests (FakeRouteKernel) and against Linux in production
// (NetlinkRouteKernel).
//
// Contract: Apply() performs the operations in order and reports one Status per operation
// (the batch does not stop at a failure; the kernel has no transactions). Dump() returns every
// unicast, blackhole, unreachable and prohibit route of a table, whatever its protocol; `expected`
// is how many the caller thinks there are (room is made for them at once: a table can be a million
// routes). ReleaseGatewayHops() is a hint from the one caller that installs routes (KernelRoutes),
// which counts the routes through each hop. Synchronous. Threading: the io_context thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/status.h"
#include "fea/kernel_route.h"

namespace strata::fea {

class RouteKernel {
 public:
  virtual ~RouteKernel() = default;
  // Returns one status per op, in order.
  virtual std::vector<Status> Apply(std::span<const KernelOp> ops) = 0;
  virtual StatusOr<std::vector<KernelRoute>> Dump(uint32_t table, size_t expected) = 0;
  // No route the caller installed goes through these hops any more: an implementation that
  // holds shared next hops for routes (NetlinkRouteKernel's nexthop objects) may drop them.
  virtual void ReleaseGatewayHops(std::span<const GatewayHop> /*hops*/) {}
  // The caller is leaving and removes its routes: release every shared next hop held, also those
  // adopted and never used. Routes through them may go along (the kernel deletes the routes that
  // use a nexthop object it deletes); the caller deletes what is left.
  virtual void ReleaseAllHops() {}
};

}  // namespace strata::fea
