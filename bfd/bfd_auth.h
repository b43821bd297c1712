// BfdAuth: one session's authentication (RFC 5880 6.7): signs the packets it sends and checks
// those it receives, keeping the sequence numbers of the keyed types.
//
// Simple password (6.7.2), keyed and meticulous keyed MD5 (6.7.3) and SHA1 (6.7.4), with one key
// per session. A keyed digest is computed over the whole packet with the key, zero-padded to the
// digest's size, in the digest field. The receive sequence window is 3 x Detect Mult wide;
// meticulous types require a strictly increasing sequence. The sequence sent starts at a random
// value and increases by one per packet (for the non-meticulous types too, which is allowed).
// Threading: single-threaded.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bfd/control_packet.h"
#include "common/status.h"

namespace strata::bfd {

struct AuthConfig {
  AuthType type = AuthType::kNone;
  uint8_t key_id = 1;
  std::string secret;  // 1..16 bytes for simple password and MD5, 1..20 for SHA1

  bool operator==(const AuthConfig&) const = default;
};
// OK if `c` can be used (key length for its type).
Status CheckAuthConfig(const AuthConfig& c);

class BfdAuth {
 public:
  explicit BfdAuth(AuthConfig config, uint32_t first_sequence = 1);

  const AuthConfig& config() const { return config_; }
  // The bytes of `p`, with the authentication section filled in when the session has one.
  std::vector<uint8_t> Sign(ControlPacket p);
  // OK if `p` (decoded from `bytes`) passes the session's authentication; the error says why
  // not. A packet that passes advances the receive sequence.
  Status Verify(const ControlPacket& p, std::span<const uint8_t> bytes);
  // No valid packet for a Detection Time: the next sequence number is accepted as it comes
  // (bfd.AuthSeqKnown = 0).
  void ForgetSequence() { seq_known_ = false; }

 private:
  // The digest of `bytes` with the digest field (its last `size` bytes) holding the key.
  std::vector<uint8_t> Digest(std::span<const uint8_t> bytes) const;
  size_t digest_size() const;
  bool meticulous() const;

  AuthConfig config_;
  uint32_t xmit_seq_;
  uint32_t rcv_seq_ = 0;
  bool seq_known_ = false;
};

}  // namespace strata::bfd
