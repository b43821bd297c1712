// ConfigValidator: checks a configuration tree against the templates before anything applies.
//
// Finds unknown nodes, values of the wrong type or out of range, missing or extra keys and
// values, duplicate keys or leaves, missing mandatory nodes and references to keys that are not
// defined (an interface, a VR, a policy statement). Every error reads
// "file:line:column: reason"; all are collected (at least the first per node) and returned sorted
// by position, so the output is deterministic. Thread-compatible; the templates must outlive it.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "rtrmgr/config/config_node.h"
#include "rtrmgr/config/template_tree.h"

namespace strata::rtrmgr {

struct ConfigError {
  SourcePos pos;
  std::string reason;

  std::string ToString() const { return pos.ToString() + ": " + reason; }
  friend bool operator==(const ConfigError&, const ConfigError&) = default;
};

class ConfigValidator {
 public:
  explicit ConfigValidator(const TemplateTree& templates) : templates_(templates) {}

  // Empty when `root` is valid.
  std::vector<ConfigError> Validate(const ConfigNode& root) const;
  // OK, or INVALID_ARGUMENT whose message is the errors, one per line.
  Status Check(const ConfigNode& root) const;
  // The --check entry point: parses and validates a file.
  Status ValidateFile(const std::string& path) const;

 private:
  struct Ref {
    std::string value;  // canonical
    std::string shown;
    SourcePos pos;
    const TemplateNode* tmpl;
  };
  void ValidateChildren(const ConfigNode& node, const TemplateNode& tmpl, const std::string& path,
                        std::vector<ConfigError>& errors, std::vector<Ref>& refs) const;
  // Checks the key or values of one node; false if an error was recorded.
  bool CheckArgs(const ConfigNode& node, const TemplateNode& tmpl, std::vector<ConfigError>& errors,
                 std::vector<Ref>& refs) const;

  const TemplateTree& templates_;
};

}  // namespace strata::rtrmgr
