// Socket options for session safety on Linux: TCP MD5 signatures (RFC 2385, TCP_MD5SIG) keyed
// by the peer's address, and the minimum TTL / hop limit of received packets (RFC 5082 GTSM,
// IP_MINTTL / IPV6_MINHOPCOUNT). Plain functions on a socket descriptor, used by TcpConnection
// (connecting sockets, before connect()) and BgpListener (listening sockets, per peer address).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/asio.h"
#include "common/status.h"

namespace strata::bgp {

// RFC 2385 keys are at most this long (the kernel's TCP_MD5SIG_MAXKEYLEN).
inline constexpr size_t kMaxMd5KeyLength = 80;

// Installs `key` for segments to and from `peer` on socket `fd` of family `v6_socket` (an IPv4
// peer on an IPv6 socket is keyed by its mapped address); an empty key removes the peer's key.
Status SetTcpMd5Key(int fd, bool v6_socket, const boost::asio::ip::address& peer,
                    std::string_view key);

// SO_BINDTODEVICE: the socket sends and receives through `device` only; a VRF device puts it
// in that VRF (its routes, its addresses, its port space). "" unbinds.
Status BindToDevice(int fd, const std::string& device);

// Drops received packets whose TTL (IPv4) or hop limit (IPv6) is below `min_ttl`; 0 turns the
// check off.
Status SetMinTtl(int fd, bool v6_socket, uint8_t min_ttl);

// The socket's minimum TTL as the kernel holds it (for tests).
StatusOr<int> GetMinTtl(int fd, bool v6_socket);

}  // namespace strata::bgp
