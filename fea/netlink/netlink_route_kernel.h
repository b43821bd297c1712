// NetlinkRouteKernel: the RouteKernel on Linux. Apply() packs the operations into as few
// sendmsg calls as fit (many RTM_NEWROUTE/RTM_DELROUTE per call) and matches the ACKs back to
// operations by sequence number; Dump() lists a table's IPv4 and IPv6 routes.
//
// Nexthop objects (Linux 5.3+, on unless options say otherwise): a route whose one next hop is
// a gateway through a device names a shared nexthop object (RTA_NH_ID) instead of carrying the
// gateway. Linux keeps one fib_info per distinct next hop and finds them in a hash keyed by
// device only: with thousands of BGP next hops behind one interface every route install walked
// that chain (`fib_create_info`, memcmp), and a full table took 36 s where the objects make it
// one lookup by id. FRR's zebra does the same. The objects carry Strata's protocol number and
// ids from protocol << 24, so that `ip nexthop` shows whose they are and a restarted FEA adopts
// its own (Open). ReleaseGatewayHops() deletes the objects no route of ours uses any more; an
// object the kernel dropped (its device went down) is made again under the same id when a route
// through it is refused. ECMP, connected and blackhole routes are spelt out as before.
// Threading: the io_context thread (blocking only while the kernel handles a batch).
#pragma once

#include <memory>

#include "absl/container/flat_hash_map.h"
#include "fea/netlink/nl_socket.h"
#include "fea/route_kernel.h"

namespace strata::fea::netlink {

struct NetlinkRouteKernelOptions {
  bool nexthop_objects = true;  // used when the kernel has them
  uint8_t protocol = 201;       // nh_protocol of the objects (KernelRoutesOptions::protocol)
};

class NetlinkRouteKernel : public RouteKernel {
 public:
  static StatusOr<std::unique_ptr<NetlinkRouteKernel>> Open(NetlinkRouteKernelOptions options);

  std::vector<Status> Apply(std::span<const KernelOp> ops) override;
  StatusOr<std::vector<KernelRoute>> Dump(uint32_t table, size_t expected) override;
  void ReleaseGatewayHops(std::span<const GatewayHop> hops) override;
  // Deletes every object held (the kernel deletes the routes through them).
  void ReleaseAllHops() override;

  // Whether routes go through nexthop objects (asked for, and the kernel has them).
  bool nexthop_objects() const { return objects_; }
  // Objects held now (right after Open: those adopted from a previous run).
  size_t nexthop_object_count() const { return ids_.size(); }

 private:
  NetlinkRouteKernel(std::unique_ptr<NlSocket> sock, NetlinkRouteKernelOptions options);
  // Reads the objects of our protocol left by a previous run; false if the kernel has none.
  bool AdoptObjects();
  // Makes an object for each hop (distinct, none held yet); a hop the kernel refuses gets none.
  void CreateObjects(std::span<const GatewayHop> hops);
  // Sends ops[i] with object id ids[i] (0: spelt out) and sets results[i] for each i in `which`.
  void Send(std::span<const KernelOp> ops, std::span<const uint32_t> ids,
            std::span<const size_t> which, std::vector<Status>& results);
  // Routes refused although they named an object: makes again those objects the kernel no
  // longer has and sends those routes once more.
  void RetryThroughLostObjects(std::span<const KernelOp> ops, std::span<const uint32_t> ids,
                               std::vector<Status>& results);
  uint32_t NewId();

  std::unique_ptr<NlSocket> sock_;
  const NetlinkRouteKernelOptions options_;
  bool objects_ = false;
  absl::flat_hash_map<GatewayHop, uint32_t> ids_;
  absl::flat_hash_map<uint32_t, GatewayHop> hops_;
  uint32_t next_id_ = 0;
};

}  // namespace strata::fea::netlink
