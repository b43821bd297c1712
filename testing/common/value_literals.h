// Terse constructors for addresses and prefixes in tests (A("10.0.0.1"), P("10.0.0.0/8")), and
// gtest printers for them. The text must parse: tests write literals, not untrusted input.
// Test-only.
#pragma once

#include <ostream>
#include <string_view>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"

namespace strata {

inline void PrintTo(const IpPrefix& p, std::ostream* os) { *os << p.ToString(); }
inline void PrintTo(const IpAddr& a, std::ostream* os) { *os << a.ToString(); }

namespace test_util {

inline IpPrefix P(std::string_view text) { return IpPrefix::Parse(text).value(); }
inline IpAddr A(std::string_view text) { return IpAddr::Parse(text).value(); }

}  // namespace test_util
}  // namespace strata
