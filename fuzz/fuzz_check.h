// FUZZ_CHECK: the property checks of the libFuzzer harnesses. A failed check prints what broke
// and aborts, which libFuzzer reports as a crash and saves the input that caused it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace strata::fuzz {

[[noreturn]] inline void Fail(const char* file, int line, const char* cond,
                              const std::string& why) {
  std::fprintf(stderr, "%s:%d: property failed: %s\n%s\n", file, line, cond, why.c_str());
  std::abort();
}

}  // namespace strata::fuzz

#define FUZZ_CHECK(cond, why)                                            \
  do {                                                                   \
    if (!(cond)) ::strata::fuzz::Fail(__FILE__, __LINE__, #cond, (why)); \
  } while (0)
