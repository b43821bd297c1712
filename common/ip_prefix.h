// IpPrefix: an IPv4 or IPv6 network (address and prefix length), always stored masked.
//
// Thread-compatible value type, ordered by family, then address, then length, so that a sorted
// container lists a covering prefix before the prefixes it contains.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/ip_addr.h"
#include "common/status.h"

namespace strata {

class IpPrefix {
 public:
  // 0.0.0.0/0.
  IpPrefix() = default;
  // Masks away host bits. REQUIRES: 0 <= len <= addr.bit_length().
  IpPrefix(const IpAddr& addr, int len);

  // Checks the length; host bits are cleared.
  static StatusOr<IpPrefix> Make(const IpAddr& addr, int len);
  // Checks the length and refuses host bits ("10.0.0.1/8" is an error).
  static StatusOr<IpPrefix> MakeStrict(const IpAddr& addr, int len);
  // "a.b.c.d/len" or "x::y/len". Host bits are an error unless allow_host_bits.
  static StatusOr<IpPrefix> Parse(std::string_view text, bool allow_host_bits = false);
  // The default route of a family.
  static IpPrefix Default(Family f) { return IpPrefix(IpAddr::Zero(f), 0); }

  const IpAddr& addr() const { return addr_; }
  int len() const { return len_; }
  Family family() const { return addr_.family(); }
  bool is_v4() const { return addr_.is_v4(); }
  int max_len() const { return addr_.bit_length(); }
  bool is_host() const { return len_ == max_len(); }

  bool Contains(const IpAddr& a) const;
  // True if `p` lies within this prefix (equal counts).
  bool Contains(const IpPrefix& p) const;
  bool Overlaps(const IpPrefix& p) const { return Contains(p) || p.Contains(*this); }
  // The two halves; REQUIRES: len() < max_len().
  IpPrefix Left() const { return IpPrefix(addr_, len_ + 1); }
  IpPrefix Right() const { return IpPrefix(addr_.WithBit(len_, true), len_ + 1); }
  // The enclosing prefix one bit shorter; REQUIRES: len() > 0.
  IpPrefix Parent() const { return IpPrefix(addr_, len_ - 1); }
  // The highest address within the prefix.
  IpAddr Last() const;

  std::string ToString() const;

  friend bool operator==(const IpPrefix& a, const IpPrefix& b) {
    return a.len_ == b.len_ && a.addr_ == b.addr_;
  }
  friend std::strong_ordering operator<=>(const IpPrefix& a, const IpPrefix& b) {
    if (auto c = a.addr_ <=> b.addr_; c != 0) return c;
    return a.len_ <=> b.len_;
  }

 private:
  IpAddr addr_;
  uint8_t len_ = 0;  // one byte: a prefix is 18 bytes, not 24 (a million in every route table)
};

}  // namespace strata

template <>
struct std::hash<strata::IpPrefix> {
  size_t operator()(const strata::IpPrefix& p) const noexcept {
    const uint64_t tag = static_cast<uint64_t>(p.family()) << 8 | static_cast<uint64_t>(p.len());
    return static_cast<size_t>(strata::HashAddr(p.addr(), tag));
  }
};
