// OpenMessage: the BGP OPEN message (RFC 4271 4.2) with its capabilities (RFC 5492), extended
// optional parameters length (RFC 9072) and the checks of RFC 4271 6.2 and RFC 6793.
//
// Decoding checks only what the message alone can show (syntax, version); ValidateOpen then
// checks it against what the local speaker expects. Thread-compatible value type.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bgp/wire/capabilities.h"
#include "bgp/wire/wire_result.h"
#include "common/ip_addr.h"

namespace strata::bgp {

struct OpenMessage {
  uint8_t version = kBgpVersion;
  uint16_t my_as = 0;  // AS_TRANS when the real AS needs 4 octets
  uint16_t hold_time = 0;
  IpAddr bgp_id;  // IPv4
  Capabilities caps;

  // An OPEN for `asn`: my_as is AS_TRANS past 65535 and the 4-octet AS capability is set.
  static OpenMessage Make(uint32_t asn, uint16_t hold_time, IpAddr bgp_id, Capabilities caps);
  // The sender's AS: the 4-octet AS capability if present, else my_as.
  uint32_t PeerAs() const { return caps.four_octet_as.value_or(my_as); }
  std::string ToString() const;
  friend bool operator==(const OpenMessage&, const OpenMessage&) = default;
};

// The whole message. Optional parameters longer than 255 bytes use the RFC 9072 format.
std::vector<uint8_t> EncodeOpen(const OpenMessage& open);
// Decodes the body after the header. Errors: Unsupported Version Number (data: version 4),
// Unsupported Optional Parameter (a parameter other than capabilities), Unspecific (lengths).
WireResult<OpenMessage> DecodeOpenBody(std::span<const uint8_t> body);

struct OpenExpectations {
  uint32_t peer_as = 0;  // 0 accepts any AS
  IpAddr local_bgp_id;   // an internal peer may not use ours
  bool peer_is_internal = false;
};

// Checks a decoded OPEN: hold time 0 or >= 3 (Unacceptable Hold Time), a non-zero identifier
// different from ours on internal sessions (Bad BGP Identifier), a non-zero AS that agrees with
// the 4-octet AS capability and the expected AS (Bad Peer AS). nullopt when acceptable.
std::optional<NotificationMessage> ValidateOpen(const OpenMessage& open,
                                                const OpenExpectations& expect);

}  // namespace strata::bgp
