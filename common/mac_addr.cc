#include "common/mac_addr.h"

#include <cstdio>

#include "common/parse_error.h"

namespace strata {
namespace {
int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

StatusOr<MacAddr> MacAddr::Parse(std::string_view text) {
  std::array<uint8_t, 6> b{};
  if (text.size() != 17) return InvalidValue(text, "is not a MAC address (aa:bb:cc:dd:ee:ff)");
  for (int i = 0; i < 6; ++i) {
    const int hi = HexValue(text[i * 3]);
    const int lo = HexValue(text[i * 3 + 1]);
    if (hi < 0 || lo < 0 || (i < 5 && text[i * 3 + 2] != ':')) {
      return InvalidValue(text, "is not a MAC address (aa:bb:cc:dd:ee:ff)");
    }
    b[i] = static_cast<uint8_t>(hi * 16 + lo);
  }
  return MacAddr(b);
}

StatusOr<MacAddr> MacAddr::FromBytes(std::span<const uint8_t> bytes) {
  if (bytes.size() != 6) {
    return InvalidArgument("a MAC address has 6 bytes, not " + std::to_string(bytes.size()));
  }
  std::array<uint8_t, 6> b{};
  for (size_t i = 0; i < 6; ++i) b[i] = bytes[i];
  return MacAddr(b);
}

std::string MacAddr::ToString() const {
  char buf[18];
  std::snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x", bytes_[0], bytes_[1], bytes_[2],
                bytes_[3], bytes_[4], bytes_[5]);
  return buf;
}

}  // namespace strata
