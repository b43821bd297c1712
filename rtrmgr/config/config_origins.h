// ConfigOrigins: the places (file:line:column) of a tree's nodes and values as plain numbers,
// so that a candidate strata-sh sends the rtrmgr as canonical text keeps the places of the
// operator's own files (`load FILE`): the rtrmgr's errors then name those, not lines of a text
// the operator never saw. Nodes with no place (made by `set`, or read back from the running
// configuration) stay without one, and errors about them name their path instead.
//
// Encoding, over the nodes in pre-order (the root excluded), per node: file (0 none, else an
// index + 1 into `files`), line, column, then line and column of each of its args (same file).
// Stateless.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "rtrmgr/config/config_node.h"

namespace strata::rtrmgr {

struct ConfigOrigins {
  std::vector<std::string> files;
  std::vector<uint32_t> numbers;

  static ConfigOrigins Collect(const ConfigNode& root);
  // Gives `root`'s nodes the places collected from a tree of the same shape (Print and Parse
  // keep it). INVALID_ARGUMENT, and `root` has no places at all, when the shapes differ.
  Status Apply(ConfigNode& root) const;
  // Removes every place under `root` (text read back from the running configuration).
  static void Clear(ConfigNode& root);
};

}  // namespace strata::rtrmgr
