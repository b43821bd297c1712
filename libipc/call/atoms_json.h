// Atoms as JSON, for `--json` output: dotted names become nested objects and arrays
// ("routes.0.prefix" -> {"routes": [{"prefix": ...}]}), numbers stay numbers, addresses and
// prefixes are strings, binary is hex, lists are arrays.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "libipc/xrl_atom.h"

namespace strata::ipc {

nlohmann::json AtomsToJson(const std::vector<XrlAtom>& atoms);

}  // namespace strata::ipc
