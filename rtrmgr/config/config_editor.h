// ConfigEditor: the operator shell's editing commands on a candidate tree, checked against the
// templates: `set PATH VALUE`, `delete PATH`, completion candidates for Tab and help for `?`.
//
// A path is words as the config writes them: keywords, each keyed node's key after its keyword,
// and a leaf's values last ("virtual-router red static route 192.0.2.0/24 next-hop 10.0.0.3").
// Set creates missing nodes along the path and replaces a leaf's values; it checks names, keys
// and values but not mandatory nodes or references (ConfigValidator does, before a commit).
// Nodes that set creates have no file position. Thread-compatible; the templates must outlive it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "rtrmgr/config/config_node.h"
#include "rtrmgr/config/template_tree.h"

namespace strata::rtrmgr {

class ConfigEditor {
 public:
  explicit ConfigEditor(const TemplateTree& templates) : templates_(templates) {}

  // INVALID_ARGUMENT naming the bad word and why; `root` is unchanged on error.
  Status Set(ConfigNode& root, const std::vector<std::string>& path) const;
  // Removes the node at `path` with its subtree. If a leaf's values are given they must match.
  // NOT_FOUND when it is not configured.
  Status Delete(ConfigNode& root, const std::vector<std::string>& path) const;
  // What may follow `path` and starts with `partial`, sorted: child keywords, keys already
  // configured or defined where a %ref points, enum and bool values.
  std::vector<std::string> Complete(const ConfigNode& root, const std::vector<std::string>& path,
                                    std::string_view partial) const;
  // The node `path` leads to: its syntax and help, then one line per child.
  StatusOr<std::string> Help(const std::vector<std::string>& path) const;
  // Splits a command line into words as the config lexer does (quotes, escapes).
  static StatusOr<std::vector<std::string>> SplitWords(std::string_view line);

 private:
  // Where a walk along a path ended.
  struct Walk {
    const TemplateNode* tmpl = nullptr;  // the last node reached
    ConfigNode* node = nullptr;          // its config node; nullptr if not configured
    size_t used = 0;                     // words consumed
    bool wants_key = false;              // the last word was a keyed node's keyword
  };
  StatusOr<Walk> Descend(ConfigNode* root, const std::vector<std::string>& path, bool create,
                         std::vector<ConfigNode*>* parents) const;

  const TemplateTree& templates_;
};

}  // namespace strata::rtrmgr
