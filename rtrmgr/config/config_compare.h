// ConfigCompare: `show | compare`, the difference between two trees as text in the Junos
// style: a `[edit PATH]` header for each place that changed, then the removed statements
// prefixed "-" and the added ones "+", indented four spaces per level below the header. A leaf
// whose value changed shows as "-" old then "+" new. Nodes are matched by
// TemplateNode::Identity; nodes the templates do not know are compared by keyword and args.
// Empty when the trees are equal. Stateless.
#pragma once

#include <string>

#include "rtrmgr/config/config_node.h"
#include "rtrmgr/config/template_tree.h"

namespace strata::rtrmgr {

class ConfigCompare {
 public:
  static std::string Compare(const ConfigNode& running, const ConfigNode& candidate,
                             const TemplateTree& templates);
};

}  // namespace strata::rtrmgr
