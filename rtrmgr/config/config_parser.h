// ConfigParser: reads configuration and template text into a ConfigNode tree.
//
//   file      := statement*
//   statement := WORD arg* ( ';' | '{' statement* '}' )
//   arg       := WORD | "quoted string"
//
// The root node has an empty keyword; its children are the top-level statements. Parsing stops
// at the first syntax error, which reads "file:line:column: reason". Blocks nest at most
// kMaxDepth deep (the input is untrusted). Thread-compatible; stateless entry points.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "rtrmgr/config/config_node.h"

namespace strata::rtrmgr {

class ConfigParser {
 public:
  static constexpr int kMaxDepth = 64;

  // `file` names the text in positions and errors.
  static StatusOr<ConfigNode> Parse(std::string_view text, const std::string& file);
  // Reads and parses a file; an unreadable file is NOT_FOUND "path: reason".
  static StatusOr<ConfigNode> ParseFile(const std::string& path);
  // Reads a whole file into a string; a directory is INVALID_ARGUMENT.
  static StatusOr<std::string> ReadFile(const std::string& path);
};

}  // namespace strata::rtrmgr
