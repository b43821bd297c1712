// Route codec: builds RTM_NEWROUTE / RTM_DELROUTE / RTM_GETROUTE messages from KernelOps and
// parses RTM_NEWROUTE messages (dump answers) back into KernelRoutes.
//
// Why a codec apart from the socket: the wire format is tested without a kernel (round trip
// through the parser), and the parser is the one place where untrusted kernel bytes become
// values, so every length is checked and every malformed message becomes an error Status.
// Stateless free functions; thread-safe.
#pragma once

#include <linux/netlink.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "common/status.h"
#include "fea/kernel_route.h"

namespace strata::fea::netlink {

// Routes with more next hops are refused (keeps every message within one small buffer).
inline constexpr size_t kMaxNextHops = 64;
// The metric of a VRF table's guard, `unreachable default` (NetlinkLinkKernel): the highest
// iproute2's VRF documentation and FRR use, so that no route of the table is below it. The
// guards belong to the VRF devices, not to any VR's routes: the route parser leaves them out.
inline constexpr uint32_t kGuardMetric = 4278198272;

// Appends one request for `op` with NLM_F_ACK and sequence number `seq` to `out`.
// kAdd: NLM_F_CREATE|NLM_F_EXCL; kReplace: NLM_F_CREATE|NLM_F_REPLACE; kDelete: RTM_DELROUTE
// naming the protocol, so that the kernel deletes only a route of that protocol.
// A non-zero `nexthop_id` (add, replace) names the route's nexthop object (RTA_NH_ID) instead
// of spelling its next hops out.
Status AppendRouteRequest(std::vector<uint8_t>& out, const KernelOp& op, uint32_t seq,
                          uint32_t nexthop_id = 0);

// Appends a dump request (RTM_GETROUTE / RTM_GETLINK / RTM_GETADDR) for `family`.
void AppendDumpRequest(std::vector<uint8_t>& out, uint16_t type, uint8_t family, uint32_t seq);

// The next hop of a nexthop object, by id; nullopt for an id it does not know.
using NexthopResolver = std::function<std::optional<KernelNextHop>(uint32_t id)>;

// Parses one RTM_NEWROUTE message. nullopt for routes the FEA never manages (local, broadcast,
// multicast, throw, cloned, other families); an error for a malformed message. A route
// through a nexthop object carries its next hops too unless net.ipv4.nexthop_compat_mode is 0;
// then `resolve` (if set) reads them from the RTA_NH_ID.
StatusOr<std::optional<KernelRoute>> ParseRouteMessage(const nlmsghdr* nlh,
                                                       const NexthopResolver& resolve = {});

}  // namespace strata::fea::netlink
