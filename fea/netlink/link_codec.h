// Link codec: parses RTM_NEWLINK/RTM_DELLINK and RTM_NEWADDR/RTM_DELADDR messages into
// LinkInfo/AddrInfo (with a link's master, kind, VRF table and alias), and builds them (for
// tests and fakes); builds the requests that make, change and delete links (VRF devices, their
// enslaved interfaces).
// Untrusted kernel bytes: every malformed message becomes an error Status.
// Stateless free functions; thread-safe.
#pragma once

#include <linux/netlink.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "fea/link_info.h"

namespace strata::fea::netlink {

StatusOr<LinkInfo> ParseLinkMessage(const nlmsghdr* nlh);
StatusOr<AddrInfo> ParseAddrMessage(const nlmsghdr* nlh);

// type: RTM_NEWLINK or RTM_DELLINK.
void AppendLinkMessage(std::vector<uint8_t>& out, uint16_t type, const LinkInfo& link,
                       uint32_t seq);
// type: RTM_NEWADDR or RTM_DELADDR.
void AppendAddrMessage(std::vector<uint8_t>& out, uint16_t type, const AddrInfo& addr,
                       uint32_t seq);

// Requests, each with NLM_F_ACK and sequence number `seq`:
// RTM_NEWLINK with NLM_F_CREATE|NLM_F_EXCL: a VRF device `name` on kernel table `table`.
void AppendVrfCreate(std::vector<uint8_t>& out, const std::string& name, uint32_t table,
                     uint32_t seq);
// RTM_NEWLINK changing an existing link, named by ifindex (or by name when ifindex is 0): what
// is set here, nothing else.
struct LinkSet {
  uint32_t ifindex = 0;
  std::string name;
  bool up = false;                   // set IFF_UP
  std::optional<uint32_t> master;    // IFLA_MASTER; 0 releases the link from its master
  std::optional<std::string> alias;  // IFLA_IFALIAS
};
void AppendLinkSet(std::vector<uint8_t>& out, const LinkSet& set, uint32_t seq);
// RTM_DELLINK of `ifindex`.
void AppendLinkDelete(std::vector<uint8_t>& out, uint32_t ifindex, uint32_t seq);

// Calls fn(nlh) for each complete message in `bytes`; an error when a header is truncated.
template <typename Fn>
Status ForEachMessage(const uint8_t* bytes, size_t len, Fn&& fn) {
  auto* nlh = reinterpret_cast<const nlmsghdr*>(bytes);
  int left = static_cast<int>(len);
  // NLMSG_OK spelt out: the macro compares the unsigned nlmsg_len with the signed `left`.
  while (left >= static_cast<int>(sizeof(nlmsghdr)) && nlh->nlmsg_len >= sizeof(nlmsghdr) &&
         nlh->nlmsg_len <= static_cast<uint32_t>(left)) {
    if (Status s = fn(nlh); !s.ok()) return s;
    nlh = NLMSG_NEXT(nlh, left);
  }
  if (left != 0) return Status(StatusCode::kDataLoss, "truncated netlink message");
  return Status();
}

}  // namespace strata::fea::netlink
