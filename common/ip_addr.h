// IpAddr: an IPv4 or IPv6 address as one value type.
//
// One type covers both families so that interfaces, routes and stages are written once; code whose
// memory layout matters (the FIB) uses its own fixed-width keys instead. The bytes are kept in
// network order; an IPv4 address uses the first four. Thread-compatible value type.
#pragma once

#include <endian.h>

#include <array>
#include <compare>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "common/status.h"

namespace strata {

enum class Family : uint8_t { kIpv4 = 4, kIpv6 = 6 };

std::string_view FamilyName(Family f);  // "ipv4" / "ipv6"

class IpAddr {
 public:
  // The IPv4 address 0.0.0.0.
  IpAddr() = default;

  static IpAddr V4(uint32_t host_order);
  static IpAddr V6(const std::array<uint8_t, 16>& bytes);
  // 4 bytes make an IPv4 address, 16 an IPv6 one; any other size is an error.
  static StatusOr<IpAddr> FromBytes(std::span<const uint8_t> bytes);
  // Dotted quad or RFC 4291 text (no zone, no brackets).
  static StatusOr<IpAddr> Parse(std::string_view text);
  static IpAddr Zero(Family f);

  Family family() const { return family_; }
  bool is_v4() const { return family_ == Family::kIpv4; }
  bool is_v6() const { return family_ == Family::kIpv6; }
  // 32 or 128.
  int bit_length() const { return is_v4() ? 32 : 128; }
  size_t byte_length() const { return is_v4() ? 4 : 16; }
  std::span<const uint8_t> bytes() const { return {bytes_.data(), byte_length()}; }
  // REQUIRES: is_v4().
  uint32_t v4_host_order() const;
  // The high and low 64 bits of an IPv6 address (IPv4: the address in the top 32 bits of hi).
  // Inline: hashing and comparing prefixes in the BGP stages calls them per route.
  uint64_t hi64() const { return be64toh(raw64(0)); }
  uint64_t lo64() const { return be64toh(raw64(8)); }

  // Bit i counted from the most significant; REQUIRES: 0 <= i < bit_length().
  bool bit(int i) const { return (bytes_[i >> 3] >> (7 - (i & 7))) & 1; }
  // This address with every bit from `len` on cleared. REQUIRES: 0 <= len <= bit_length().
  IpAddr Masked(int len) const;
  // This address with bit i set to v.
  IpAddr WithBit(int i, bool v) const;
  bool is_zero() const;

  std::string ToString() const;

  friend bool operator==(const IpAddr& a, const IpAddr& b) {
    return a.raw64(0) == b.raw64(0) && a.raw64(8) == b.raw64(8) && a.family_ == b.family_;
  }
  // Family, then the bytes in network order (compared as two host-order words).
  friend std::strong_ordering operator<=>(const IpAddr& a, const IpAddr& b) {
    if (a.family_ != b.family_) return a.family_ <=> b.family_;
    if (auto c = a.hi64() <=> b.hi64(); c != 0) return c;
    return a.lo64() <=> b.lo64();
  }

 private:
  // Eight bytes from `at` as stored (network order), without a byte swap.
  uint64_t raw64(size_t at) const {
    uint64_t v;
    std::memcpy(&v, bytes_.data() + at, sizeof v);
    return v;
  }

  std::array<uint8_t, 16> bytes_{};
  Family family_ = Family::kIpv4;
};

// The finalizer of MurmurHash3 (fmix64): every input bit reaches every output bit, so hash tables
// that use the low bits (absl) or a prime modulus (std) both spread addresses that differ only in
// a few high bits, as IPv4 prefixes do.
inline uint64_t HashMix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

// The two words of an address and a small tag (family, prefix length) folded into one word before
// mixing; an IPv4 address leaves the low 32 bits of hi64 free for the tag.
inline uint64_t HashAddr(const IpAddr& a, uint64_t tag) {
  return HashMix64(a.hi64() ^ (a.lo64() * 0x9E3779B97F4A7C15ULL) ^ tag);
}

}  // namespace strata

template <>
struct std::hash<strata::IpAddr> {
  size_t operator()(const strata::IpAddr& a) const noexcept {
    return static_cast<size_t>(strata::HashAddr(a, static_cast<uint64_t>(a.family())));
  }
};
