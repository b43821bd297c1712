#include "common/ip_addr.h"

#include <arpa/inet.h>
#include <endian.h>

#include <algorithm>
#include <cstring>

#include "common/parse_error.h"

namespace strata {

std::string_view FamilyName(Family f) { return f == Family::kIpv4 ? "ipv4" : "ipv6"; }

IpAddr IpAddr::V4(uint32_t host_order) {
  IpAddr a;
  a.family_ = Family::kIpv4;
  a.bytes_[0] = static_cast<uint8_t>(host_order >> 24);
  a.bytes_[1] = static_cast<uint8_t>(host_order >> 16);
  a.bytes_[2] = static_cast<uint8_t>(host_order >> 8);
  a.bytes_[3] = static_cast<uint8_t>(host_order);
  return a;
}

IpAddr IpAddr::V6(const std::array<uint8_t, 16>& bytes) {
  IpAddr a;
  a.family_ = Family::kIpv6;
  a.bytes_ = bytes;
  return a;
}

StatusOr<IpAddr> IpAddr::FromBytes(std::span<const uint8_t> bytes) {
  IpAddr a;
  if (bytes.size() == 4) {
    a.family_ = Family::kIpv4;
  } else if (bytes.size() == 16) {
    a.family_ = Family::kIpv6;
  } else {
    return InvalidArgument("an address has 4 or 16 bytes, not " + std::to_string(bytes.size()));
  }
  std::copy(bytes.begin(), bytes.end(), a.bytes_.begin());
  return a;
}

StatusOr<IpAddr> IpAddr::Parse(std::string_view text) {
  char buf[INET6_ADDRSTRLEN + 1];
  if (text.empty() || text.size() >= sizeof(buf)) return InvalidValue(text, "is not an IP address");
  std::memcpy(buf, text.data(), text.size());
  buf[text.size()] = '\0';
  IpAddr a;
  if (text.find(':') == std::string_view::npos) {
    a.family_ = Family::kIpv4;
    if (inet_pton(AF_INET, buf, a.bytes_.data()) == 1) return a;
    return InvalidValue(text, "is not an IPv4 address");
  }
  a.family_ = Family::kIpv6;
  if (inet_pton(AF_INET6, buf, a.bytes_.data()) == 1) return a;
  return InvalidValue(text, "is not an IPv6 address");
}

IpAddr IpAddr::Zero(Family f) {
  IpAddr a;
  a.family_ = f;
  return a;
}

uint32_t IpAddr::v4_host_order() const {
  return (uint32_t{bytes_[0]} << 24) | (uint32_t{bytes_[1]} << 16) | (uint32_t{bytes_[2]} << 8) |
         uint32_t{bytes_[3]};
}

IpAddr IpAddr::Masked(int len) const {
  IpAddr a = *this;
  const int total = static_cast<int>(byte_length());
  for (int i = 0; i < total; ++i) {
    const int keep = len - i * 8;
    if (keep >= 8) continue;
    a.bytes_[i] = keep <= 0 ? 0 : static_cast<uint8_t>(a.bytes_[i] & (0xFF << (8 - keep)));
  }
  return a;
}

IpAddr IpAddr::WithBit(int i, bool v) const {
  IpAddr a = *this;
  const uint8_t m = static_cast<uint8_t>(0x80 >> (i & 7));
  if (v) {
    a.bytes_[i >> 3] |= m;
  } else {
    a.bytes_[i >> 3] &= static_cast<uint8_t>(~m);
  }
  return a;
}

bool IpAddr::is_zero() const {
  return std::all_of(bytes_.begin(), bytes_.end(), [](uint8_t b) { return b == 0; });
}

std::string IpAddr::ToString() const {
  char buf[INET6_ADDRSTRLEN];
  inet_ntop(is_v4() ? AF_INET : AF_INET6, bytes_.data(), buf, sizeof(buf));
  return buf;
}

}  // namespace strata
