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
#include <optional>
#include <vector>

#include "common/status.h"
#include "fea/kernel_route.h"

namespace strata::fea::netlink {

// Routes with more next hops are refused (keeps every message within one small buffer).
inline constexpr size_t kMaxNextHops = 64;

// Appends one request for `op` with NLM_F_ACK and sequence number `seq` to `out`.
// kAdd: NLM_F_CREATE|NLM_F_EXCL; kReplace: NLM_F_CREATE|NLM_F_REPLACE; kDelete: RTM_DELROUTE
// naming the protocol, so that the kernel deletes only a route of that protocol.
Status AppendRouteRequest(std::vector<uint8_t>& out, const KernelOp& op, uint32_t seq);

// Appends a dump request (RTM_GETROUTE / RTM_GETLINK / RTM_GETADDR) for `family`.
void AppendDumpRequest(std::vector<uint8_t>& out, uint16_t type, uint8_t family, uint32_t seq);

// Parses one RTM_NEWROUTE message. nullopt for routes the FEA never manages (local, broadcast,
// multicast, unreachable, cloned, other families); an error for a malformed message.
StatusOr<std::optional<KernelRoute>> ParseRouteMessage(const nlmsghdr* nlh);

}  // namespace strata::fea::netlink
