// ControlPacket: the BFD Control packet (RFC 5880 4.1, with the authentication section of 4.2
// to 4.4), decoded from and encoded to the UDP payload of RFC 5881 / 5883.
//
// Decode applies the reception checks of RFC 5880 6.8.6 that need no session state (version,
// length, detect multiplier, multipoint bit, discriminators); it returns an error naming the
// check for a packet to discard. Authentication is checked by the session (bfd_auth.h), which
// knows the key and the sequence numbers. Threading: plain values and functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/status.h"

namespace strata::bfd {

// RFC 5880 4.1 "Sta".
enum class SessionState : uint8_t { kAdminDown = 0, kDown = 1, kInit = 2, kUp = 3 };
const char* StateName(SessionState s);

// RFC 5880 4.1 "Diag".
enum class Diag : uint8_t {
  kNone = 0,
  kDetectionTimeExpired = 1,
  kEchoFailed = 2,
  kNeighborDown = 3,
  kForwardingPlaneReset = 4,
  kPathDown = 5,
  kConcatenatedPathDown = 6,
  kAdminDown = 7,
  kReverseConcatenatedPathDown = 8,
};
const char* DiagName(Diag d);

// RFC 5880 4.1 "Auth Type".
enum class AuthType : uint8_t {
  kNone = 0,
  kSimplePassword = 1,
  kKeyedMd5 = 2,
  kMeticulousKeyedMd5 = 3,
  kKeyedSha1 = 4,
  kMeticulousKeyedSha1 = 5,
};
const char* AuthTypeName(AuthType t);

struct AuthSection {
  AuthType type = AuthType::kNone;
  uint8_t key_id = 0;
  uint32_t sequence = 0;       // the keyed types
  std::vector<uint8_t> value;  // the password, or the digest (16 bytes MD5, 20 SHA1)
};

struct ControlPacket {
  static constexpr uint8_t kVersion = 1;
  static constexpr size_t kMandatoryLength = 24;

  Diag diag = Diag::kNone;
  SessionState state = SessionState::kDown;
  bool poll = false;
  bool final = false;
  bool control_plane_independent = false;
  bool demand = false;
  uint8_t detect_mult = 3;
  uint32_t my_discriminator = 0;
  uint32_t your_discriminator = 0;
  uint32_t desired_min_tx_us = 0;
  uint32_t required_min_rx_us = 0;
  uint32_t required_min_echo_rx_us = 0;
  bool has_auth = false;  // the A bit
  AuthSection auth;

  std::string ToString() const;
};

// The packet's bytes; with has_auth, the authentication section as it is (a digest computed by
// bfd_auth.h over these bytes with the digest field holding the key).
std::vector<uint8_t> Encode(const ControlPacket& p);
// REQUIRES nothing of `bytes` (untrusted input). Errors name the failed check of RFC 5880 6.8.6.
StatusOr<ControlPacket> Decode(std::span<const uint8_t> bytes);

}  // namespace strata::bfd
