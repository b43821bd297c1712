#include "bgp/session/socket_probe.h"

#include <ifaddrs.h>
#include <netinet/in.h>

#include <array>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "bgp/session/asio_address.h"
#include "bgp/session/socket_security.h"

namespace strata::bgp {

Status ProbeSessionSocket(const PeerConfig& config) {
  using tcp = boost::asio::ip::tcp;
  boost::asio::io_context io;
  tcp::socket socket(io);
  const bool v6 = config.peer_address.is_v6();
  boost::system::error_code ec;
  socket.open(v6 ? tcp::v6() : tcp::v4(), ec);
  if (ec) return Internal(std::string("cannot open a probe socket: ") + ec.message());
  if (!config.bind_device.empty()) {
    if (Status s = BindToDevice(socket.native_handle(), config.bind_device); !s.ok()) {
      return FailedPrecondition("VRF device: " + s.message());
    }
  }
  if (config.local_address) {
    socket.bind(tcp::endpoint(ToAsio(*config.local_address), 0), ec);
    if (ec) {
      return InvalidArgument("local_address " + config.local_address->ToString() +
                             ": cannot bind: " + ec.message());
    }
  }
  socket.set_option(boost::asio::ip::unicast::hops(config.ttl()), ec);
  if (ec) {
    return InvalidArgument("multihop_ttl " + std::to_string(config.ttl()) + ": " + ec.message());
  }
  if (config.min_ttl() != 0) {
    if (Status s = SetMinTtl(socket.native_handle(), v6, config.min_ttl()); !s.ok()) {
      return InvalidArgument("ttl_security_hops: " + s.message());
    }
  }
  if (!config.md5_password.empty()) {
    if (Status s = SetTcpMd5Key(socket.native_handle(), v6, ToAsio(config.peer_address),
                                config.md5_password);
        !s.ok()) {
      return InvalidArgument("md5_password: " + s.message());
    }
  }
  return Status::Ok();
}

namespace {

// The address of an ifaddrs entry, if it is IPv4 or IPv6.
std::optional<IpAddr> EntryAddress(const ifaddrs& i) {
  if (i.ifa_addr == nullptr) return std::nullopt;
  if (i.ifa_addr->sa_family == AF_INET) {
    const auto* sin = reinterpret_cast<const sockaddr_in*>(i.ifa_addr);
    return IpAddr::V4(ntohl(sin->sin_addr.s_addr));
  }
  if (i.ifa_addr->sa_family == AF_INET6) {
    const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(i.ifa_addr);
    std::array<uint8_t, 16> b;
    std::memcpy(b.data(), &sin6->sin6_addr, 16);
    return IpAddr::V6(b);
  }
  return std::nullopt;
}

// The host's interface addresses with the interface names, in getifaddrs(3) order.
std::vector<std::pair<std::string, IpAddr>> InterfaceAddresses() {
  std::vector<std::pair<std::string, IpAddr>> out;
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return out;
  for (const ifaddrs* i = list; i != nullptr; i = i->ifa_next) {
    if (auto a = EntryAddress(*i)) out.emplace_back(i->ifa_name ? i->ifa_name : "", *a);
  }
  ::freeifaddrs(list);
  return out;
}

bool UsableNextHop(const IpAddr& a) {
  if (a.is_v4()) return (a.v4_host_order() >> 24) != 127 && !a.is_zero();
  const uint64_t hi = a.hi64();
  if (hi == 0 && a.lo64() <= 1) return false;               // :: and ::1
  if ((hi >> 54) == (0xfe80ull >> 6)) return false;         // fe80::/10
  if (hi == 0 && (a.lo64() >> 32) == 0xffff) return false;  // ::ffff:0:0/96
  return true;
}

}  // namespace

bool IsLocalAddress(const IpAddr& addr) {
  if (addr.is_v4() && (addr.v4_host_order() >> 24) == 127) return true;
  for (const auto& [name, a] : InterfaceAddresses()) {
    if (a == addr) return true;
  }
  return false;
}

std::optional<IpAddr> InterfaceAddressOfFamily(const IpAddr& local, Family f) {
  const auto all = InterfaceAddresses();
  for (const auto& [name, a] : all) {
    if (a != local) continue;
    for (const auto& [other_name, b] : all) {
      if (other_name == name && b.family() == f && UsableNextHop(b)) return b;
    }
  }
  return std::nullopt;
}

}  // namespace strata::bgp
