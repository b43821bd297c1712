// NetlinkRouteKernel: the RouteKernel on Linux. Apply() packs the operations into as few
// sendmsg calls as fit (many RTM_NEWROUTE/RTM_DELROUTE per call) and matches the ACKs back to
// operations by sequence number; Dump() lists a table's IPv4 and IPv6 routes.
// Threading: the io_context thread (blocking only while the kernel handles a batch).
#pragma once

#include <memory>

#include "fea/netlink/nl_socket.h"
#include "fea/route_kernel.h"

namespace strata::fea::netlink {

class NetlinkRouteKernel : public RouteKernel {
 public:
  static StatusOr<std::unique_ptr<NetlinkRouteKernel>> Open();

  std::vector<Status> Apply(std::span<const KernelOp> ops) override;
  StatusOr<std::vector<KernelRoute>> Dump(uint32_t table, size_t expected) override;

 private:
  explicit NetlinkRouteKernel(std::unique_ptr<NlSocket> sock) : sock_(std::move(sock)) {}

  std::unique_ptr<NlSocket> sock_;
};

}  // namespace strata::fea::netlink
