#include "rtrmgr/config/config_node.h"

#include <utility>

namespace strata::rtrmgr {

std::string SourcePos::ToString() const {
  if (line == 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

ConfigNode::ConfigNode(std::string keyword, std::vector<std::string> args)
    : keyword_(std::move(keyword)) {
  for (auto& a : args) args_.push_back(ConfigArg{std::move(a), {}});
}

std::vector<std::string> ConfigNode::arg_texts() const {
  std::vector<std::string> out;
  out.reserve(args_.size());
  for (const auto& a : args_) out.push_back(a.text);
  return out;
}

const std::string& ConfigNode::first_arg() const {
  static const std::string kEmpty;
  return args_.empty() ? kEmpty : args_.front().text;
}

ConfigNode& ConfigNode::AddChild(ConfigNode child) {
  children_.push_back(std::move(child));
  return children_.back();
}

const ConfigNode* ConfigNode::FindChild(std::string_view keyword) const {
  for (const auto& c : children_) {
    if (c.keyword_ == keyword) return &c;
  }
  return nullptr;
}

const ConfigNode* ConfigNode::FindChild(std::string_view keyword, std::string_view key) const {
  for (const auto& c : children_) {
    if (c.keyword_ == keyword && c.first_arg() == key) return &c;
  }
  return nullptr;
}

ConfigNode* ConfigNode::FindChild(std::string_view keyword, std::string_view key) {
  for (auto& c : children_) {
    if (c.keyword_ == keyword && c.first_arg() == key) return &c;
  }
  return nullptr;
}

bool operator==(const ConfigNode& a, const ConfigNode& b) {
  return a.keyword_ == b.keyword_ && a.args_ == b.args_ && a.children_ == b.children_;
}

}  // namespace strata::rtrmgr
