// ConfigValidator: checks a configuration tree before anything applies it: the one check behind
// `strata-rtrmgr --check`, the boot, SIGHUP reloads, strata-sh's `load`, `commit check` and
// `commit`, so all of them refuse the same things at the same place.
//
// Two layers. The templates' schema: unknown nodes, values of the wrong type or out of range,
// missing or extra keys and values, duplicate keys or leaves, missing mandatory nodes and
// references to keys that are not defined (an interface, a VR, a policy statement). Then the
// rules across fields and processes (ConfigRules, on the tree with BGP peer groups expanded,
// PeerGroups): what an RFC forbids or a process would refuse
// at commit time (hold time 1, an interface in two VRs, two VRs on one kernel table, ...) is an
// error; what is legal but likely a mistake is a warning. Every finding names its place
// ("file:line:column: reason"; "PATH: reason" for a node made by `set`, which has no position);
// all are collected and returned sorted by position, so the output is deterministic.
// Thread-compatible; the templates must outlive it.
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
  // The node holding the finding ("virtual-router red bgp peer 10.0.0.2" for its hold-time),
  // shown when `pos` is unknown: where `set` and `delete` would edit it.
  std::string path;
  bool warning = false;
  std::string rule;  // the ConfigRules id; "" for the schema's checks

  // "file:line:column: reason", "file:line:column: warning: reason", or "PATH: reason".
  std::string ToString() const;
  friend bool operator==(const ConfigError& a, const ConfigError& b) {
    return a.ToString() == b.ToString();
  }
};

struct ValidationReport {
  std::vector<ConfigError> errors;
  std::vector<ConfigError> warnings;

  bool ok() const { return errors.empty(); }
  // OK, or INVALID_ARGUMENT whose message is the errors, one per line.
  Status ToStatus() const;
  // The warnings, one per line ("" when none).
  std::string WarningText() const;
  // Errors and warnings together by position, one per line, as a compiler prints them
  // (`--check`, strata-sh's `load`).
  std::string Listing() const;
};

class ConfigValidator {
 public:
  explicit ConfigValidator(const TemplateTree& templates) : templates_(templates) {}

  // Errors and warnings of `root`.
  ValidationReport Examine(const ConfigNode& root) const;
  // The errors only; empty when `root` is valid.
  std::vector<ConfigError> Validate(const ConfigNode& root) const;
  // OK, or INVALID_ARGUMENT whose message is the errors, one per line.
  Status Check(const ConfigNode& root) const;
  // The --check entry point: parses and examines a file (its parse error as the only error).
  StatusOr<ValidationReport> ExamineFile(const std::string& path) const;
  // ExamineFile's errors as a Status.
  Status ValidateFile(const std::string& path) const;

 private:
  struct Ref {
    std::string value;  // canonical
    std::string shown;
    SourcePos pos;
    std::string path;
    const TemplateNode* tmpl;
  };
  void ValidateChildren(const ConfigNode& node, const TemplateNode& tmpl, const std::string& path,
                        std::vector<ConfigError>& errors, std::vector<Ref>& refs) const;
  // Checks the key or values of one node; false if an error was recorded.
  bool CheckArgs(const ConfigNode& node, const TemplateNode& tmpl, const std::string& path,
                 std::vector<ConfigError>& errors, std::vector<Ref>& refs) const;

  const TemplateTree& templates_;
};

}  // namespace strata::rtrmgr
