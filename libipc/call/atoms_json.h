// Atoms as JSON, for `--json` output: dotted names become nested objects and arrays
// ("routes.0.prefix" -> {"routes": [{"prefix": ...}]}), numbers stay numbers, addresses and
// prefixes are strings, binary is hex, lists are arrays.
#pragma once

#include <vector>

#include "common/json.h"
#include "libipc/xrl_atom.h"

namespace strata::ipc {

nlohmann::json AtomsToJson(const std::vector<XrlAtom>& atoms);

}  // namespace strata::ipc
