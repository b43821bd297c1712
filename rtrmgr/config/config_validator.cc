#include "rtrmgr/config/config_validator.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_printer.h"
#include "rtrmgr/config/config_rules.h"
#include "rtrmgr/config/peer_groups.h"

namespace strata::rtrmgr {
namespace {

std::string Q(const std::string& s) { return "'" + s + "'"; }

std::string Shown(const ConfigNode& node, const TemplateNode& tmpl) {
  if (tmpl.kind == NodeKind::kKeyed && !node.args().empty()) {
    return node.keyword() + " " + ConfigPrinter::Quote(node.first_arg());
  }
  return node.keyword();
}

std::string Join(const std::string& path, const std::string& next) {
  return path.empty() ? next : path + " " + next;
}

void SortByPosition(std::vector<ConfigError>& v) {
  std::stable_sort(v.begin(), v.end(), [](const ConfigError& a, const ConfigError& b) {
    return std::tie(a.pos.file, a.pos.line, a.pos.column) <
           std::tie(b.pos.file, b.pos.line, b.pos.column);
  });
}

// A finding of the schema (no rule id), an error.
ConfigError Schema(SourcePos pos, std::string reason, std::string path) {
  return ConfigError{std::move(pos), std::move(reason), std::move(path), false, ""};
}

std::string Lines(const std::vector<ConfigError>& v) {
  std::string text;
  for (const auto& e : v) text += (text.empty() ? "" : "\n") + e.ToString();
  return text;
}

}  // namespace

std::string ConfigError::ToString() const {
  const std::string kind = warning ? "warning: " : "";
  if (pos.line > 0) return pos.ToString() + ": " + kind + reason;
  if (!path.empty()) return path + ": " + kind + reason;
  if (!pos.file.empty()) return pos.file + ": " + kind + reason;
  return kind + reason;
}

Status ValidationReport::ToStatus() const {
  if (errors.empty()) return Status::Ok();
  return InvalidArgument(Lines(errors));
}

std::string ValidationReport::WarningText() const { return Lines(warnings); }

std::string ValidationReport::Listing() const {
  std::vector<ConfigError> all = errors;
  all.insert(all.end(), warnings.begin(), warnings.end());
  SortByPosition(all);
  return Lines(all);
}

bool ConfigValidator::CheckArgs(const ConfigNode& node, const TemplateNode& tmpl,
                                const std::string& path, std::vector<ConfigError>& errors,
                                std::vector<Ref>& refs) const {
  const auto& args = node.args();
  const std::string kw = Q(node.keyword());
  auto fail = [&](const SourcePos& pos, std::string reason) {
    errors.push_back(Schema(pos, std::move(reason), path));
    return false;
  };
  switch (tmpl.kind) {
    case NodeKind::kContainer:
      if (!args.empty()) return fail(args[0].pos, kw + " takes no value");
      return true;
    case NodeKind::kKeyed:
      if (args.empty())
        return fail(node.pos(), kw + " needs a key (" + tmpl.value.Describe() + ")");
      if (args.size() > 1) return fail(args[1].pos, kw + " takes one key");
      break;
    case NodeKind::kLeaf:
      if (!node.children().empty()) return fail(node.pos(), kw + " takes no block");
      if (args.empty() && !tmpl.bare_value) {
        return fail(node.pos(), kw + " needs a value (" + tmpl.value.Describe() + ")");
      }
      if (args.size() > 1 && !tmpl.list) return fail(args[1].pos, kw + " takes one value");
      break;
  }
  for (const auto& a : args) {
    if (std::string why = tmpl.value.Check(a.text); !why.empty()) {
      return fail(a.pos, why + " for " + kw);
    }
  }
  if (!tmpl.ref.empty()) {
    for (const auto& a : args) {
      refs.push_back({tmpl.value.Canonical(a.text), a.text, a.pos, path, &tmpl});
    }
  }
  return true;
}

void ConfigValidator::ValidateChildren(const ConfigNode& node, const TemplateNode& tmpl,
                                       const std::string& path, std::vector<ConfigError>& errors,
                                       std::vector<Ref>& refs) const {
  std::map<std::string, SourcePos> seen;
  for (const auto& child : node.children()) {
    const TemplateNode* ct = tmpl.Find(child.keyword());
    if (ct == nullptr) {
      errors.push_back(Schema(
          child.pos(),
          "unknown node " + Q(child.keyword()) + (path.empty() ? "" : " in " + Q(path)), path));
      continue;
    }
    // A finding about a node names the node that holds it (where `set` and `delete` edit it).
    if (!CheckArgs(child, *ct, path, errors, refs)) continue;
    const std::string id = ct->Identity(child);
    if (auto [it, fresh] = seen.emplace(id, child.pos()); !fresh) {
      const std::string first =
          it->second.line > 0 ? " (first at " + it->second.ToString() + ")" : "";
      errors.push_back(Schema(child.pos(), "duplicate " + Q(Shown(child, *ct)) + first, path));
      continue;
    }
    if (ct->kind != NodeKind::kLeaf) {
      ValidateChildren(child, *ct, Join(path, Shown(child, *ct)), errors, refs);
    }
  }
  for (const auto& ct : tmpl.children) {
    if (ct->mandatory && node.FindChild(ct->name) == nullptr) {
      errors.push_back(Schema(node.pos(),
                              (path.empty() ? std::string("configuration") : Q(path)) +
                                  " is missing mandatory " + Q(ct->name),
                              path));
    }
  }
}

ValidationReport ConfigValidator::Examine(const ConfigNode& root) const {
  std::vector<ConfigError> errors;
  std::vector<Ref> refs;
  ValidateChildren(root, templates_.root(), "", errors, refs);
  std::map<std::string, std::vector<std::string>> defined;
  for (const auto& ref : refs) {
    auto [it, fresh] = defined.try_emplace(ref.tmpl->ref);
    if (fresh) it->second = templates_.KeysAt(root, ref.tmpl->ref);
    if (std::find(it->second.begin(), it->second.end(), ref.value) == it->second.end()) {
      errors.push_back(
          Schema(ref.pos, Q(ref.shown) + " is not a defined " + Q(ref.tmpl->ref), ref.path));
    }
  }
  std::vector<ConfigError> findings;
  // The rules see each neighbor with its group's settings (a missing `as` may be the group's).
  ConfigRules::Check(PeerGroups::Expand(root, /*keep_groups=*/true), templates_, findings);
  ValidationReport report;
  report.errors = std::move(errors);
  for (auto& f : findings) (f.warning ? report.warnings : report.errors).push_back(std::move(f));
  SortByPosition(report.errors);
  SortByPosition(report.warnings);
  // A group's value is checked once per member: one finding per place and reason.
  for (auto* list : {&report.errors, &report.warnings}) {
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
  return report;
}

std::vector<ConfigError> ConfigValidator::Validate(const ConfigNode& root) const {
  return Examine(root).errors;
}

Status ConfigValidator::Check(const ConfigNode& root) const { return Examine(root).ToStatus(); }

StatusOr<ValidationReport> ConfigValidator::ExamineFile(const std::string& path) const {
  auto tree = ConfigParser::ParseFile(path);
  if (!tree.ok()) return tree.status();
  return Examine(*tree);
}

Status ConfigValidator::ValidateFile(const std::string& path) const {
  auto report = ExamineFile(path);
  return report.ok() ? report->ToStatus() : report.status();
}

}  // namespace strata::rtrmgr
