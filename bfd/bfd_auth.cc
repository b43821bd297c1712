#include "bfd/bfd_auth.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <algorithm>

namespace strata::bfd {

namespace {

bool IsMd5(AuthType t) { return t == AuthType::kKeyedMd5 || t == AuthType::kMeticulousKeyedMd5; }
bool IsSha1(AuthType t) { return t == AuthType::kKeyedSha1 || t == AuthType::kMeticulousKeyedSha1; }

// Detect Mult limits the window of acceptable sequence numbers (RFC 5880 6.7.3).
bool InWindow(uint32_t seq, uint32_t from, uint32_t width) {
  return static_cast<uint32_t>(seq - from) <= width;
}

}  // namespace

Status CheckAuthConfig(const AuthConfig& c) {
  if (c.type == AuthType::kNone) return Status::Ok();
  const size_t max = IsSha1(c.type) ? 20 : 16;
  if (c.secret.empty() || c.secret.size() > max) {
    return InvalidArgument(fmt::format("a {} key has 1 to {} bytes, not {}", AuthTypeName(c.type),
                                       max, c.secret.size()));
  }
  if (!IsMd5(c.type) && !IsSha1(c.type) && c.type != AuthType::kSimplePassword) {
    return InvalidArgument(fmt::format("unknown authentication type {}", static_cast<int>(c.type)));
  }
  return Status::Ok();
}

BfdAuth::BfdAuth(AuthConfig config, uint32_t first_sequence)
    : config_(std::move(config)), xmit_seq_(first_sequence) {}

size_t BfdAuth::digest_size() const { return IsSha1(config_.type) ? 20 : 16; }

bool BfdAuth::meticulous() const {
  return config_.type == AuthType::kMeticulousKeyedMd5 ||
         config_.type == AuthType::kMeticulousKeyedSha1;
}

std::vector<uint8_t> BfdAuth::Digest(std::span<const uint8_t> bytes) const {
  std::vector<uint8_t> in(bytes.begin(), bytes.end());
  const size_t n = digest_size();
  std::fill(in.end() - static_cast<ptrdiff_t>(n), in.end(), 0);
  std::copy(config_.secret.begin(), config_.secret.end(), in.end() - static_cast<ptrdiff_t>(n));
  std::vector<uint8_t> out(EVP_MAX_MD_SIZE);
  unsigned len = 0;
  EVP_Digest(in.data(), in.size(), out.data(), &len, IsSha1(config_.type) ? EVP_sha1() : EVP_md5(),
             nullptr);
  out.resize(len);
  return out;
}

std::vector<uint8_t> BfdAuth::Sign(ControlPacket p) {
  if (config_.type == AuthType::kNone) {
    p.has_auth = false;
    return Encode(p);
  }
  p.has_auth = true;
  p.auth.type = config_.type;
  p.auth.key_id = config_.key_id;
  if (config_.type == AuthType::kSimplePassword) {
    p.auth.value.assign(config_.secret.begin(), config_.secret.end());
    return Encode(p);
  }
  p.auth.sequence = xmit_seq_++;
  p.auth.value.assign(digest_size(), 0);
  std::vector<uint8_t> bytes = Encode(p);
  const std::vector<uint8_t> d = Digest(bytes);
  std::copy(d.begin(), d.end(), bytes.end() - static_cast<ptrdiff_t>(d.size()));
  return bytes;
}

Status BfdAuth::Verify(const ControlPacket& p, std::span<const uint8_t> bytes) {
  if (config_.type == AuthType::kNone) {
    if (p.has_auth) return PermissionDenied("authenticated packet, none configured");
    return Status::Ok();
  }
  if (!p.has_auth)
    return PermissionDenied("no authentication, " + std::string(AuthTypeName(config_.type)) +
                            " configured");
  if (p.auth.type != config_.type) {
    return PermissionDenied(fmt::format("authentication {}, {} configured",
                                        AuthTypeName(p.auth.type), AuthTypeName(config_.type)));
  }
  if (p.auth.key_id != config_.key_id) {
    return PermissionDenied(fmt::format("key id {}, {} configured", p.auth.key_id, config_.key_id));
  }
  if (config_.type == AuthType::kSimplePassword) {
    if (!std::equal(p.auth.value.begin(), p.auth.value.end(), config_.secret.begin(),
                    config_.secret.end())) {
      return PermissionDenied("wrong password");
    }
    return Status::Ok();
  }
  const uint32_t width = 3u * p.detect_mult;
  if (seq_known_) {
    const uint32_t from = meticulous() ? rcv_seq_ + 1 : rcv_seq_;
    if (!InWindow(p.auth.sequence, from, width - (meticulous() ? 1 : 0))) {
      return PermissionDenied(
          fmt::format("sequence {} outside [{}, {}]", p.auth.sequence, from, rcv_seq_ + width));
    }
  }
  const size_t length = bytes[3];
  const std::span<const uint8_t> packet = bytes.first(length);
  const std::vector<uint8_t> d = Digest(packet);
  if (!std::equal(d.begin(), d.end(), packet.end() - static_cast<ptrdiff_t>(d.size()))) {
    return PermissionDenied("wrong digest");
  }
  rcv_seq_ = p.auth.sequence;
  seq_known_ = true;
  return Status::Ok();
}

}  // namespace strata::bfd
