// ConfigRules: the validator's rules across fields and across processes (ConfigValidator runs
// them after the templates' schema). Each rule has an id, a severity and the reason it exists:
// an error is what an RFC forbids or a process would refuse at commit time (so `--check` and
// `commit check` refuse it first, at the operator's file:line:column, instead of a process
// failing the commit half way); a warning is legal but most likely not what the operator meant.
// The rules read values defensively: one the schema refused is skipped, so a broken tree is
// still searched for every other problem. All() lists the rules (docs/config-reference.md is
// generated from it). Stateless.
#pragma once

#include <string_view>
#include <vector>

#include "rtrmgr/config/config_node.h"
#include "rtrmgr/config/config_validator.h"
#include "rtrmgr/config/template_tree.h"

namespace strata::rtrmgr {

struct RuleInfo {
  std::string_view id;
  bool warning = false;
  std::string_view what;  // what is refused or warned about
  std::string_view why;   // the RFC or the reason
};

class ConfigRules {
 public:
  static const std::vector<RuleInfo>& All();
  // nullptr for an unknown id.
  static const RuleInfo* Find(std::string_view id);
  // Appends the findings of every rule on `root` to `out`.
  static void Check(const ConfigNode& root, const TemplateTree& templates,
                    std::vector<ConfigError>& out);
};

}  // namespace strata::rtrmgr
