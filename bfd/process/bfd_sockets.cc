#include "bfd/process/bfd_sockets.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <random>

namespace strata::bfd {

namespace {

// The lowest and highest source port of a session (RFC 5881 4).
constexpr uint16_t kFirstSourcePort = 49152;
constexpr uint16_t kLastSourcePort = 65535;

struct SockAddr {
  sockaddr_storage ss{};
  socklen_t len = 0;
  const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&ss); }
};

SockAddr ToSockAddr(const IpAddr& a, uint16_t port) {
  SockAddr s;
  if (a.is_v4()) {
    auto* in = reinterpret_cast<sockaddr_in*>(&s.ss);
    in->sin_family = AF_INET;
    in->sin_port = htons(port);
    std::memcpy(&in->sin_addr, a.bytes().data(), 4);
    s.len = sizeof(sockaddr_in);
  } else {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&s.ss);
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(port);
    std::memcpy(&in6->sin6_addr, a.bytes().data(), 16);
    s.len = sizeof(sockaddr_in6);
  }
  return s;
}

IpAddr FromSockAddr(const sockaddr_storage& ss) {
  if (ss.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&ss);
    return IpAddr::V4(ntohl(in->sin_addr.s_addr));
  }
  const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&ss);
  std::array<uint8_t, 16> b;
  std::memcpy(b.data(), &in6->sin6_addr, 16);
  return IpAddr::V6(b);
}

Status Errno(const std::string& what) {
  return Internal(fmt::format("{}: {}", what, std::strerror(errno)));
}

Status SetInt(int fd, int level, int name, int value, const char* what) {
  if (setsockopt(fd, level, name, &value, sizeof(value)) != 0) return Errno(what);
  return Status::Ok();
}

Status BindToDevice(int fd, const std::string& device) {
  if (device.empty()) return Status::Ok();
  if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, device.data(),
                 static_cast<socklen_t>(device.size())) != 0) {
    return Errno("SO_BINDTODEVICE " + device);
  }
  return Status::Ok();
}

}  // namespace

struct BfdSockets::Receiver {
  Receiver(boost::asio::io_context& io, std::string vr_name, bool multi)
      : socket(io), vr(std::move(vr_name)), multihop(multi) {}
  boost::asio::ip::udp::socket socket;
  std::string vr;
  bool multihop;
  std::array<uint8_t, 512> buffer{};
};

BfdSockets::BfdSockets(boost::asio::io_context& io, Options options, OnPacket on_packet)
    : io_(io),
      options_(options),
      on_packet_(std::move(on_packet)),
      log_(MakeLogger("bfd.net")),
      next_port_(static_cast<uint16_t>(
          kFirstSourcePort + std::random_device{}() % (kLastSourcePort - kFirstSourcePort))) {}

BfdSockets::~BfdSockets() = default;

Status BfdSockets::Open() { return OpenVr(""); }

Status BfdSockets::OpenVr(const std::string& vr) {
  if (vrs_open_.contains(vr)) return Status::Ok();
  for (bool multihop : {false, true}) {
    const uint16_t port = multihop ? options_.multihop_port : options_.single_hop_port;
    // The default VR's ports, once bound (port 0), are every VR's.
    const uint16_t bound = multihop ? bound_multi_ : bound_single_;
    if (Status s = OpenReceiver(vr, false, multihop, bound ? bound : port); !s.ok()) return s;
    if (Status s = OpenReceiver(vr, true, multihop, multihop ? bound_multi_ : bound_single_);
        !s.ok()) {
      log_->warn("no IPv6 BFD{}: {}", vr.empty() ? "" : " in VR " + vr, s.ToString());
    }
  }
  vrs_open_[vr] = true;
  return Status::Ok();
}

Status BfdSockets::OpenReceiver(const std::string& vr, bool v6, bool multihop, uint16_t port) {
  const int fd = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return Errno("socket");
  auto fail = [fd](Status s) {
    ::close(fd);
    return s;
  };
  Status s = SetInt(fd, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
  if (s.ok() && v6) s = SetInt(fd, IPPROTO_IPV6, IPV6_V6ONLY, 1, "IPV6_V6ONLY");
  if (s.ok() && v6) s = SetInt(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, 1, "IPV6_RECVPKTINFO");
  if (s.ok() && v6) s = SetInt(fd, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, 1, "IPV6_RECVHOPLIMIT");
  if (s.ok() && !v6) s = SetInt(fd, IPPROTO_IP, IP_PKTINFO, 1, "IP_PKTINFO");
  if (s.ok() && !v6) s = SetInt(fd, IPPROTO_IP, IP_RECVTTL, 1, "IP_RECVTTL");
  if (s.ok()) s = BindToDevice(fd, vr);
  if (!s.ok()) return fail(s);
  const SockAddr any = ToSockAddr(IpAddr::Zero(v6 ? Family::kIpv6 : Family::kIpv4), port);
  if (::bind(fd, any.get(), any.len) != 0) {
    return fail(Errno(fmt::format("bind UDP {}", port)));
  }
  sockaddr_storage bound{};
  socklen_t len = sizeof(bound);
  getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
  const uint16_t bound_port = ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  (multihop ? bound_multi_ : bound_single_) = bound_port;
  auto r = std::make_unique<Receiver>(io_, vr, multihop);
  boost::system::error_code ec;
  r->socket.assign(v6 ? boost::asio::ip::udp::v6() : boost::asio::ip::udp::v4(), fd, ec);
  if (ec) return fail(Internal("assign: " + ec.message()));
  Read(*r);
  log_->info("listening on UDP {} ({}, {}{})", bound_port, v6 ? "IPv6" : "IPv4",
             multihop ? "multihop" : "single hop", vr.empty() ? "" : ", VR " + vr);
  receivers_.push_back(std::move(r));
  return Status::Ok();
}

void BfdSockets::Read(Receiver& r) {
  r.socket.async_wait(
      boost::asio::socket_base::wait_read, [this, &r](const boost::system::error_code& ec) {
        if (ec) return;
        for (;;) {
          sockaddr_storage from{};
          iovec iov{r.buffer.data(), r.buffer.size()};
          alignas(cmsghdr) std::array<uint8_t, 256> control{};
          msghdr msg{};
          msg.msg_name = &from;
          msg.msg_namelen = sizeof(from);
          msg.msg_iov = &iov;
          msg.msg_iovlen = 1;
          msg.msg_control = control.data();
          msg.msg_controllen = control.size();
          const ssize_t n = ::recvmsg(r.socket.native_handle(), &msg, 0);
          if (n < 0) break;  // EAGAIN: drained
          ReceivedPacket p;
          p.vr = r.vr;
          p.multihop = r.multihop;
          p.source = FromSockAddr(from);
          for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
            char name[IF_NAMESIZE] = {};
            if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TTL) {
              int ttl = 0;
              std::memcpy(&ttl, CMSG_DATA(c), sizeof(ttl));
              p.ttl = static_cast<uint8_t>(ttl);
            } else if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO) {
              in_pktinfo info;
              std::memcpy(&info, CMSG_DATA(c), sizeof(info));
              p.destination = IpAddr::V4(ntohl(info.ipi_addr.s_addr));
              if (if_indextoname(static_cast<unsigned>(info.ipi_ifindex), name)) p.interface = name;
            } else if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_HOPLIMIT) {
              int hops = 0;
              std::memcpy(&hops, CMSG_DATA(c), sizeof(hops));
              p.ttl = static_cast<uint8_t>(hops);
            } else if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_PKTINFO) {
              in6_pktinfo info;
              std::memcpy(&info, CMSG_DATA(c), sizeof(info));
              std::array<uint8_t, 16> b;
              std::memcpy(b.data(), &info.ipi6_addr, 16);
              p.destination = IpAddr::V6(b);
              if (if_indextoname(info.ipi6_ifindex, name)) p.interface = name;
            }
          }
          p.bytes = std::span<const uint8_t>(r.buffer.data(), static_cast<size_t>(n));
          on_packet_(p);
        }
        Read(r);
      });
}

StatusOr<int> BfdSockets::OpenSender(const SessionKey& key) {
  const bool v6 = key.peer.is_v6();
  const int fd = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return Errno("socket");
  auto fail = [fd](Status s) {
    ::close(fd);
    return s;
  };
  Status s = v6 ? SetInt(fd, IPPROTO_IPV6, IPV6_UNICAST_HOPS, 255, "IPV6_UNICAST_HOPS")
                : SetInt(fd, IPPROTO_IP, IP_TTL, 255, "IP_TTL");
  // In a VR, its VRF device (the route to the peer picks the link); in the default VR, the
  // single-hop session's link if it names one.
  if (s.ok()) s = BindToDevice(fd, !key.vr.empty() ? key.vr : key.multihop ? "" : key.interface);
  if (!s.ok()) return fail(s);
  const IpAddr local = key.local.is_zero() ? IpAddr::Zero(key.peer.family()) : key.local;
  // A source port no other session uses (RFC 5881 4): the next free one in the range.
  for (int tries = 0; tries <= kLastSourcePort - kFirstSourcePort; ++tries) {
    const uint16_t port = next_port_;
    next_port_ = next_port_ == kLastSourcePort ? kFirstSourcePort : next_port_ + 1;
    const SockAddr a = ToSockAddr(local, port);
    if (::bind(fd, a.get(), a.len) == 0) return fd;
    if (errno != EADDRINUSE) return fail(Errno("bind " + local.ToString()));
  }
  return fail(ResourceExhausted("no free source port in 49152..65535"));
}

Status BfdSockets::Send(const SessionKey& key, std::span<const uint8_t> bytes) {
  auto it = senders_.find(key);
  if (it == senders_.end()) {
    auto fd = OpenSender(key);
    if (!fd.ok()) {
      ++send_errors_;
      return fd.status();
    }
    auto sock = std::make_unique<boost::asio::ip::udp::socket>(io_);
    boost::system::error_code ec;
    sock->assign(key.peer.is_v6() ? boost::asio::ip::udp::v6() : boost::asio::ip::udp::v4(), *fd,
                 ec);
    if (ec) {
      ::close(*fd);
      ++send_errors_;
      return Internal("assign: " + ec.message());
    }
    it = senders_.emplace(key, std::move(sock)).first;
  }
  const uint16_t port = key.multihop ? options_.peer_multihop_port : options_.peer_single_hop_port;
  const SockAddr to = ToSockAddr(key.peer, port);
  if (::sendto(it->second->native_handle(), bytes.data(), bytes.size(), 0, to.get(), to.len) < 0) {
    ++send_errors_;
    return Errno("send to " + key.peer.ToString());
  }
  return Status::Ok();
}

void BfdSockets::Forget(const SessionKey& key) { senders_.erase(key); }

}  // namespace strata::bfd
