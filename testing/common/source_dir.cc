#include "testing/common/source_dir.h"

#include <cstdlib>

namespace strata::test_paths {

std::string SourceDir() {
  const char* dir = std::getenv("STRATA_SOURCE_DIR");
  return dir != nullptr ? dir : STRATA_SOURCE_DIR_DEFAULT;
}

}  // namespace strata::test_paths
