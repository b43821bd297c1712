// Netlink codec harness: the bytes the kernel sends the FEA (dumps and monitor messages of
// routes, nexthop objects, links and addresses). Input: a buffer of netlink messages, walked as
// the FEA walks a receive buffer. Properties beyond "no crash, no leak, no UB": every route,
// nexthop object, link and address that parses re-encodes with the FEA's own builders to a
// message that parses to the same value (decode -> encode -> decode).
#include <linux/rtnetlink.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fea/netlink/link_codec.h"
#include "fea/netlink/nexthop_codec.h"
#include "fea/netlink/route_codec.h"
#include "fuzz/fuzz_check.h"

namespace strata::fuzz {
namespace {

using namespace strata::fea;
using namespace strata::fea::netlink;

const nlmsghdr* First(const std::vector<uint8_t>& b) {
  return reinterpret_cast<const nlmsghdr*>(b.data());
}

// Through a nexthop object: ids below 16 name a gateway on ifindex id, others are unknown.
std::optional<KernelNextHop> Resolve(uint32_t id) {
  if (id >= 16) return std::nullopt;
  return KernelNextHop{IpAddr::V4(0x0a000000u | id), id, 1};
}

Status OneMessage(const nlmsghdr* nlh) {
  switch (nlh->nlmsg_type) {
    case RTM_NEWROUTE:
    case RTM_DELROUTE: {
      auto r = ParseRouteMessage(nlh, Resolve);
      if (!r.ok() || !r->has_value()) break;
      const KernelRoute& route = **r;
      FUZZ_CHECK(!route.ToString().empty(), "empty text form");
      std::vector<uint8_t> out;
      if (!AppendRouteRequest(out, {KernelOpType::kAdd, route}, 1).ok()) break;
      auto again = ParseRouteMessage(First(out));
      FUZZ_CHECK(again.ok() && again->has_value(), route.ToString() + " does not re-parse");
      FUZZ_CHECK(**again == route, route.ToString() + " re-parses as " + (*again)->ToString());
      break;
    }
    case RTM_NEWNEXTHOP: {
      auto n = ParseNexthopMessage(nlh);
      if (!n.ok() || !n->has_value()) break;
      std::vector<uint8_t> out;
      AppendNexthopAdd(out, **n, 1);
      auto again = ParseNexthopMessage(First(out));
      FUZZ_CHECK(again.ok() && again->has_value() && **again == **n,
                 "nexthop object does not re-parse the same");
      break;
    }
    case RTM_NEWLINK:
    case RTM_DELLINK: {
      auto l = ParseLinkMessage(nlh);
      if (!l.ok()) break;
      std::vector<uint8_t> out;
      AppendLinkMessage(out, nlh->nlmsg_type, *l, 1);
      auto again = ParseLinkMessage(First(out));
      FUZZ_CHECK(again.ok() && *again == *l, "link does not re-parse the same");
      break;
    }
    case RTM_NEWADDR:
    case RTM_DELADDR: {
      auto a = ParseAddrMessage(nlh);
      if (!a.ok()) break;
      std::vector<uint8_t> out;
      AppendAddrMessage(out, nlh->nlmsg_type, *a, 1);
      auto again = ParseAddrMessage(First(out));
      FUZZ_CHECK(again.ok() && *again == *a, "address does not re-parse the same");
      break;
    }
    default:
      break;
  }
  return Status();
}

}  // namespace
}  // namespace strata::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The kernel's buffers are aligned; libFuzzer's input need not be.
  std::vector<uint8_t> buf(data, data + size);
  // A truncated tail is an error the FEA logs; the messages before it were checked.
  if (!strata::fea::netlink::ForEachMessage(buf.data(), buf.size(), strata::fuzz::OneMessage).ok())
    return 0;
  return 0;
}
