#include "common/utf8.h"

namespace strata {

std::optional<size_t> FirstInvalidUtf8(std::string_view text) {
  size_t i = 0;
  const size_t n = text.size();
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  auto cont = [&](size_t k) { return k < n && (byte(k) & 0xC0) == 0x80; };
  while (i < n) {
    const unsigned char c = byte(i);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = 0;
    unsigned char lo = 0x80;  // bounds of the second byte (RFC 3629 table)
    unsigned char hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
    } else {
      return i;  // a continuation byte, an overlong lead (C0, C1) or F5..FF
    }
    if (i + 1 >= n || byte(i + 1) < lo || byte(i + 1) > hi) return i;
    for (size_t k = 2; k < len; ++k) {
      if (!cont(i + k)) return i;
    }
    i += len;
  }
  return std::nullopt;
}

}  // namespace strata
