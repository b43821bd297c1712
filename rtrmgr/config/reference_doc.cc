#include "rtrmgr/config/reference_doc.h"

#include <algorithm>

#include "rtrmgr/config/config_rules.h"

namespace strata::rtrmgr {
namespace {

// The path as written in a config: keys shown as <type>.
std::string WrittenPath(const TemplateNode& t) {
  if (t.parent == nullptr) return "";
  std::string up = WrittenPath(*t.parent);
  std::string self = t.kind == NodeKind::kContainer ? t.name : t.Syntax();
  return up.empty() ? self : up + " " + self;
}

void RenderNode(const TemplateNode& t, int depth, std::string& out) {
  out += std::string(static_cast<size_t>(std::min(depth + 2, 6)), '#') + " `" + WrittenPath(t) +
         "`\n\n";
  if (!t.help.empty()) out += t.help + "\n\n";
  const char* kind = t.kind == NodeKind::kContainer ? "container"
                     : t.kind == NodeKind::kKeyed   ? "keyed, may repeat"
                     : t.list                       ? "leaf, one or more values"
                                                    : "leaf";
  out += "- Kind: " + std::string(kind) + "\n";
  if (t.kind != NodeKind::kContainer) out += "- Type: `" + t.value.Describe() + "`\n";
  if (t.default_value) out += "- Default: `" + *t.default_value + "`\n";
  if (t.bare_value) out += "- Written alone: `" + *t.bare_value + "`\n";
  if (t.mandatory) out += "- Mandatory\n";
  if (!t.ref.empty()) out += "- Must name a defined `" + t.ref + "`\n";
  if (!t.process.empty()) out += "- Process: `" + t.process + "`\n";
  if (!t.create.empty()) out += "- Create: `" + t.create + "`\n";
  if (!t.change.empty()) out += "- Change: `" + t.change + "`\n";
  if (!t.del.empty()) out += "- Delete: `" + t.del + "`\n";
  if (!t.like.empty()) {
    out += "- Takes every setting of `" + t.like[0] + "`";
    for (size_t i = 1; i < t.like.size(); ++i) out += (i == 1 ? " but `" : ", `") + t.like[i] + "`";
    out += " (listed there)\n";
  }
  out += "\n";
  for (const auto& c : t.children) {
    if (!c->copied) RenderNode(*c, depth + 1, out);
  }
}

}  // namespace

std::string ReferenceDoc::Render(const TemplateTree& templates) {
  std::string out =
      "# Strata configuration reference\n\n"
      "Generated from `rtrmgr/templates/*.tmpl` by `strata-config-doc`; do not edit by hand\n"
      "(`rtrmgr_config_test` fails when this file and the templates disagree). Regenerate with\n"
      "`strata-config-doc rtrmgr/templates > docs/config-reference.md`.\n\n"
      "Syntax: statements `keyword [key-or-values] ;` or `keyword [key] { ... }`; comments `#`,\n"
      "`//` and `/* */`; quote values with spaces in `\"...\"`. XRL templates substitute `$(@)`\n"
      "(the node's key or value) and `$(NAME)` (the nearest enclosing node or leaf NAME).\n\n"
      "## Processes\n\n| Process | Instance | Rank | |\n|---|---|---|---|\n";
  for (const auto& [name, def] : templates.processes()) {
    out += "| `" + name + "` | `" + def.instance + "` | " + std::to_string(def.rank) + " | " +
           def.help + " |\n";
  }
  out += "\n## Nodes\n\n";
  for (const auto& c : templates.root().children) RenderNode(*c, 1, out);
  out +=
      "## Validation rules\n\n"
      "Checked across fields and processes by `strata-rtrmgr --check`, at boot and SIGHUP, and by\n"
      "strata-sh's `load`, `commit check` and `commit`, after the types and ranges above. An "
      "error\n"
      "refuses the configuration; a warning is printed and the configuration is accepted.\n\n"
      "| Rule | | Refused or warned | Why |\n|---|---|---|---|\n";
  for (const RuleInfo& r : ConfigRules::All()) {
    out += "| `" + std::string(r.id) + "` | " + (r.warning ? "warning" : "error") + " | " +
           std::string(r.what) + " | " + std::string(r.why) + " |\n";
  }
  return out;
}

}  // namespace strata::rtrmgr
