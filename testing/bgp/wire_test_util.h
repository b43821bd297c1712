// Helpers shared by the wire codec tests: hex byte vectors and UPDATE bodies built by hand.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "bgp/wire/update_decoder.h"
#include "common/ip_prefix.h"
#include "testing/common/value_literals.h"

namespace strata::bgp::test_util {

// "ff 01 0a" -> {0xff, 0x01, 0x0a}; spaces and newlines are ignored.
inline std::vector<uint8_t> Hex(std::string_view text) {
  std::vector<uint8_t> out;
  int hi = -1;
  for (char c : text) {
    int v = -1;
    if (c >= '0' && c <= '9') v = c - '0';
    if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    if (v < 0) continue;
    if (hi < 0) {
      hi = v;
    } else {
      out.push_back(static_cast<uint8_t>(hi << 4 | v));
      hi = -1;
    }
  }
  return out;
}

using strata::test_util::A;
using strata::test_util::P;

// An UPDATE body from its three parts, with the two length fields filled in.
inline std::vector<uint8_t> UpdateBody(const std::vector<uint8_t>& withdrawn,
                                       const std::vector<uint8_t>& attrs,
                                       const std::vector<uint8_t>& nlri) {
  std::vector<uint8_t> b;
  b.push_back(static_cast<uint8_t>(withdrawn.size() >> 8));
  b.push_back(static_cast<uint8_t>(withdrawn.size()));
  b.insert(b.end(), withdrawn.begin(), withdrawn.end());
  b.push_back(static_cast<uint8_t>(attrs.size() >> 8));
  b.push_back(static_cast<uint8_t>(attrs.size()));
  b.insert(b.end(), attrs.begin(), attrs.end());
  b.insert(b.end(), nlri.begin(), nlri.end());
  return b;
}

inline std::vector<uint8_t> Concat(std::initializer_list<std::vector<uint8_t>> parts) {
  std::vector<uint8_t> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// The mandatory attributes for IPv4: ORIGIN IGP, AS_PATH 65001 (4-octet), NEXT_HOP 192.0.2.1.
inline std::vector<uint8_t> MandatoryAttrs() {
  return Hex("40 01 01 00  40 02 06 02 01 00 00 fd e9  40 03 04 c0 00 02 01");
}

// The body of a whole message.
inline std::span<const uint8_t> Body(const std::vector<uint8_t>& message) {
  return std::span<const uint8_t>(message).subspan(19);
}

}  // namespace strata::bgp::test_util
