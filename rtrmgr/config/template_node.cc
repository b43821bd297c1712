#include "rtrmgr/config/template_node.h"

namespace strata::rtrmgr {

const TemplateNode* TemplateNode::Find(std::string_view keyword) const {
  for (const auto& c : children) {
    if (c->name == keyword) return c.get();
  }
  return nullptr;
}

std::string TemplateNode::Identity(const ConfigNode& node) const {
  if (kind != NodeKind::kKeyed) return node.keyword();
  return node.keyword() + " " + value.Canonical(node.first_arg());
}

std::string TemplateNode::Path() const {
  if (parent == nullptr) return "";
  std::string up = parent->Path();
  return up.empty() ? name : up + " " + name;
}

std::string TemplateNode::Syntax() const {
  switch (kind) {
    case NodeKind::kContainer:
      return name;
    case NodeKind::kKeyed:
      return name + " <" + std::string(ValueTypeName(value.type)) + ">";
    case NodeKind::kLeaf:
      return name + " <" + std::string(ValueTypeName(value.type)) + ">" + (list ? "..." : "");
  }
  return name;
}

}  // namespace strata::rtrmgr
