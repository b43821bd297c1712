// Where the source tree is (templates, example configs, test data): $STRATA_SOURCE_DIR, else the
// tree the tests were configured from. Compiled in one file of its own, so that the path is in
// no other object and a compiler cache shares the tests' objects between clones.
#pragma once

#include <string>

namespace strata::test_paths {

std::string SourceDir();

}  // namespace strata::test_paths
