// TrieKey4 and TrieKey6: a prefix as RouteTrie stores it, one type per family.
//
// TrieKey4 is the IPv4 address as one 32-bit word and the length (trie nodes of 16 bytes, where
// a key wide enough for IPv6 made every IPv4 node 32); TrieKey6 is the address as two 64-bit
// words in host order and the length. Containment is a few word operations instead of a byte-wise
// mask. TrieNode<K> is the node layout for each (fields flat, so no padding inside the key).
// Thread-compatible value types.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"

namespace strata {

struct TrieKey4 {
  static constexpr Family kFamily = Family::kIpv4;
  // FamilyTrie's jump table indexes blocks of this many leading bits (family_trie.h).
  static constexpr int kJumpBits = 16;
  uint32_t addr = 0;
  uint8_t len = 0;

  // REQUIRES: an IPv4 prefix or address.
  static TrieKey4 Of(const IpPrefix& p) {
    return TrieKey4{static_cast<uint32_t>(p.addr().hi64() >> 32), static_cast<uint8_t>(p.len())};
  }
  // The host prefix of an address.
  static TrieKey4 Of(const IpAddr& a) {
    return TrieKey4{static_cast<uint32_t>(a.hi64() >> 32), 32};
  }
  IpPrefix prefix() const { return IpPrefix(IpAddr::V4(addr), len); }
  // The jump table's block of this key, and the block's own prefix. REQUIRES: len >= kJumpBits.
  uint32_t Block() const { return addr >> (32 - kJumpBits); }
  static TrieKey4 OfBlock(uint32_t b) {
    return TrieKey4{b << (32 - kJumpBits), static_cast<uint8_t>(kJumpBits)};
  }

  // Bit i counted from the most significant. REQUIRES: i < 32.
  bool bit(int i) const { return (addr >> (31 - i)) & 1; }
  // This key cut to n bits. REQUIRES: n <= len.
  TrieKey4 Masked(int n) const { return TrieKey4{addr & Mask(n), static_cast<uint8_t>(n)}; }
  // True if k lies within this prefix (equal counts). REQUIRES: this key is masked.
  bool Contains(const TrieKey4& k) const { return k.len >= len && (k.addr & Mask(len)) == addr; }
  // True if this key's address is lower than k's.
  bool AddrBelow(const TrieKey4& k) const { return addr < k.addr; }
  // The length of the longest prefix of both.
  static int Common(const TrieKey4& a, const TrieKey4& b) {
    const int n = a.addr == b.addr ? 32 : std::countl_zero(a.addr ^ b.addr);
    return std::min({n, static_cast<int>(a.len), static_cast<int>(b.len)});
  }
  friend bool operator==(const TrieKey4&, const TrieKey4&) = default;

 private:
  // The top n bits of a word set (n <= 0: none, n >= 32: all).
  static uint32_t Mask(int n) {
    if (n <= 0) return 0;
    if (n >= 32) return ~uint32_t{0};
    return ~(~uint32_t{0} >> n);
  }
};

struct TrieKey6 {
  static constexpr Family kFamily = Family::kIpv6;
  // No jump table: IPv6 tables are smaller and their prefixes share their first 16 bits.
  static constexpr int kJumpBits = 0;
  uint32_t Block() const { return 0; }
  static TrieKey6 OfBlock(uint32_t) { return TrieKey6{}; }
  uint64_t hi = 0;
  uint64_t lo = 0;
  uint8_t len = 0;

  // REQUIRES: an IPv6 prefix or address.
  static TrieKey6 Of(const IpPrefix& p) {
    return TrieKey6{p.addr().hi64(), p.addr().lo64(), static_cast<uint8_t>(p.len())};
  }
  static TrieKey6 Of(const IpAddr& a) { return TrieKey6{a.hi64(), a.lo64(), 128}; }
  IpPrefix prefix() const {
    std::array<uint8_t, 16> b{};
    for (int i = 0; i < 8; ++i) {
      b[i] = static_cast<uint8_t>(hi >> (56 - 8 * i));
      b[8 + i] = static_cast<uint8_t>(lo >> (56 - 8 * i));
    }
    return IpPrefix(IpAddr::V6(b), len);
  }

  // REQUIRES: i < 128.
  bool bit(int i) const { return i < 64 ? (hi >> (63 - i)) & 1 : (lo >> (127 - i)) & 1; }
  TrieKey6 Masked(int n) const {
    return TrieKey6{hi & Mask(n), lo & Mask(n - 64), static_cast<uint8_t>(n)};
  }
  bool Contains(const TrieKey6& k) const {
    return k.len >= len && (k.hi & Mask(len)) == hi && (k.lo & Mask(len - 64)) == lo;
  }
  bool AddrBelow(const TrieKey6& k) const { return hi < k.hi || (hi == k.hi && lo < k.lo); }
  static int Common(const TrieKey6& a, const TrieKey6& b) {
    int n = 0;
    if (a.hi != b.hi) {
      n = std::countl_zero(a.hi ^ b.hi);
    } else {
      n = 64 + (a.lo != b.lo ? std::countl_zero(a.lo ^ b.lo) : 64);
    }
    return std::min({n, static_cast<int>(a.len), static_cast<int>(b.len)});
  }
  friend bool operator==(const TrieKey6&, const TrieKey6&) = default;

 private:
  static uint64_t Mask(int n) {
    if (n <= 0) return 0;
    if (n >= 64) return ~uint64_t{0};
    return ~(~uint64_t{0} >> n);
  }
};

inline constexpr uint32_t kTrieNil = ~uint32_t{0};

// A trie node: key, two child indexes and a value index (kTrieNil for none).
template <typename K>
struct TrieNode;

// IPv4: 16 bytes. The length shares a word with the value index (top 6 bits), so a trie holds
// at most 2^26 - 1 values (64M; the owner of more aborts).
template <>
struct TrieNode<TrieKey4> {
  explicit TrieNode(const TrieKey4& k)
      : addr(k.addr), value_len_(kNoValue | uint32_t{k.len} << kValueBits) {}
  TrieKey4 key() const { return TrieKey4{addr, len()}; }
  uint8_t len() const { return static_cast<uint8_t>(value_len_ >> kValueBits); }
  uint32_t value() const {
    const uint32_t v = value_len_ & kNoValue;
    return v == kNoValue ? kTrieNil : v;
  }
  void set_value(uint32_t v) {
    if (v != kTrieNil && v >= kNoValue) std::abort();  // more values than the node can name
    value_len_ = (value_len_ & ~kNoValue) | (v == kTrieNil ? kNoValue : v);
  }
  uint32_t addr;
  std::array<uint32_t, 2> child = {kTrieNil, kTrieNil};

 private:
  static constexpr int kValueBits = 26;
  static constexpr uint32_t kNoValue = (uint32_t{1} << kValueBits) - 1;
  uint32_t value_len_;
};
static_assert(sizeof(TrieNode<TrieKey4>) == 16);

template <>
struct TrieNode<TrieKey6> {
  explicit TrieNode(const TrieKey6& k) : hi(k.hi), lo(k.lo), len_(k.len) {}
  TrieKey6 key() const { return TrieKey6{hi, lo, len_}; }
  uint8_t len() const { return len_; }
  uint32_t value() const { return value_; }
  void set_value(uint32_t v) { value_ = v; }
  uint64_t hi;
  uint64_t lo;
  std::array<uint32_t, 2> child = {kTrieNil, kTrieNil};

 private:
  uint32_t value_ = kTrieNil;
  uint8_t len_;
};
static_assert(sizeof(TrieNode<TrieKey6>) == 32);

}  // namespace strata
