// FibKey: fixed-width lookup keys for the multi-VR FIB (IPv4: uint32_t, IPv6: unsigned __int128).
//
// The FIB is templated on the key so that its node walk compiles to shifts on one machine word
// (or two for IPv6); IpAddr/IpPrefix are converted at the API boundary only. All helpers are pure
// functions; thread-safe.
#pragma once

#include <cstdint>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"

namespace strata::fib {

__extension__ typedef unsigned __int128 Uint128;

template <typename Key>
struct KeyTraits;

template <>
struct KeyTraits<uint32_t> {
  static constexpr int kBits = 32;
  static constexpr Family kFamily = Family::kIpv4;
  static uint32_t FromAddr(const IpAddr& a) { return a.v4_host_order(); }
  static IpAddr ToAddr(uint32_t k) { return IpAddr::V4(k); }
};

template <>
struct KeyTraits<Uint128> {
  static constexpr int kBits = 128;
  static constexpr Family kFamily = Family::kIpv6;
  static Uint128 FromAddr(const IpAddr& a) {
    return (static_cast<Uint128>(a.hi64()) << 64) | a.lo64();
  }
  static IpAddr ToAddr(Uint128 k);
};

// The `len` leading bits of k, rest cleared. REQUIRES: 0 <= len <= kBits.
template <typename Key>
inline Key MaskKey(Key k, int len) {
  constexpr int kBits = KeyTraits<Key>::kBits;
  if (len <= 0) return 0;
  if (len >= kBits) return k;
  return k & ~((~Key{0}) >> len);
}

// Bit i of k, counted from the most significant. REQUIRES: 0 <= i < kBits.
template <typename Key>
inline int KeyBit(Key k, int i) {
  return static_cast<int>((k >> (KeyTraits<Key>::kBits - 1 - i)) & 1);
}

// The `n` bits of k starting at bit `pos`. REQUIRES: 0 <= n <= 31, pos + n <= kBits.
template <typename Key>
inline uint32_t KeyChunk(Key k, int pos, int n) {
  if (n == 0) return 0;
  return static_cast<uint32_t>(k >> (KeyTraits<Key>::kBits - pos - n)) & ((1u << n) - 1);
}

// KeyChunk() without its test of n (0 for n == 0 by the mask), for branch-free loops.
// REQUIRES: 0 <= n <= 31, pos + n <= kBits, pos + n >= 1.
template <typename Key>
inline uint32_t KeyChunkNz(Key k, int pos, int n) {
  return static_cast<uint32_t>(k >> (KeyTraits<Key>::kBits - pos - n)) & ((1u << n) - 1);
}

// k with bit i set. REQUIRES: 0 <= i < kBits.
template <typename Key>
inline Key KeyWithBit(Key k, int i) {
  return k | (Key{1} << (KeyTraits<Key>::kBits - 1 - i));
}

// The first address of the n-bit chunk value `c` placed at bit `pos` over base `k`.
template <typename Key>
inline Key KeyWithChunk(Key k, int pos, int n, uint32_t c) {
  if (n == 0) return k;
  return k | (static_cast<Key>(c) << (KeyTraits<Key>::kBits - pos - n));
}

inline IpAddr KeyTraits<Uint128>::ToAddr(Uint128 k) {
  std::array<uint8_t, 16> b{};
  for (int i = 0; i < 16; ++i) b[i] = static_cast<uint8_t>(k >> (120 - 8 * i));
  return IpAddr::V6(b);
}

}  // namespace strata::fib
