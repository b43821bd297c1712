#include "bfd/control_packet.h"

#include <fmt/format.h>

namespace strata::bfd {

namespace {

void Put32(std::vector<uint8_t>& out, uint32_t v) {
  out.push_back(static_cast<uint8_t>(v >> 24));
  out.push_back(static_cast<uint8_t>(v >> 16));
  out.push_back(static_cast<uint8_t>(v >> 8));
  out.push_back(static_cast<uint8_t>(v));
}

uint32_t Get32(std::span<const uint8_t> b, size_t at) {
  return (uint32_t{b[at]} << 24) | (uint32_t{b[at + 1]} << 16) | (uint32_t{b[at + 2]} << 8) |
         uint32_t{b[at + 3]};
}

// The Auth Len a keyed type must carry (RFC 5880 4.3, 4.4); 0 for the others.
size_t KeyedAuthLength(AuthType t) {
  switch (t) {
    case AuthType::kKeyedMd5:
    case AuthType::kMeticulousKeyedMd5:
      return 24;
    case AuthType::kKeyedSha1:
    case AuthType::kMeticulousKeyedSha1:
      return 28;
    default:
      return 0;
  }
}

StatusOr<AuthSection> DecodeAuth(std::span<const uint8_t> a) {
  // a: the section, Auth Len bytes (at least 2, checked by the caller).
  AuthSection auth;
  auth.type = static_cast<AuthType>(a[0]);
  const size_t len = a[1];
  if (auth.type == AuthType::kSimplePassword) {
    // Key ID and a password of 1 to 16 bytes (RFC 5880 4.2).
    if (len < 4 || len > 19) {
      return InvalidArgument(fmt::format("simple password Auth Len {} not in 4..19", len));
    }
    auth.key_id = a[2];
    auth.value.assign(a.begin() + 3, a.begin() + len);
    return auth;
  }
  const size_t want = KeyedAuthLength(auth.type);
  if (want == 0) return InvalidArgument(fmt::format("unknown Auth Type {}", a[0]));
  if (len != want) {
    return InvalidArgument(
        fmt::format("{} Auth Len {} (must be {})", AuthTypeName(auth.type), len, want));
  }
  auth.key_id = a[2];
  auth.sequence = Get32(a, 4);
  auth.value.assign(a.begin() + 8, a.begin() + len);
  return auth;
}

}  // namespace

const char* StateName(SessionState s) {
  switch (s) {
    case SessionState::kAdminDown:
      return "AdminDown";
    case SessionState::kDown:
      return "Down";
    case SessionState::kInit:
      return "Init";
    case SessionState::kUp:
      return "Up";
  }
  return "?";
}

const char* DiagName(Diag d) {
  switch (d) {
    case Diag::kNone:
      return "none";
    case Diag::kDetectionTimeExpired:
      return "control detection time expired";
    case Diag::kEchoFailed:
      return "echo function failed";
    case Diag::kNeighborDown:
      return "neighbor signaled session down";
    case Diag::kForwardingPlaneReset:
      return "forwarding plane reset";
    case Diag::kPathDown:
      return "path down";
    case Diag::kConcatenatedPathDown:
      return "concatenated path down";
    case Diag::kAdminDown:
      return "administratively down";
    case Diag::kReverseConcatenatedPathDown:
      return "reverse concatenated path down";
  }
  return "unknown";
}

const char* AuthTypeName(AuthType t) {
  switch (t) {
    case AuthType::kNone:
      return "none";
    case AuthType::kSimplePassword:
      return "simple password";
    case AuthType::kKeyedMd5:
      return "keyed MD5";
    case AuthType::kMeticulousKeyedMd5:
      return "meticulous keyed MD5";
    case AuthType::kKeyedSha1:
      return "keyed SHA1";
    case AuthType::kMeticulousKeyedSha1:
      return "meticulous keyed SHA1";
  }
  return "unknown";
}

std::string ControlPacket::ToString() const {
  return fmt::format("state {} diag {}{}{}{} mult {} my {} your {} tx {}us rx {}us echo {}us{}",
                     StateName(state), static_cast<int>(diag), poll ? " P" : "", final ? " F" : "",
                     demand ? " D" : "", detect_mult, my_discriminator, your_discriminator,
                     desired_min_tx_us, required_min_rx_us, required_min_echo_rx_us,
                     has_auth ? fmt::format(" auth {}", AuthTypeName(auth.type)) : "");
}

std::vector<uint8_t> Encode(const ControlPacket& p) {
  std::vector<uint8_t> out;
  out.reserve(ControlPacket::kMandatoryLength + 28);
  out.push_back(
      static_cast<uint8_t>(ControlPacket::kVersion << 5 | (static_cast<uint8_t>(p.diag) & 0x1f)));
  out.push_back(static_cast<uint8_t>(
      static_cast<uint8_t>(p.state) << 6 | (p.poll ? 0x20 : 0) | (p.final ? 0x10 : 0) |
      (p.control_plane_independent ? 0x08 : 0) | (p.has_auth ? 0x04 : 0) | (p.demand ? 0x02 : 0)));
  out.push_back(p.detect_mult);
  out.push_back(0);  // length, set below
  Put32(out, p.my_discriminator);
  Put32(out, p.your_discriminator);
  Put32(out, p.desired_min_tx_us);
  Put32(out, p.required_min_rx_us);
  Put32(out, p.required_min_echo_rx_us);
  if (p.has_auth) {
    const AuthSection& a = p.auth;
    out.push_back(static_cast<uint8_t>(a.type));
    if (a.type == AuthType::kSimplePassword) {
      out.push_back(static_cast<uint8_t>(3 + a.value.size()));
      out.push_back(a.key_id);
    } else {
      out.push_back(static_cast<uint8_t>(8 + a.value.size()));
      out.push_back(a.key_id);
      out.push_back(0);
      Put32(out, a.sequence);
    }
    out.insert(out.end(), a.value.begin(), a.value.end());
  }
  out[3] = static_cast<uint8_t>(out.size());
  return out;
}

StatusOr<ControlPacket> Decode(std::span<const uint8_t> b) {
  if (b.size() < ControlPacket::kMandatoryLength) {
    return InvalidArgument(fmt::format("{} bytes, shorter than a control packet", b.size()));
  }
  ControlPacket p;
  const uint8_t version = b[0] >> 5;
  if (version != ControlPacket::kVersion) {
    return InvalidArgument(fmt::format("version {}", version));
  }
  p.diag = static_cast<Diag>(b[0] & 0x1f);
  p.state = static_cast<SessionState>(b[1] >> 6);
  p.poll = b[1] & 0x20;
  p.final = b[1] & 0x10;
  p.control_plane_independent = b[1] & 0x08;
  p.has_auth = b[1] & 0x04;
  p.demand = b[1] & 0x02;
  const bool multipoint = b[1] & 0x01;
  p.detect_mult = b[2];
  const size_t length = b[3];
  if (length < ControlPacket::kMandatoryLength + (p.has_auth ? 2 : 0)) {
    return InvalidArgument(fmt::format("Length {} too small", length));
  }
  if (length > b.size()) {
    return InvalidArgument(fmt::format("Length {} beyond the {}-byte payload", length, b.size()));
  }
  if (p.detect_mult == 0) return InvalidArgument("Detect Mult zero");
  if (multipoint) return InvalidArgument("Multipoint bit set");
  p.my_discriminator = Get32(b, 4);
  p.your_discriminator = Get32(b, 8);
  p.desired_min_tx_us = Get32(b, 12);
  p.required_min_rx_us = Get32(b, 16);
  p.required_min_echo_rx_us = Get32(b, 20);
  if (p.my_discriminator == 0) return InvalidArgument("My Discriminator zero");
  if (p.your_discriminator == 0 && p.state != SessionState::kDown &&
      p.state != SessionState::kAdminDown) {
    return InvalidArgument(fmt::format("Your Discriminator zero in state {}", StateName(p.state)));
  }
  if (p.has_auth) {
    const size_t auth_len = b[ControlPacket::kMandatoryLength + 1];
    if (ControlPacket::kMandatoryLength + auth_len != length || auth_len < 2) {
      return InvalidArgument(fmt::format("Auth Len {} does not fill Length {}", auth_len, length));
    }
    auto auth = DecodeAuth(b.subspan(ControlPacket::kMandatoryLength, auth_len));
    if (!auth.ok()) return auth.status();
    p.auth = std::move(*auth);
  }
  return p;
}

}  // namespace strata::bfd
