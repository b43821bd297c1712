// OpenNegotiator: the OPEN exchange of one peer: the OPEN we send (from PeerConfig) and the
// checks a received OPEN must pass before the session may proceed (RFC 4271 6.2, RFC 5492,
// RFC 6793), ending in the wire codec's Negotiate().
//
// Unknown capabilities are ignored (RFC 5492 5). A capability listed in
// PeerConfig::required_capabilities that the peer did not advertise, or no address family in
// common, is refused with OPEN Message Error / Unsupported Capability, whose data lists our
// encoding of the missing capabilities (RFC 5492 5). Thread-compatible.
#pragma once

#include <chrono>
#include <cstdint>

#include "bgp/session/peer_config.h"
#include "bgp/wire/codec_options.h"
#include "bgp/wire/open_message.h"
#include "bgp/wire/wire_result.h"

namespace strata::bgp {

class OpenNegotiator {
 public:
  explicit OpenNegotiator(const PeerConfig& config);

  const OpenMessage& local_open() const { return local_open_; }
  // The checked and negotiated session, or the NOTIFICATION to send.
  WireResult<NegotiatedSession> Accept(const OpenMessage& remote) const;
  // The keepalive interval for a negotiated hold time: the configured keepalive capped at a
  // third of the hold time; zero (no keepalives) when the hold time is zero.
  std::chrono::seconds KeepaliveInterval(uint16_t negotiated_hold_time) const;

 private:
  // Our encoding of the capability `code`, for the data of Unsupported Capability.
  void AppendLocalCapability(CapabilityCode code, std::vector<uint8_t>& out) const;

  PeerConfig config_;
  OpenMessage local_open_;
};

}  // namespace strata::bgp
