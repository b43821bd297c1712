// BuildInfo: what a Strata binary is: the project version, the git commit it was built from
// (with "-modified" when the work tree had changes), that commit's date, the compiler and the
// build type. Generated at build time (common/version_info.cmake) into the library
// strata_version, so only it is rebuilt when the commit changes. VersionString() is the line
// every program prints for --version, made from it. Immutable; thread-safe.
#pragma once

#include <string>

namespace strata {

struct BuildInfo {
  const char* version;     // "0.1.0"
  const char* git;         // "d46df94", "d46df94-modified", "unknown" outside a git tree
  const char* date;        // the commit's date, "2026-11-27"
  const char* compiler;    // "GNU 12.2.0"
  const char* build_type;  // "RelWithDebInfo"
};

const BuildInfo& Build();

// "strata 0.1.0 (git d46df94-modified)"; `program` leads the line when given, and the git part
// is left out outside a git tree.
std::string VersionString(const std::string& program = "");

}  // namespace strata
