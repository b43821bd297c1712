// MacAddr: a 48-bit Ethernet address. Thread-compatible value type.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/status.h"

namespace strata {

class MacAddr {
 public:
  MacAddr() = default;
  explicit MacAddr(const std::array<uint8_t, 6>& b) : bytes_(b) {}

  // "aa:bb:cc:dd:ee:ff" (hex digits in either case, two per group).
  static StatusOr<MacAddr> Parse(std::string_view text);
  static StatusOr<MacAddr> FromBytes(std::span<const uint8_t> bytes);

  std::span<const uint8_t> bytes() const { return bytes_; }
  std::string ToString() const;

  friend bool operator==(const MacAddr&, const MacAddr&) = default;
  friend auto operator<=>(const MacAddr&, const MacAddr&) = default;

 private:
  std::array<uint8_t, 6> bytes_{};
};

}  // namespace strata
