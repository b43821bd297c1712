// nlohmann::json with its precondition checks on in every build. Include this, never
// <nlohmann/json.hpp> itself.
//
// nlohmann checks its preconditions with JSON_ASSERT, an assert() by default, which NDEBUG (our
// RelWithDebInfo builds) turns into nothing. Reading a key a const json lacks through
// operator[] then dereferences the object's end() and returns whatever lies there: undefined
// behaviour that crashes now and then (an interop test read ExaBGP's End-of-RIB, which has no
// "update", this way and segfaulted once in CI). Here a broken precondition stops the process
// every time, saying which and where, so the misuse fails the first test that reaches it.
#pragma once

#ifdef INCLUDE_NLOHMANN_JSON_HPP_
#error "include common/json.h before (instead of) <nlohmann/json.hpp>"
#endif

#include <cstdio>
#include <cstdlib>

namespace strata::json_detail {
[[noreturn]] inline void AssertFailed(const char* expr, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: nlohmann::json precondition failed: %s\n", file, line, expr);
  std::abort();
}
}  // namespace strata::json_detail

#define JSON_ASSERT(x) \
  ((x) ? static_cast<void>(0) : ::strata::json_detail::AssertFailed(#x, __FILE__, __LINE__))

#include <nlohmann/json.hpp>  // IWYU pragma: export
