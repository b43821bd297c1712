#include "common/version.h"

namespace strata {

std::string VersionString(const std::string& program) {
  const BuildInfo& b = Build();
  std::string v = std::string(program.empty() ? "strata" : program) + " " + b.version;
  if (const std::string git = b.git; git != "unknown") v += " (git " + git + ")";
  return v;
}

}  // namespace strata
