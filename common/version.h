// The version every Strata program prints for --version: the release (CMake's project
// version) and, when built from a git checkout, the commit (`git describe` at configure time).
// Stateless.
#pragma once

#include <string>

namespace strata {

// "strata 0.1.0 (git d46df94-dirty)"; `program` leads the line when given.
std::string VersionString(const std::string& program = "");

}  // namespace strata
