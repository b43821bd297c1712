#include "bgp/session/socket_security.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace strata::bgp {
namespace {

std::string Errno() { return std::strerror(errno); }

}  // namespace

Status SetTcpMd5Key(int fd, bool v6_socket, const boost::asio::ip::address& peer,
                    std::string_view key) {
  if (key.size() > kMaxMd5KeyLength) {
    return InvalidArgument("MD5 key longer than " + std::to_string(kMaxMd5KeyLength) + " bytes");
  }
  struct tcp_md5sig sig;
  std::memset(&sig, 0, sizeof(sig));
  if (v6_socket) {
    auto* sa = reinterpret_cast<sockaddr_in6*>(&sig.tcpm_addr);
    sa->sin6_family = AF_INET6;
    const auto v6 = peer.is_v4()
                        ? boost::asio::ip::make_address_v6(boost::asio::ip::v4_mapped, peer.to_v4())
                        : peer.to_v6();
    const auto bytes = v6.to_bytes();
    std::memcpy(&sa->sin6_addr, bytes.data(), bytes.size());
  } else {
    if (!peer.is_v4()) return InvalidArgument("IPv6 peer on an IPv4 socket");
    auto* sa = reinterpret_cast<sockaddr_in*>(&sig.tcpm_addr);
    sa->sin_family = AF_INET;
    const auto bytes = peer.to_v4().to_bytes();
    std::memcpy(&sa->sin_addr, bytes.data(), bytes.size());
  }
  sig.tcpm_keylen = static_cast<uint16_t>(key.size());
  if (!key.empty()) std::memcpy(sig.tcpm_key, key.data(), key.size());  // data() may be null
  if (setsockopt(fd, IPPROTO_TCP, TCP_MD5SIG, &sig, sizeof(sig)) != 0) {
    // Removing a key that is not there is not an error.
    if (key.empty() && errno == ENOENT) return Status::Ok();
    return Internal("TCP_MD5SIG for " + peer.to_string() + ": " + Errno());
  }
  return Status::Ok();
}

Status BindToDevice(int fd, const std::string& device) {
  if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, device.c_str(),
                 static_cast<socklen_t>(device.size())) != 0) {
    return Unavailable("SO_BINDTODEVICE " + device + ": " + Errno());
  }
  return Status::Ok();
}

Status SetMinTtl(int fd, bool v6_socket, uint8_t min_ttl) {
  const int value = min_ttl;
  const int rc = v6_socket ? setsockopt(fd, IPPROTO_IPV6, IPV6_MINHOPCOUNT, &value, sizeof(value))
                           : setsockopt(fd, IPPROTO_IP, IP_MINTTL, &value, sizeof(value));
  if (rc != 0) {
    return Internal(std::string(v6_socket ? "IPV6_MINHOPCOUNT" : "IP_MINTTL") + ": " + Errno());
  }
  return Status::Ok();
}

StatusOr<int> GetMinTtl(int fd, bool v6_socket) {
  int value = 0;
  socklen_t len = sizeof(value);
  const int rc = v6_socket ? getsockopt(fd, IPPROTO_IPV6, IPV6_MINHOPCOUNT, &value, &len)
                           : getsockopt(fd, IPPROTO_IP, IP_MINTTL, &value, &len);
  if (rc != 0) return Internal("get minimum TTL: " + Errno());
  return value;
}

}  // namespace strata::bgp
