// BgpListener: the passive side shared by every peer of a BGP instance: accepts on one or more
// local endpoints (normally port 179 on IPv4 and IPv6) and hands each connection to the peer
// registered for its remote address; a connection from an unknown address is closed at once.
// Listening sockets send with TTL 255 (the SYN-ACK of a GTSM session) and hold the MD5 keys of
// the peers that have one.
//
// Threading: the io_context thread only. A registered accept function must stay valid until it
// is removed or the listener is destroyed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/asio.h"
#include "common/ip_addr.h"
#include "common/status.h"

namespace strata::bgp {

class BgpListener {
 public:
  using tcp = boost::asio::ip::tcp;
  using AcceptFn = std::function<void(tcp::socket)>;

  // Listens on every endpoint (port 0 picks a free port; see endpoints()). A non-empty `device`
  // binds every listening socket to it (SO_BINDTODEVICE): with a VRF device, only connections
  // that arrive in that VRF are seen, and listeners of other VRFs can take the same port.
  static StatusOr<std::unique_ptr<BgpListener>> Open(boost::asio::io_context& io,
                                                     const std::vector<tcp::endpoint>& endpoints,
                                                     const std::string& device = "");
  // Listens on the any address of both families on one port (port 0: one free port, the same
  // for both). A host without IPv6 (no IPv6 socket, or no IPv6 address to bind) gets the IPv4
  // listener alone, with a log line; IPv4 is required.
  static StatusOr<std::unique_ptr<BgpListener>> OpenDualStack(boost::asio::io_context& io,
                                                              uint16_t port,
                                                              const std::string& device = "");
  ~BgpListener();

  // The bound endpoints, in the order given to Open.
  std::vector<tcp::endpoint> endpoints() const;
  // Replaces any function registered for `remote`. A non-empty `md5_key` is installed as the
  // RFC 2385 key for `remote` on every listening socket that can take its family (an empty one
  // removes an earlier key); fails, registering nothing, when the kernel refuses the key.
  Status AddPeer(const IpAddr& remote, AcceptFn accept, std::string_view md5_key = {});
  // Also removes the peer's MD5 key.
  void RemovePeer(const IpAddr& remote);

  // Connections closed because no peer was registered for their address.
  uint64_t rejected() const { return rejected_; }

 private:
  BgpListener(boost::asio::io_context& io, std::string device)
      : io_(io), device_(std::move(device)) {}
  // Opens, binds and listens on `ep` and keeps the acceptor; the error code of the first step
  // that failed, with nothing kept.
  boost::system::error_code Listen(const tcp::endpoint& ep);
  void StartAccepting();
  void Accept(size_t index);

  boost::asio::io_context& io_;
  const std::string device_;
  std::vector<std::unique_ptr<tcp::acceptor>> acceptors_;
  Status SetKey(const IpAddr& remote, std::string_view key);

  std::unordered_map<IpAddr, AcceptFn> peers_;
  std::unordered_map<IpAddr, std::string> keys_;  // peers with an MD5 key
  uint64_t rejected_ = 0;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::bgp
