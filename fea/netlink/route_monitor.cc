#include "fea/netlink/route_monitor.h"

#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "fea/netlink/attr_table.h"
#include "fea/netlink/route_codec.h"

namespace strata::fea::netlink {
namespace {

constexpr int kReceiveBuffer = 64 << 20;

Status Errno(const std::string& what) { return Unavailable(what + ": " + std::strerror(errno)); }

int OpenSocket() {
  const int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (fd < 0) return -1;
  sockaddr_nl sa{};
  sa.nl_family = AF_NETLINK;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

uint32_t NexthopIdOf(const nlmsghdr* nlh) {
  std::array<const nlattr*, RTA_MAX + 1> tb{};
  if (!ParseMessageAttrs(nlh, sizeof(rtmsg), tb) || tb[RTA_NH_ID] == nullptr ||
      mnl_attr_get_payload_len(tb[RTA_NH_ID]) != sizeof(uint32_t)) {
    return 0;
  }
  return mnl_attr_get_u32(tb[RTA_NH_ID]);
}

// Calls fn for each message of a dump of `type` (both families for routes).
template <typename Fn>
Status DumpAll(uint16_t type, Fn fn) {
  const int fd = OpenSocket();
  if (fd < 0) return Errno("netlink socket");
  std::vector<uint8_t> buf(1 << 20);
  Status status;
  uint32_t seq = 1;
  for (uint8_t family : {uint8_t{AF_INET}, uint8_t{AF_INET6}}) {
    std::vector<uint8_t> req;
    AppendDumpRequest(req, type, family, seq);
    if (::send(fd, req.data(), req.size(), 0) < 0) {
      status = Errno("netlink dump request");
      break;
    }
    bool done = false;
    while (!done && status.ok()) {
      const ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
      if (n < 0) {
        if (errno == EINTR) continue;
        status = Errno("netlink dump");
        break;
      }
      int left = static_cast<int>(n);
      for (auto* nlh = reinterpret_cast<const nlmsghdr*>(buf.data()); mnl_nlmsg_ok(nlh, left);
           nlh = mnl_nlmsg_next(nlh, &left)) {
        if (nlh->nlmsg_type == NLMSG_DONE) {
          done = true;
          break;
        }
        if (nlh->nlmsg_type == NLMSG_ERROR) {
          status = Unavailable("netlink dump answered with an error");
          break;
        }
        fn(nlh);
      }
    }
    ++seq;
  }
  ::close(fd);
  return status;
}

}  // namespace

StatusOr<std::unique_ptr<RouteMonitor>> RouteMonitor::Start(Options options) {
  std::unique_ptr<RouteMonitor> m(new RouteMonitor(std::move(options)));
  std::promise<Status> started;
  auto ready = started.get_future();
  m->thread_ = std::thread([mon = m.get(), &started] { mon->Run(&started); });
  Status s = ready.get();
  if (!s.ok()) {
    m->Stop();
    return s;
  }
  return m;
}

RouteMonitor::~RouteMonitor() { Stop(); }

void RouteMonitor::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (sock_ >= 0) ::close(sock_);
  sock_ = -1;
}

void RouteMonitor::Run(std::promise<Status>* started) {
  if (!options_.netns.empty()) {
    const std::string path = "/var/run/netns/" + options_.netns;
    const int ns = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (ns < 0 || ::setns(ns, CLONE_NEWNET) != 0) {
      started->set_value(Errno("entering " + path));
      if (ns >= 0) ::close(ns);
      return;
    }
    ::close(ns);
  }
  sock_ = OpenSocket();
  if (sock_ < 0) {
    started->set_value(Errno("netlink socket"));
    return;
  }
  if (::setsockopt(sock_, SOL_SOCKET, SO_RCVBUFFORCE, &kReceiveBuffer, sizeof kReceiveBuffer) !=
      0) {
    (void)::setsockopt(sock_, SOL_SOCKET, SO_RCVBUF, &kReceiveBuffer, sizeof kReceiveBuffer);
  }
  for (int group : {RTNLGRP_IPV4_ROUTE, RTNLGRP_IPV6_ROUTE, RTNLGRP_NEXTHOP}) {
    if (::setsockopt(sock_, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group, sizeof group) != 0) {
      started->set_value(Errno("netlink group " + std::to_string(group)));
      return;
    }
  }
  Resync();
  ResetMin();
  started->set_value(Status());
  std::vector<uint8_t> buf(1 << 20);
  while (!stop_) {
    pollfd p{sock_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const ssize_t n = ::recv(sock_, buf.data(), buf.size(), MSG_DONTWAIT);
    if (n < 0) {
      if (errno == ENOBUFS) {
        ++overruns_;
        Resync();
      }
      continue;
    }
    int left = static_cast<int>(n);
    for (auto* nlh = reinterpret_cast<const nlmsghdr*>(buf.data()); mnl_nlmsg_ok(nlh, left);
         nlh = mnl_nlmsg_next(nlh, &left)) {
      ++messages_;
      Apply(nlh, false);
    }
  }
}

void RouteMonitor::Resync() {
  std::map<IpPrefix, Entry> fresh;
  const Status s = DumpAll(RTM_GETROUTE, [&](const nlmsghdr* nlh) {
    auto r = ParseRouteMessage(nlh);
    if (!r.ok() || !r->has_value()) return;
    const KernelRoute& k = **r;
    if (k.table != options_.table || (options_.protocol != 0 && k.protocol != options_.protocol)) {
      return;
    }
    fresh[k.prefix] = Entry{k, NexthopIdOf(nlh)};
  });
  if (!s.ok()) return;
  std::lock_guard lock(mu_);
  routes_ = std::move(fresh);
  min_count_ = std::min(min_count_, routes_.size());
}

void RouteMonitor::Record(EventKind kind, const KernelRoute& r, uint32_t nhid) {
  Tally& t = tallies_[r.prefix];
  switch (kind) {
    case EventKind::kAdd:
      ++t.adds;
      break;
    case EventKind::kReplace:
      ++t.replaces;
      break;
    case EventKind::kDelete:
    case EventKind::kFlushed:
      ++t.deletes;
      break;
  }
  if (options_.keep_events) events_.push_back(Event{Clock::now(), kind, r, nhid});
}

void RouteMonitor::Apply(const void* msg, bool /*dump*/) {
  const auto* nlh = static_cast<const nlmsghdr*>(msg);
  if (nlh->nlmsg_type == RTM_DELNEXTHOP) {
    if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(nhmsg))) return;
    std::array<const nlattr*, NHA_MAX + 1> tb{};
    if (!ParseMessageAttrs(nlh, sizeof(nhmsg), tb) || tb[NHA_ID] == nullptr) return;
    const uint32_t id = mnl_attr_get_u32(tb[NHA_ID]);
    std::lock_guard lock(mu_);
    for (auto it = routes_.begin(); it != routes_.end();) {
      if (it->second.nhid != id) {
        ++it;
        continue;
      }
      Record(EventKind::kFlushed, it->second.route, id);
      it = routes_.erase(it);
    }
    min_count_ = std::min(min_count_, routes_.size());
    return;
  }
  if (nlh->nlmsg_type != RTM_NEWROUTE && nlh->nlmsg_type != RTM_DELROUTE) return;
  auto r = ParseRouteMessage(nlh);
  if (!r.ok() || !r->has_value()) return;
  const KernelRoute& k = **r;
  if (k.table != options_.table || (options_.protocol != 0 && k.protocol != options_.protocol)) {
    return;
  }
  const uint32_t nhid = NexthopIdOf(nlh);
  std::lock_guard lock(mu_);
  auto it = routes_.find(k.prefix);
  if (nlh->nlmsg_type == RTM_NEWROUTE) {
    Record(it == routes_.end() ? EventKind::kAdd : EventKind::kReplace, k, nhid);
    routes_[k.prefix] = Entry{k, nhid};
    return;
  }
  if (it == routes_.end()) return;
  Record(EventKind::kDelete, k, nhid);
  routes_.erase(it);
  min_count_ = std::min(min_count_, routes_.size());
}

size_t RouteMonitor::count() const {
  std::lock_guard lock(mu_);
  return routes_.size();
}

size_t RouteMonitor::min_count() const {
  std::lock_guard lock(mu_);
  return min_count_;
}

void RouteMonitor::ResetMin() {
  std::lock_guard lock(mu_);
  min_count_ = routes_.size();
}

std::map<IpPrefix, KernelRoute> RouteMonitor::table() const {
  std::lock_guard lock(mu_);
  std::map<IpPrefix, KernelRoute> out;
  for (const auto& [p, e] : routes_) out.emplace(p, e.route);
  return out;
}

void RouteMonitor::ForEach(
    const std::function<void(const IpPrefix&, const KernelRoute&)>& fn) const {
  std::lock_guard lock(mu_);
  for (const auto& [p, e] : routes_) fn(p, e.route);
}

std::vector<RouteMonitor::Event> RouteMonitor::events() const {
  std::lock_guard lock(mu_);
  return events_;
}

std::map<IpPrefix, RouteMonitor::Tally> RouteMonitor::tallies() const {
  std::lock_guard lock(mu_);
  return tallies_;
}

void RouteMonitor::Reset() {
  std::lock_guard lock(mu_);
  events_.clear();
  tallies_.clear();
  min_count_ = routes_.size();
}

}  // namespace strata::fea::netlink
