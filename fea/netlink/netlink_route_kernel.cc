#include "fea/netlink/netlink_route_kernel.h"

#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <cstring>

#include "fea/netlink/route_codec.h"

namespace strata::fea::netlink {
namespace {

// Bytes of requests per sendmsg: the ACKs (about 40 bytes per ~100-byte request) then fit the
// receive buffer comfortably.
constexpr size_t kBatchBytes = 32 * 1024;

}  // namespace

StatusOr<std::unique_ptr<NetlinkRouteKernel>> NetlinkRouteKernel::Open() {
  auto sock = NlSocket::Open(0);
  if (!sock.ok()) return sock.status();
  return std::unique_ptr<NetlinkRouteKernel>(new NetlinkRouteKernel(std::move(*sock)));
}

std::vector<Status> NetlinkRouteKernel::Apply(std::span<const KernelOp> ops) {
  std::vector<Status> result(ops.size());
  size_t i = 0;
  while (i < ops.size()) {
    std::vector<uint8_t> buf;
    std::vector<size_t> index;  // op index of each message in buf
    const uint32_t first_seq = sock_->ReserveSeq(static_cast<uint32_t>(ops.size() - i));
    uint32_t seq = first_seq;
    for (; i < ops.size() && buf.size() < kBatchBytes; ++i) {
      if (Status s = AppendRouteRequest(buf, ops[i], seq); !s.ok()) {
        result[i] = s;
        continue;
      }
      index.push_back(i);
      ++seq;
    }
    auto errors = sock_->Transact(buf, first_seq, index.size());
    for (size_t m = 0; m < index.size(); ++m) {
      if (!errors.ok()) {
        result[index[m]] = errors.status();
      } else if ((*errors)[m] != 0) {
        result[index[m]] = Status(StatusCode::kInternal, std::strerror((*errors)[m]));
      }
    }
  }
  return result;
}

StatusOr<std::vector<KernelRoute>> NetlinkRouteKernel::Dump(uint32_t table, size_t expected) {
  std::vector<KernelRoute> routes;
  routes.reserve(expected);
  for (uint8_t family : {uint8_t{AF_INET}, uint8_t{AF_INET6}}) {
    std::vector<uint8_t> req;
    const uint32_t seq = sock_->NextSeq();
    AppendDumpRequest(req, RTM_GETROUTE, family, seq);
    Status s = sock_->Dump(req, seq, [&](const nlmsghdr* nlh) -> Status {
      auto r = ParseRouteMessage(nlh);
      if (!r.ok()) return r.status();
      if (r->has_value() && (*r)->table == table) routes.push_back(std::move(**r));
      return Status();
    });
    if (!s.ok()) return s;
  }
  return routes;
}

}  // namespace strata::fea::netlink
