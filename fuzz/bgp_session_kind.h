// The BGP harness's session kinds: the first input byte picks the CodecOptions a message is
// decoded with, so one corpus covers all twelve kinds (4-octet AS on/off, extended messages
// on/off, internal / confederation-external / external) and loopback peers.
#pragma once

#include <cstdint>

#include "bgp/wire/codec_options.h"

namespace strata::fuzz {

inline bgp::CodecOptions SessionKind(uint8_t b) {
  bgp::CodecOptions o;
  o.four_octet_as = (b & 1) != 0;
  o.extended_message = (b & 2) != 0;
  o.peer_type = static_cast<bgp::PeerType>(((b >> 2) & 3) % 3);
  o.peer_on_loopback = (b & 16) != 0;
  return o;
}

// The byte that SessionKind maps to `o`.
inline uint8_t SessionKindByte(const bgp::CodecOptions& o) {
  return static_cast<uint8_t>((o.four_octet_as ? 1 : 0) | (o.extended_message ? 2 : 0) |
                              static_cast<uint8_t>(o.peer_type) << 2 |
                              (o.peer_on_loopback ? 16 : 0));
}

}  // namespace strata::fuzz
