// ConfigPrinter: prints a ConfigNode tree in the canonical form: one statement per line,
// four spaces per level, args quoted only when they must be, `;` after a node without children
// and a block otherwise. ConfigParser::Parse(Print(t)) == t for every tree whose keywords are
// words. Stateless.
#pragma once

#include <string>
#include <string_view>

#include "rtrmgr/config/config_node.h"

namespace strata::rtrmgr {

class ConfigPrinter {
 public:
  // The children of `root` (a root's own keyword is empty and not printed).
  static std::string Print(const ConfigNode& root);
  // One node and its subtree, each line indented by `indent` levels.
  static std::string PrintNode(const ConfigNode& node, int indent);
  // `keyword arg arg` with args quoted as needed.
  static std::string Statement(const ConfigNode& node);
  // An arg as a word, or quoted and escaped when it is not a plain word.
  static std::string Quote(std::string_view text);
};

}  // namespace strata::rtrmgr
