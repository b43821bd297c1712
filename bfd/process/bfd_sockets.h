// BfdSockets: the UDP side of strata-bfd (RFC 5881 single hop, RFC 5883 multihop).
//
// Receiving: one socket per address family and kind, on UDP 3784 (single hop) and 4784
// (multihop), reading each datagram with its TTL / Hop Limit, destination address and incoming
// interface (IP_PKTINFO, IPV6_PKTINFO, IP_RECVTTL, IPV6_RECVHOPLIMIT), handed over as a
// ReceivedPacket. A VR other than the default gets sockets of its own bound to its VRF device
// (SO_BINDTODEVICE; the device is named after the VR), opened on its first session.
// Sending: one socket per session, bound to the session's local address (if any) and a source
// port of 49152 to 65535 unique among the sessions (RFC 5881 4), with TTL / Hop Limit 255 (GTSM),
// bound to the session's interface for single hop or to its VR's device; closed with the session.
// Ports are options so that tests run unprivileged on port 0 and point two instances at each
// other. Threading: the io_context thread.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bfd/session_table.h"
#include "common/log.h"
#include "common/status.h"

namespace strata::bfd {

class BfdSockets {
 public:
  struct Options {
    uint16_t single_hop_port = 3784;  // where we listen (0: any free port)
    uint16_t multihop_port = 4784;
    uint16_t peer_single_hop_port = 3784;  // where peers listen
    uint16_t peer_multihop_port = 4784;
  };
  using OnPacket = std::function<void(const ReceivedPacket&)>;

  BfdSockets(boost::asio::io_context& io, Options options, OnPacket on_packet);
  ~BfdSockets();

  // Opens the default VR's receive sockets (IPv6 ones only where the host has IPv6).
  Status Open();
  // Opens `vr`'s receive sockets if not open yet (bound to its VRF device).
  Status OpenVr(const std::string& vr);
  // Sends a session's packet to its peer, opening the session's socket on first use.
  Status Send(const SessionKey& key, std::span<const uint8_t> bytes);
  // The session is gone: its socket closes.
  void Forget(const SessionKey& key);

  // Where peers listen from now on (tests: another instance on port 0).
  void set_peer_ports(uint16_t single_hop, uint16_t multihop) {
    options_.peer_single_hop_port = single_hop;
    options_.peer_multihop_port = multihop;
  }
  // The ports actually bound (after Open), for tests on port 0.
  uint16_t single_hop_port() const { return bound_single_; }
  uint16_t multihop_port() const { return bound_multi_; }
  uint64_t send_errors() const { return send_errors_; }

 private:
  struct Receiver;
  Status OpenReceiver(const std::string& vr, bool v6, bool multihop, uint16_t port);
  void Read(Receiver& r);
  StatusOr<int> OpenSender(const SessionKey& key);

  boost::asio::io_context& io_;
  Options options_;
  OnPacket on_packet_;
  std::shared_ptr<spdlog::logger> log_;
  std::vector<std::unique_ptr<Receiver>> receivers_;
  std::map<std::string, bool> vrs_open_;
  std::map<SessionKey, std::unique_ptr<boost::asio::ip::udp::socket>> senders_;
  uint16_t next_port_;
  uint16_t bound_single_ = 0;
  uint16_t bound_multi_ = 0;
  uint64_t send_errors_ = 0;
};

}  // namespace strata::bfd
