#include "common/version.h"

// STRATA_VERSION and STRATA_GIT_DESCRIBE come from CMake for this file alone.
#ifndef STRATA_VERSION
#define STRATA_VERSION "unknown"
#endif
#ifndef STRATA_GIT_DESCRIBE
#define STRATA_GIT_DESCRIBE ""
#endif

namespace strata {

std::string VersionString(const std::string& program) {
  std::string v = std::string(program.empty() ? "strata" : program) + " " + STRATA_VERSION;
  if (const std::string git = STRATA_GIT_DESCRIBE; !git.empty()) v += " (git " + git + ")";
  return v;
}

}  // namespace strata
