// ConfigNode: one statement of a configuration (or template) file, and the tree they form.
//
// The tree is syntactic: a node is a keyword, the words that follow it (`args`) and the nodes of
// its block. Whether the first word is a key (`peer 10.0.0.2 { ... }`) or a value
// (`next-hop 10.0.0.2;`) is decided by the templates (TemplateNode::kind), so that parsing needs
// no schema and printing round-trips any tree exactly. An empty block and no block are the same
// tree. Positions are kept for error messages; equality ignores them. Thread-compatible value type.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace strata::rtrmgr {

// Where a token starts: file name, 1-based line and column (bytes).
struct SourcePos {
  std::string file;
  int line = 0;
  int column = 0;

  // "file:line:column", or "file" when line is 0 (e.g. a node made by `set`).
  std::string ToString() const;
};

// One word after a keyword. Equality compares the text only.
struct ConfigArg {
  std::string text;
  SourcePos pos;

  friend bool operator==(const ConfigArg& a, const ConfigArg& b) { return a.text == b.text; }
};

class ConfigNode {
 public:
  ConfigNode() = default;
  ConfigNode(std::string keyword, std::vector<std::string> args = {});

  const std::string& keyword() const { return keyword_; }
  const SourcePos& pos() const { return pos_; }
  void set_pos(SourcePos pos) { pos_ = std::move(pos); }

  const std::vector<ConfigArg>& args() const { return args_; }
  std::vector<ConfigArg>& mutable_args() { return args_; }
  // The args' texts.
  std::vector<std::string> arg_texts() const;
  // The first arg's text ("" when none): the key of a keyed node, the value of a scalar leaf.
  const std::string& first_arg() const;

  const std::vector<ConfigNode>& children() const { return children_; }
  std::vector<ConfigNode>& mutable_children() { return children_; }
  ConfigNode& AddChild(ConfigNode child);

  // The first child with this keyword (and, if `key` is given, this first arg), or nullptr.
  const ConfigNode* FindChild(std::string_view keyword) const;
  const ConfigNode* FindChild(std::string_view keyword, std::string_view key) const;
  ConfigNode* FindChild(std::string_view keyword, std::string_view key);

  // Keyword, args and children, recursively; positions are ignored.
  friend bool operator==(const ConfigNode& a, const ConfigNode& b);

 private:
  std::string keyword_;
  SourcePos pos_;
  std::vector<ConfigArg> args_;
  std::vector<ConfigNode> children_;
};

}  // namespace strata::rtrmgr
