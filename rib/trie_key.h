// TrieKey: a prefix as RouteTrie stores it: the address as two 64-bit words in host order
// (IPv4 in the top 32 bits of hi), the length and the family; 18 bytes where IpPrefix takes 24,
// and containment is a few word operations instead of a byte-wise mask.
// Thread-compatible value type.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"

namespace strata::rib {

struct TrieKey {
  uint64_t hi = 0;
  uint64_t lo = 0;
  uint8_t len = 0;
  Family family = Family::kIpv4;

  static TrieKey Of(const IpPrefix& p) {
    return TrieKey{p.addr().hi64(), p.addr().lo64(), static_cast<uint8_t>(p.len()), p.family()};
  }
  // The host prefix of an address.
  static TrieKey Of(const IpAddr& a) {
    return TrieKey{a.hi64(), a.lo64(), static_cast<uint8_t>(a.bit_length()), a.family()};
  }

  IpPrefix prefix() const {
    if (family == Family::kIpv4) return IpPrefix(IpAddr::V4(static_cast<uint32_t>(hi >> 32)), len);
    std::array<uint8_t, 16> b{};
    for (int i = 0; i < 8; ++i) {
      b[i] = static_cast<uint8_t>(hi >> (56 - 8 * i));
      b[8 + i] = static_cast<uint8_t>(lo >> (56 - 8 * i));
    }
    return IpPrefix(IpAddr::V6(b), len);
  }
  int max_len() const { return family == Family::kIpv4 ? 32 : 128; }

  // Bit i counted from the most significant. REQUIRES: i < 128.
  bool bit(int i) const { return i < 64 ? (hi >> (63 - i)) & 1 : (lo >> (127 - i)) & 1; }

  // This key cut to n bits. REQUIRES: n <= len.
  TrieKey Masked(int n) const {
    return TrieKey{hi & Mask(n), lo & Mask(n - 64), static_cast<uint8_t>(n), family};
  }
  // True if k lies within this prefix (equal counts). REQUIRES: this key is masked.
  bool Contains(const TrieKey& k) const {
    return k.family == family && k.len >= len && (k.hi & Mask(len)) == hi &&
           (k.lo & Mask(len - 64)) == lo;
  }
  // The length of the longest prefix of both. REQUIRES: same family.
  static int Common(const TrieKey& a, const TrieKey& b) {
    const int max = std::min(a.len, b.len);
    int n = 0;
    if (a.hi != b.hi) {
      n = std::countl_zero(a.hi ^ b.hi);
    } else {
      n = 64 + (a.lo != b.lo ? std::countl_zero(a.lo ^ b.lo) : 64);
    }
    return std::min(n, max);
  }

  friend bool operator==(const TrieKey&, const TrieKey&) = default;

 private:
  // The top n bits of a word set (n <= 0: none, n >= 64: all).
  static uint64_t Mask(int n) {
    if (n <= 0) return 0;
    if (n >= 64) return ~uint64_t{0};
    return ~(~uint64_t{0} >> n);
  }
};

}  // namespace strata::rib
