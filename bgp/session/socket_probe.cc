#include "bgp/session/socket_probe.h"

#include <ifaddrs.h>
#include <netinet/in.h>

#include <span>

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

bool IsLocalAddress(const IpAddr& addr) {
  if (addr.is_v4() && (addr.v4_host_order() >> 24) == 127) return true;
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return false;
  bool found = false;
  for (const ifaddrs* i = list; i != nullptr && !found; i = i->ifa_next) {
    if (i->ifa_addr == nullptr) continue;
    std::span<const uint8_t> bytes;
    if (i->ifa_addr->sa_family == AF_INET && addr.is_v4()) {
      const auto* sin = reinterpret_cast<const sockaddr_in*>(i->ifa_addr);
      bytes = {reinterpret_cast<const uint8_t*>(&sin->sin_addr), 4};
    } else if (i->ifa_addr->sa_family == AF_INET6 && addr.is_v6()) {
      const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(i->ifa_addr);
      bytes = {reinterpret_cast<const uint8_t*>(&sin6->sin6_addr), 16};
    } else {
      continue;
    }
    found = std::equal(bytes.begin(), bytes.end(), addr.bytes().begin(), addr.bytes().end());
  }
  ::freeifaddrs(list);
  return found;
}

}  // namespace strata::bgp
