#include "fea/netlink/netlink_route_kernel.h"

#include <errno.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <cstring>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "fea/netlink/nexthop_codec.h"
#include "fea/netlink/route_codec.h"

namespace strata::fea::netlink {
namespace {

// Bytes of requests per sendmsg: the ACKs (about 40 bytes per ~100-byte request) then fit the
// receive buffer comfortably.
constexpr size_t kBatchBytes = 32 * 1024;

Status FromErrno(int e) { return Status(StatusCode::kInternal, std::strerror(e)); }

}  // namespace

StatusOr<std::unique_ptr<NetlinkRouteKernel>> NetlinkRouteKernel::Open(
    NetlinkRouteKernelOptions options) {
  auto sock = NlSocket::Open(0);
  if (!sock.ok()) return sock.status();
  std::unique_ptr<NetlinkRouteKernel> k(new NetlinkRouteKernel(std::move(*sock), options));
  k->objects_ = options.nexthop_objects && k->AdoptObjects();
  return k;
}

NetlinkRouteKernel::NetlinkRouteKernel(std::unique_ptr<NlSocket> sock,
                                       NetlinkRouteKernelOptions options)
    : sock_(std::move(sock)), options_(options), next_id_(uint32_t{options.protocol} << 24 | 1) {}

bool NetlinkRouteKernel::AdoptObjects() {
  std::vector<uint8_t> req;
  const uint32_t seq = sock_->NextSeq();
  AppendNexthopDump(req, seq);
  std::vector<NexthopObject> ours;
  // A kernel without nexthop objects answers the dump with an error.
  Status s = sock_->Dump(req, seq, [&](const nlmsghdr* nlh) -> Status {
    auto nh = ParseNexthopMessage(nlh);
    if (!nh.ok()) return nh.status();
    if (nh->has_value() && (*nh)->protocol == options_.protocol) ours.push_back(**nh);
    return Status();
  });
  if (!s.ok() && s.code() != StatusCode::kDataLoss) return false;
  for (const NexthopObject& nh : ours) {
    const GatewayHop hop{nh.gateway, nh.ifindex};
    if (!ids_.emplace(hop, nh.id).second) continue;  // a duplicate: routes may still use it
    hops_.emplace(nh.id, hop);
    if ((nh.id >> 24) == options_.protocol && nh.id >= next_id_) next_id_ = nh.id + 1;
  }
  return true;
}

uint32_t NetlinkRouteKernel::NewId() {
  // Ids stay in our protocol's block; after 16M objects they wrap within it.
  const uint32_t base = uint32_t{options_.protocol} << 24;
  while (next_id_ == base || hops_.contains(next_id_) || (next_id_ >> 24) != options_.protocol) {
    next_id_ = (next_id_ >> 24) == options_.protocol ? next_id_ + 1 : base + 1;
  }
  return next_id_++;
}

void NetlinkRouteKernel::CreateObjects(std::span<const GatewayHop> hops) {
  std::vector<GatewayHop> todo(hops.begin(), hops.end());
  // An id taken by someone else (EEXIST) gets the hop another id, a few times at most.
  for (int round = 0; round < 4 && !todo.empty(); ++round) {
    std::vector<uint8_t> buf;
    std::vector<uint32_t> ids;
    const uint32_t first_seq = sock_->ReserveSeq(static_cast<uint32_t>(todo.size()));
    for (size_t i = 0; i < todo.size(); ++i) {
      ids.push_back(NewId());
      AppendNexthopAdd(buf, {ids.back(), options_.protocol, todo[i].gateway, todo[i].ifindex},
                       first_seq + static_cast<uint32_t>(i));
    }
    auto errors = sock_->Transact(buf, first_seq, todo.size());
    if (!errors.ok()) return;  // the routes are spelt out
    std::vector<GatewayHop> again;
    for (size_t i = 0; i < todo.size(); ++i) {
      if ((*errors)[i] == 0) {
        ids_.emplace(todo[i], ids[i]);
        hops_.emplace(ids[i], todo[i]);
      } else if ((*errors)[i] == EEXIST) {
        again.push_back(todo[i]);
      }
      // Other refusals (no route to the gateway through that device...): the route is spelt
      // out and gets the kernel's own answer for it.
    }
    todo = std::move(again);
  }
}

void NetlinkRouteKernel::Send(std::span<const KernelOp> ops, std::span<const uint32_t> ids,
                              std::span<const size_t> which, std::vector<Status>& results) {
  size_t w = 0;
  while (w < which.size()) {
    std::vector<uint8_t> buf;
    std::vector<size_t> index;  // op index of each message in buf
    const uint32_t first_seq = sock_->ReserveSeq(static_cast<uint32_t>(which.size() - w));
    uint32_t seq = first_seq;
    for (; w < which.size() && buf.size() < kBatchBytes; ++w) {
      const size_t i = which[w];
      if (Status s = AppendRouteRequest(buf, ops[i], seq, ids[i]); !s.ok()) {
        results[i] = s;
        continue;
      }
      index.push_back(i);
      ++seq;
    }
    auto errors = sock_->Transact(buf, first_seq, index.size());
    for (size_t m = 0; m < index.size(); ++m) {
      if (!errors.ok()) {
        results[index[m]] = errors.status();
      } else {
        results[index[m]] = (*errors)[m] == 0 ? Status() : FromErrno((*errors)[m]);
      }
    }
  }
}

void NetlinkRouteKernel::RetryThroughLostObjects(std::span<const KernelOp> ops,
                                                 std::span<const uint32_t> ids,
                                                 std::vector<Status>& results) {
  absl::flat_hash_set<uint32_t> suspect;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ids[i] != 0 && !results[i].ok()) suspect.insert(ids[i]);
  }
  if (suspect.empty()) return;
  // Adding an object under its own id again answers EEXIST while the kernel has it (the route
  // was refused for another reason) and makes it anew when the kernel dropped it.
  std::vector<uint32_t> order(suspect.begin(), suspect.end());
  std::vector<uint8_t> buf;
  const uint32_t first_seq = sock_->ReserveSeq(static_cast<uint32_t>(order.size()));
  for (size_t i = 0; i < order.size(); ++i) {
    const GatewayHop& hop = hops_.at(order[i]);
    AppendNexthopAdd(buf, {order[i], options_.protocol, hop.gateway, hop.ifindex},
                     first_seq + static_cast<uint32_t>(i));
  }
  auto errors = sock_->Transact(buf, first_seq, order.size());
  if (!errors.ok()) return;
  absl::flat_hash_set<uint32_t> remade;
  absl::flat_hash_set<uint32_t> lost;
  for (size_t i = 0; i < order.size(); ++i) {
    const int e = (*errors)[i];
    if (e == 0) {
      remade.insert(order[i]);
    } else if (e != EEXIST) {
      // Gone and cannot be made now (its device lost its carrier): forget it.
      lost.insert(order[i]);
      ids_.erase(hops_.at(order[i]));
      hops_.erase(order[i]);
    }
  }
  // Through a remade object, or spelt out where none can be made now (the kernel takes a
  // route through a device without carrier and marks it linkdown, as it would have kept it).
  std::vector<uint32_t> again_ids(ids.begin(), ids.end());
  std::vector<size_t> again;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ids[i] == 0 || results[i].ok()) continue;
    if (lost.contains(ids[i])) again_ids[i] = 0;
    if (remade.contains(ids[i]) || lost.contains(ids[i])) again.push_back(i);
  }
  Send(ops, again_ids, again, results);
}

std::vector<Status> NetlinkRouteKernel::Apply(std::span<const KernelOp> ops) {
  std::vector<Status> results(ops.size());
  std::vector<uint32_t> ids(ops.size(), 0);
  if (objects_) {
    // Ops whose hop has an object name it now; the others wait for CreateObjects.
    std::vector<GatewayHop> missing;
    absl::flat_hash_set<GatewayHop> seen;
    std::vector<std::pair<size_t, GatewayHop>> waiting;
    for (size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].type == KernelOpType::kDelete) continue;
      auto hop = SharedGatewayHop(ops[i].route);
      if (!hop) continue;
      if (auto it = ids_.find(*hop); it != ids_.end()) {
        ids[i] = it->second;
        continue;
      }
      if (seen.insert(*hop).second) missing.push_back(*hop);
      waiting.emplace_back(i, *hop);
    }
    if (!missing.empty()) CreateObjects(missing);
    for (const auto& [i, hop] : waiting) {
      if (auto it = ids_.find(hop); it != ids_.end()) ids[i] = it->second;
    }
  }
  std::vector<size_t> all(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) all[i] = i;
  Send(ops, ids, all, results);
  if (objects_) RetryThroughLostObjects(ops, ids, results);
  return results;
}

void NetlinkRouteKernel::ReleaseGatewayHops(std::span<const GatewayHop> hops) {
  std::vector<uint8_t> buf;
  std::vector<uint32_t> gone;
  for (const GatewayHop& hop : hops) {
    auto it = ids_.find(hop);
    if (it == ids_.end()) continue;
    gone.push_back(it->second);
    hops_.erase(it->second);
    ids_.erase(it);
  }
  if (gone.empty()) return;
  const uint32_t first_seq = sock_->ReserveSeq(static_cast<uint32_t>(gone.size()));
  for (size_t i = 0; i < gone.size(); ++i) {
    AppendNexthopDelete(buf, gone[i], first_seq + static_cast<uint32_t>(i));
  }
  // ENOENT (the kernel dropped it already) is as good as done.
  (void)sock_->Transact(buf, first_seq, gone.size());
}

void NetlinkRouteKernel::ReleaseAllHops() {
  std::vector<GatewayHop> all;
  all.reserve(ids_.size());
  for (const auto& [hop, id] : ids_) all.push_back(hop);
  ReleaseGatewayHops(all);
}

StatusOr<std::vector<KernelRoute>> NetlinkRouteKernel::Dump(uint32_t table, size_t expected) {
  std::vector<KernelRoute> routes;
  routes.reserve(expected);
  const NexthopResolver resolve = [this](uint32_t id) -> std::optional<KernelNextHop> {
    auto it = hops_.find(id);
    if (it == hops_.end()) return std::nullopt;
    return KernelNextHop{it->second.gateway, it->second.ifindex, 1};
  };
  for (uint8_t family : {uint8_t{AF_INET}, uint8_t{AF_INET6}}) {
    std::vector<uint8_t> req;
    const uint32_t seq = sock_->NextSeq();
    AppendDumpRequest(req, RTM_GETROUTE, family, seq);
    Status s = sock_->Dump(req, seq, [&](const nlmsghdr* nlh) -> Status {
      auto r = ParseRouteMessage(nlh, resolve);
      if (!r.ok()) return r.status();
      if (r->has_value() && (*r)->table == table) routes.push_back(std::move(**r));
      return Status();
    });
    if (!s.ok()) return s;
  }
  return routes;
}

}  // namespace strata::fea::netlink
