// Nexthop-object codec (Linux 5.3+): builds RTM_NEWNEXTHOP / RTM_DELNEXTHOP / RTM_GETNEXTHOP
// messages and parses RTM_NEWNEXTHOP answers. See NetlinkRouteKernel for why the FEA installs
// its routes through nexthop objects.
//
// Only the kind of object the FEA makes is read back: one gateway through one device. Groups,
// blackholes, FDB and encapsulated nexthops parse as nullopt (someone else's); malformed bytes
// are an error. Stateless free functions; thread-safe.
#pragma once

#include <linux/netlink.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "common/ip_addr.h"
#include "common/status.h"

namespace strata::fea::netlink {

struct NexthopObject {
  uint32_t id = 0;
  uint8_t protocol = 0;
  IpAddr gateway;
  uint32_t ifindex = 0;
  friend bool operator==(const NexthopObject&, const NexthopObject&) = default;
};

// RTM_NEWNEXTHOP with NLM_F_CREATE|NLM_F_EXCL|NLM_F_ACK (EEXIST if the id is taken).
void AppendNexthopAdd(std::vector<uint8_t>& out, const NexthopObject& nh, uint32_t seq);
// RTM_DELNEXTHOP of `id` with NLM_F_ACK. The kernel deletes the routes that use it too.
void AppendNexthopDelete(std::vector<uint8_t>& out, uint32_t id, uint32_t seq);
// RTM_GETNEXTHOP dump of every nexthop object.
void AppendNexthopDump(std::vector<uint8_t>& out, uint32_t seq);

// Parses one RTM_NEWNEXTHOP message.
StatusOr<std::optional<NexthopObject>> ParseNexthopMessage(const nlmsghdr* nlh);

}  // namespace strata::fea::netlink
