#include "rtrmgr/config/config_editor.h"

#include <algorithm>

#include "rtrmgr/config/config_lexer.h"

namespace strata::rtrmgr {
namespace {

std::string Q(const std::string& s) { return "'" + s + "'"; }

std::string ChildList(const TemplateNode& t) {
  std::string out;
  for (const auto& c : t.children) out += (out.empty() ? "" : ", ") + c->name;
  return out;
}

ConfigNode* FindChildMatching(ConfigNode* parent, const TemplateNode& ct, const std::string& key) {
  if (parent == nullptr) return nullptr;
  for (auto& c : parent->mutable_children()) {
    if (c.keyword() != ct.name) continue;
    if (ct.kind != NodeKind::kKeyed || ct.value.Canonical(c.first_arg()) == ct.value.Canonical(key))
      return &c;
  }
  return nullptr;
}

}  // namespace

StatusOr<ConfigEditor::Walk> ConfigEditor::Descend(ConfigNode* root,
                                                   const std::vector<std::string>& path,
                                                   bool create,
                                                   std::vector<ConfigNode*>* parents) const {
  Walk w{&templates_.root(), root, 0, false};
  while (w.used < path.size()) {
    const std::string& word = path[w.used];
    const TemplateNode* ct = w.tmpl->Find(word);
    if (ct == nullptr) {
      return InvalidArgument("unknown node " + Q(word) +
                             (w.tmpl->name.empty() ? "" : " in " + Q(w.tmpl->Path())) +
                             "; expected one of: " + ChildList(*w.tmpl));
    }
    if (ct->kind == NodeKind::kLeaf) return Walk{ct, w.node, w.used + 1, false};
    std::string key;
    if (ct->kind == NodeKind::kKeyed) {
      if (w.used + 1 >= path.size()) return Walk{ct, w.node, w.used + 1, true};
      key = path[w.used + 1];
      if (std::string why = ct->value.Check(key); !why.empty()) {
        return InvalidArgument(why + " for " + Q(word));
      }
    }
    ConfigNode* next = FindChildMatching(w.node, *ct, key);
    if (next == nullptr && create && w.node != nullptr) {
      next = &w.node->AddChild(ct->kind == NodeKind::kKeyed ? ConfigNode(word, {key})
                                                            : ConfigNode(word));
    }
    if (parents != nullptr) parents->push_back(w.node);
    w = Walk{ct, next, w.used + (ct->kind == NodeKind::kKeyed ? 2 : 1), false};
  }
  return w;
}

Status ConfigEditor::Set(ConfigNode& root, const std::vector<std::string>& path) const {
  if (path.empty()) return InvalidArgument("set needs a path");
  ConfigNode copy = root;
  auto w = Descend(&copy, path, /*create=*/true, nullptr);
  if (!w.ok()) return w.status();
  const TemplateNode& t = *w->tmpl;
  if (w->wants_key) return InvalidArgument(Q(t.name) + " needs a key (" + t.value.Describe() + ")");
  if (t.kind == NodeKind::kLeaf) {
    std::vector<std::string> values(path.begin() + static_cast<long>(w->used), path.end());
    if (values.empty() && !t.bare_value)
      return InvalidArgument(Q(t.name) + " needs a value (" + t.value.Describe() + ")");
    if (values.size() > 1 && !t.list) return InvalidArgument(Q(t.name) + " takes one value");
    for (const auto& v : values) {
      if (std::string why = t.value.Check(v); !why.empty()) return InvalidArgument(why);
    }
    if (ConfigNode* leaf = FindChildMatching(w->node, t, "")) {
      *leaf = ConfigNode(t.name, values);
    } else {
      w->node->AddChild(ConfigNode(t.name, values));
    }
  }
  root = std::move(copy);
  return Status::Ok();
}

Status ConfigEditor::Delete(ConfigNode& root, const std::vector<std::string>& path) const {
  if (path.empty()) return InvalidArgument("delete needs a path");
  std::vector<ConfigNode*> parents;
  auto w = Descend(&root, path, /*create=*/false, &parents);
  if (!w.ok()) return w.status();
  if (w->wants_key) return InvalidArgument(Q(w->tmpl->name) + " needs a key");
  ConfigNode* parent = w->node;
  ConfigNode* target = nullptr;
  if (w->tmpl->kind == NodeKind::kLeaf) {
    target = FindChildMatching(parent, *w->tmpl, "");
    std::vector<std::string> values(path.begin() + static_cast<long>(w->used), path.end());
    if (target != nullptr && !values.empty() && target->arg_texts() != values) target = nullptr;
  } else {
    target = w->node;
    parent = parents.empty() ? nullptr : parents.back();
  }
  if (target == nullptr || parent == nullptr) {
    std::string shown;
    for (const auto& p : path) shown += (shown.empty() ? "" : " ") + p;
    return NotFound(Q(shown) + " is not configured");
  }
  auto& kids = parent->mutable_children();
  kids.erase(kids.begin() + (target - kids.data()));
  return Status::Ok();
}

std::vector<std::string> ConfigEditor::Complete(const ConfigNode& root,
                                                const std::vector<std::string>& path,
                                                std::string_view partial) const {
  std::vector<std::string> out;
  auto w = Descend(const_cast<ConfigNode*>(&root), path, /*create=*/false, nullptr);
  if (!w.ok()) return out;
  const TemplateNode& t = *w->tmpl;
  const bool leaf_values = t.kind == NodeKind::kLeaf;
  if (!w->wants_key && !leaf_values) {
    for (const auto& c : t.children) out.push_back(c->name);
  } else if (leaf_values && w->used < path.size() && !t.list) {
    return out;  // the one value is already given
  } else {
    if (w->wants_key && w->node != nullptr) {
      for (const auto& c : w->node->children()) {
        if (c.keyword() == t.name) out.push_back(c.first_arg());
      }
    }
    if (leaf_values && w->node != nullptr) {
      if (const ConfigNode* leaf = w->node->FindChild(t.name)) {
        for (const auto& a : leaf->args()) out.push_back(a.text);
      }
    }
    out.insert(out.end(), t.value.enum_values.begin(), t.value.enum_values.end());
    if (t.value.type == ValueType::kBool) out.insert(out.end(), {"false", "true"});
    if (!t.ref.empty()) {
      auto keys = templates_.KeysAt(root, t.ref);
      out.insert(out.end(), keys.begin(), keys.end());
    }
  }
  std::erase_if(out, [&](const std::string& s) { return s.rfind(partial, 0) != 0; });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

StatusOr<std::string> ConfigEditor::Help(const std::vector<std::string>& path) const {
  ConfigNode scratch;
  auto w = Descend(&scratch, path, /*create=*/false, nullptr);
  if (!w.ok()) return w.status();
  const TemplateNode& t = *w->tmpl;
  std::string out;
  if (!t.name.empty()) {
    out = t.Syntax() + ": " + (t.help.empty() ? "(no help)" : t.help) + "\n";
    if (t.kind != NodeKind::kContainer) out += "  type: " + t.value.Describe() + "\n";
    if (t.default_value) out += "  default: " + *t.default_value + "\n";
    if (t.mandatory) out += "  mandatory\n";
    if (!t.ref.empty()) out += "  must name a defined '" + t.ref + "'\n";
  }
  for (const auto& c : t.children) {
    std::string line = "  " + c->Syntax();
    line.resize(std::max<size_t>(line.size() + 1, 34), ' ');
    out += line + c->help + (c->mandatory ? " (mandatory)" : "") + "\n";
  }
  return out;
}

StatusOr<std::vector<std::string>> ConfigEditor::SplitWords(std::string_view line) {
  ConfigLexer lexer(line, "command");
  std::vector<std::string> words;
  while (true) {
    auto tok = lexer.Next();
    if (!tok.ok()) return tok.status();
    if (tok->kind == ConfigToken::Kind::kEnd) return words;
    words.push_back(tok->text);
  }
}

}  // namespace strata::rtrmgr
