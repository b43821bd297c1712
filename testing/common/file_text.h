// FileText: a whole file as a string, for tests that check what a program wrote ("" when it
// cannot be read). Test-only.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace strata::test_util {

inline std::string FileText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace strata::test_util
