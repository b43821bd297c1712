#include "rtrmgr/config/template_tree.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include "rtrmgr/config/config_parser.h"

namespace strata::rtrmgr {
namespace {

void CollectKeys(const ConfigNode& node, const TemplateNode& tmpl, const std::string& path,
                 const std::string& want, std::vector<std::string>& keys) {
  for (const auto& child : node.children()) {
    const TemplateNode* ct = tmpl.Find(child.keyword());
    if (ct == nullptr) continue;
    std::string sub = path.empty() ? ct->name : path + " " + ct->name;
    if (sub == want) {
      if (ct->kind == NodeKind::kKeyed) keys.push_back(ct->value.Canonical(child.first_arg()));
    } else if (want.rfind(sub + " ", 0) == 0) {
      CollectKeys(child, *ct, sub, want, keys);
    }
  }
}

Status Error(const SourcePos& pos, const std::string& reason) {
  return InvalidArgument(pos.ToString() + ": " + reason);
}

Status WantArgs(const ConfigNode& d, size_t n) {
  if (d.args().size() != n) {
    return Error(d.pos(), "'" + d.keyword() + "' takes " + std::to_string(n) + " value" +
                              (n == 1 ? "" : "s"));
  }
  if (!d.children().empty()) return Error(d.pos(), "'" + d.keyword() + "' takes no block");
  return Status::Ok();
}

Status ApplyDirective(TemplateNode& node, const ConfigNode& d) {
  const std::string& name = d.keyword();
  static const std::set<std::string> kKnown = {
      "%key",  "%type",    "%enum",   "%range",  "%list",   "%default", "%mandatory", "%ref",
      "%help", "%process", "%create", "%change", "%delete", "%bare",    "%like",      "%uses"};
  if (kKnown.count(name) == 0) return Error(d.pos(), "unknown directive '" + name + "'");
  if (auto it = node.set_at.find(name); it != node.set_at.end()) {
    return Error(d.pos(),
                 "'" + name + "' of '" + node.Path() + "' already set at " + it->second.ToString());
  }
  node.set_at[name] = d.pos();
  if (name == "%enum") {
    if (d.args().empty() || !d.children().empty()) return Error(d.pos(), "'%enum' needs values");
    node.value.enum_values = d.arg_texts();
    return Status::Ok();
  }
  if (name == "%list" || name == "%mandatory") {
    if (Status s = WantArgs(d, 0); !s.ok()) return s;
    (name == "%list" ? node.list : node.mandatory) = true;
    return Status::Ok();
  }
  if (name == "%like") {
    if (d.args().empty() || !d.children().empty()) {
      return Error(d.pos(), "'%like' needs a keyword path, then the children to leave out");
    }
    node.like = d.arg_texts();
    return Status::Ok();
  }
  if (name == "%range") {
    if (Status s = WantArgs(d, 2); !s.ok()) return s;
    node.value.min = ValueSpec::ParseU32(d.args()[0].text);
    node.value.max = ValueSpec::ParseU32(d.args()[1].text);
    if (!node.value.min || !node.value.max || *node.value.min > *node.value.max) {
      return Error(d.pos(), "'%range' needs two u32 values MIN <= MAX");
    }
    return Status::Ok();
  }
  if (Status s = WantArgs(d, 1); !s.ok()) return s;
  const std::string& v = d.args()[0].text;
  if (name == "%key" || name == "%type") {
    auto t = ParseValueType(v);
    if (!t) return Error(d.args()[0].pos, "unknown type '" + v + "'");
    node.value.type = *t;
  } else if (name == "%default") {
    node.default_value = v;
  } else if (name == "%bare") {
    node.bare_value = v;
  } else if (name == "%ref") {
    node.ref = v;
  } else if (name == "%help") {
    node.help = v;
  } else if (name == "%process") {
    node.process = v;
  } else if (name == "%uses") {
    node.uses = v;
  } else if (name == "%create" || name == "%change" || name == "%delete") {
    if (v.rfind("finder://", 0) != 0) return Error(d.args()[0].pos, "an XRL starts finder://");
    (name == "%create" ? node.create : name == "%change" ? node.change : node.del) = v;
  }
  return Status::Ok();
}

Status MergeNode(TemplateNode& parent, const ConfigNode& stmt) {
  if (!stmt.args().empty()) {
    return Error(stmt.args()[0].pos, "a template node is one word; use %key or %type");
  }
  TemplateNode* node = const_cast<TemplateNode*>(parent.Find(stmt.keyword()));
  if (node == nullptr) {
    auto fresh = std::make_unique<TemplateNode>();
    fresh->name = stmt.keyword();
    fresh->pos = stmt.pos();
    fresh->parent = &parent;
    node = parent.children.emplace_back(std::move(fresh)).get();
  }
  for (const auto& c : stmt.children()) {
    Status s = c.keyword()[0] == '%' ? ApplyDirective(*node, c) : MergeNode(*node, c);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

// A copy of `from`'s subtree under `parent`, without XRLs (the copy only describes settings).
std::unique_ptr<TemplateNode> CloneSettings(const TemplateNode& from, TemplateNode* parent) {
  auto out = std::make_unique<TemplateNode>();
  out->name = from.name;
  out->kind = from.kind;
  out->value = from.value;
  out->list = from.list;
  out->default_value = from.default_value;
  out->bare_value = from.bare_value;
  out->ref = from.ref;
  out->help = from.help;
  out->pos = from.pos;
  out->parent = parent;
  out->copied = true;
  out->set_at = from.set_at;
  for (const char* xrl : {"%create", "%change", "%delete", "%process", "%uses", "%mandatory"}) {
    out->set_at.erase(xrl);
  }
  for (const auto& c : from.children) out->children.push_back(CloneSettings(*c, out.get()));
  return out;
}

StatusOr<ProcessDef> ParseProcessDef(const ConfigNode& stmt) {
  if (stmt.args().size() != 1) return Error(stmt.pos(), "'%define-process' takes a name");
  ProcessDef def{stmt.first_arg(), "", 0, "", stmt.pos(), {}, {}};
  for (const auto& c : stmt.children()) {
    if (Status s = WantArgs(c, 1); !s.ok()) return s;
    const std::string& v = c.first_arg();
    if (c.keyword() == "instance") {
      def.instance = v;
    } else if (c.keyword() == "help") {
      def.help = v;
    } else if (c.keyword() == "rank") {
      auto r = ValueSpec::ParseU32(v);
      if (!r) return Error(c.args()[0].pos, "'rank' is a u32");
      def.rank = *r;
    } else if (c.keyword() == "arg") {
      def.args.push_back(v);
    } else if (c.keyword() == "requires") {
      def.requires_.push_back(v);
    } else {
      return Error(c.pos(), "unknown process attribute '" + c.keyword() + "'");
    }
  }
  if (def.instance.empty()) return Error(stmt.pos(), "process '" + def.name + "' needs instance");
  return def;
}

}  // namespace

StatusOr<TemplateTree> TemplateTree::LoadTexts(
    const std::vector<std::pair<std::string, std::string>>& files) {
  TemplateTree t;
  t.root_ = std::make_unique<TemplateNode>();
  for (const auto& [file, text] : files) {
    if (Status s = t.AddFile(file, text); !s.ok()) return s;
  }
  if (Status s = t.ResolveLikes(*t.root_); !s.ok()) return s;
  if (Status s = t.Finalize(*t.root_); !s.ok()) return s;
  if (Status s = t.CheckRefs(*t.root_); !s.ok()) return s;
  for (const auto& [name, def] : t.processes_) {
    for (const std::string& r : def.requires_) {
      auto it = t.processes_.find(r);
      if (it == t.processes_.end()) {
        return Error(def.pos, "process '" + name + "' requires undefined process '" + r + "'");
      }
      if (it->second.rank >= def.rank) {
        return Error(def.pos,
                     "process '" + name + "' requires '" + r + "', which must rank before it");
      }
    }
  }
  return t;
}

std::string TemplateTree::DefaultDirectory() {
  if (const char* d = std::getenv("STRATA_TEMPLATE_DIR"); d != nullptr && *d != '\0') return d;
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "share/strata/templates";
  return (exe.parent_path().parent_path() / "share" / "strata" / "templates").string();
}

StatusOr<TemplateTree> TemplateTree::LoadDirectory(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".tmpl") paths.push_back(entry.path().string());
  }
  if (ec) return NotFound(dir + ": " + ec.message());
  if (paths.empty()) return NotFound(dir + ": no *.tmpl files");
  std::sort(paths.begin(), paths.end());
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& p : paths) {
    auto text = ConfigParser::ReadFile(p);
    if (!text.ok()) return text.status();
    files.emplace_back(p, std::move(*text));
  }
  return LoadTexts(files);
}

Status TemplateTree::AddFile(const std::string& file, const std::string& text) {
  auto parsed = ConfigParser::Parse(text, file);
  if (!parsed.ok()) return parsed.status();
  for (const auto& stmt : parsed->children()) {
    if (stmt.keyword() == "%define-process") {
      auto def = ParseProcessDef(stmt);
      if (!def.ok()) return def.status();
      if (auto it = processes_.find(def->name); it != processes_.end()) {
        return Error(stmt.pos(),
                     "process '" + def->name + "' already defined at " + it->second.pos.ToString());
      }
      processes_[def->name] = std::move(*def);
    } else if (stmt.keyword()[0] == '%') {
      return Error(stmt.pos(), "'" + stmt.keyword() + "' is not allowed at the top level");
    } else if (Status s = MergeNode(*root_, stmt); !s.ok()) {
      return s;
    }
  }
  return Status::Ok();
}

Status TemplateTree::Finalize(TemplateNode& node) {
  const bool has_key = node.set_at.count("%key") > 0;
  const bool has_type = node.set_at.count("%type") > 0;
  const bool has_enum = node.set_at.count("%enum") > 0;
  const std::string what = "'" + node.Path() + "': ";
  if (has_key && has_type) return Error(node.pos, what + "both %key and %type");
  if (has_enum && !has_key && !has_type) node.value.type = ValueType::kEnum;
  node.kind = has_key                  ? NodeKind::kKeyed
              : (has_type || has_enum) ? NodeKind::kLeaf
                                       : NodeKind::kContainer;
  if ((node.value.type == ValueType::kEnum) != has_enum) {
    return Error(node.pos, what + "%enum goes with type enum");
  }
  if ((node.value.min || node.value.max) && node.value.type != ValueType::kU32) {
    return Error(node.pos, what + "%range needs type u32");
  }
  if (node.kind == NodeKind::kLeaf && !node.children.empty()) {
    return Error(node.pos, what + "a leaf has no children");
  }
  if (node.list && node.kind != NodeKind::kLeaf) return Error(node.pos, what + "%list on a leaf");
  if (node.default_value) {
    if (node.kind != NodeKind::kLeaf) return Error(node.pos, what + "%default on a leaf only");
    if (std::string why = node.value.Check(*node.default_value); !why.empty()) {
      return Error(node.set_at["%default"], what + why);
    }
  }
  if (node.bare_value) {
    if (node.kind != NodeKind::kLeaf) return Error(node.pos, what + "%bare on a leaf only");
    if (std::string why = node.value.Check(*node.bare_value); !why.empty()) {
      return Error(node.set_at["%bare"], what + why);
    }
  }
  if (node.set_at.count("%uses") > 0 && processes_.count(node.uses) == 0) {
    return Error(node.set_at["%uses"], what + "undefined process '" + node.uses + "'");
  }
  if (node.set_at.count("%process") > 0) {
    if (processes_.count(node.process) == 0) {
      return Error(node.set_at["%process"], what + "undefined process '" + node.process + "'");
    }
  } else if (node.parent != nullptr) {
    node.process = node.parent->process;
  }
  if (node.parent != nullptr && !node.process.empty() && !node.parent->process.empty() &&
      processes_[node.process].rank < processes_[node.parent->process].rank) {
    return Error(node.pos, what + "process '" + node.process + "' ranks before its parent's");
  }
  if (node.HasActions() && node.process.empty()) {
    return Error(node.pos, what + "a node with XRLs needs a %process");
  }
  for (auto& c : node.children) {
    if (Status s = Finalize(*c); !s.ok()) return s;
  }
  return Status::Ok();
}

Status TemplateTree::ResolveLikes(TemplateNode& node) {
  if (!node.like.empty()) {
    const TemplateNode* from = FindPath(node.like[0]);
    if (from == nullptr || from == &node) {
      return Error(node.set_at["%like"],
                   "'" + node.Path() + "': %like '" + node.like[0] + "' is not another node");
    }
    for (const auto& c : from->children) {
      if (node.Find(c->name) != nullptr ||
          std::find(node.like.begin() + 1, node.like.end(), c->name) != node.like.end()) {
        continue;
      }
      node.children.push_back(CloneSettings(*c, &node));
    }
  }
  for (size_t i = 0; i < node.children.size(); ++i) {
    if (Status s = ResolveLikes(*node.children[i]); !s.ok()) return s;
  }
  return Status::Ok();
}

Status TemplateTree::CheckRefs(const TemplateNode& node) const {
  if (!node.ref.empty()) {
    const TemplateNode* target = FindPath(node.ref);
    if (target == nullptr || target->kind != NodeKind::kKeyed) {
      return Error(node.pos, "'" + node.Path() + "': %ref '" + node.ref + "' is not a keyed node");
    }
  }
  for (const auto& c : node.children) {
    if (Status s = CheckRefs(*c); !s.ok()) return s;
  }
  return Status::Ok();
}

const ProcessDef* TemplateTree::FindProcess(const std::string& name) const {
  auto it = processes_.find(name);
  return it == processes_.end() ? nullptr : &it->second;
}

const TemplateNode* TemplateTree::FindPath(const std::string& path) const {
  std::istringstream in(path);
  const TemplateNode* node = root_.get();
  std::string word;
  while (node != nullptr && in >> word) node = node->Find(word);
  return node;
}

}  // namespace strata::rtrmgr

namespace strata::rtrmgr {

std::vector<std::string> TemplateTree::KeysAt(const ConfigNode& config,
                                              const std::string& path) const {
  std::vector<std::string> keys;
  CollectKeys(config, *root_, "", path, keys);
  return keys;
}

}  // namespace strata::rtrmgr
