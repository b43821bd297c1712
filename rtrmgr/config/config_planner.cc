#include "rtrmgr/config/config_planner.h"

#include <algorithm>
#include <functional>

#include "rtrmgr/config/peer_groups.h"
#include "rtrmgr/config/xrl_expander.h"

namespace strata::rtrmgr {
namespace {

using Chain = XrlExpander::Chain;

Chain With(Chain chain, const ConfigNode& node, const TemplateNode& tmpl) {
  chain.push_back({&node, &tmpl});
  return chain;
}

// The child of `parent` matching `node` (same keyword and identity), or nullptr.
const ConfigNode* Match(const ConfigNode& parent, const ConfigNode& node, const TemplateNode& t) {
  const std::string id = t.Identity(node);
  for (const auto& c : parent.children()) {
    if (c.keyword() == node.keyword() && t.Identity(c) == id) return &c;
  }
  return nullptr;
}

class Builder {
 public:
  explicit Builder(const TemplateTree& templates) : templates_(templates) {}

  Status status() const { return status_; }
  std::vector<PlanAction> Finish() {
    std::stable_sort(deletes_.begin(), deletes_.end(),
                     [](const PlanAction& a, const PlanAction& b) { return a.rank > b.rank; });
    std::stable_sort(creates_.begin(), creates_.end(),
                     [](const PlanAction& a, const PlanAction& b) { return a.rank < b.rank; });
    std::vector<PlanAction> out = std::move(deletes_);
    out.insert(out.end(), creates_.begin(), creates_.end());
    return out;
  }

  void DiffChildren(const ConfigNode& r, const ConfigNode& c, const TemplateNode& t,
                    const Chain& rchain, const Chain& cchain) {
    for (const auto& rc : r.children()) {
      const TemplateNode* ct = t.Find(rc.keyword());
      if (ct != nullptr && Match(c, rc, *ct) == nullptr) DeleteSubtree(With(rchain, rc, *ct));
    }
    for (const auto& cc : c.children()) {
      const TemplateNode* ct = t.Find(cc.keyword());
      if (ct == nullptr) continue;
      if (const ConfigNode* rc = Match(r, cc, *ct)) {
        DiffNode(With(rchain, *rc, *ct), With(cchain, cc, *ct));
      } else {
        CreateSubtree(With(cchain, cc, *ct));
      }
    }
  }

  void CreateSubtree(const Chain& chain) {
    const TemplateNode& t = *chain.back().tmpl;
    if (!t.create.empty()) Emit(PlanAction::Kind::kCreate, t.create, chain, t.del, chain);
    for (const auto& child : chain.back().node->children()) {
      if (const TemplateNode* ct = t.Find(child.keyword())) CreateSubtree(With(chain, child, *ct));
    }
  }

  void DeleteSubtree(const Chain& chain) {
    const TemplateNode& t = *chain.back().tmpl;
    for (const auto& child : chain.back().node->children()) {
      if (const TemplateNode* ct = t.Find(child.keyword())) DeleteSubtree(With(chain, child, *ct));
    }
    if (!t.del.empty()) Emit(PlanAction::Kind::kDelete, t.del, chain, t.create, chain);
  }

 private:
  void DiffNode(const Chain& rchain, const Chain& cchain) {
    const TemplateNode& t = *cchain.back().tmpl;
    const ConfigNode& r = *rchain.back().node;
    const ConfigNode& c = *cchain.back().node;
    if (t.kind == NodeKind::kLeaf) {
      if (r.args() == c.args() || !t.HasActions()) return;
      if (!t.change.empty()) {
        Emit(PlanAction::Kind::kChange, t.change, cchain, t.change, rchain);
      } else {
        DeleteSubtree(rchain);
        CreateSubtree(cchain);
      }
      return;
    }
    if (t.HasActions() && Dirty(r, c, t)) {
      if (t.change.empty()) {
        DeleteSubtree(rchain);
        CreateSubtree(cchain);
        return;
      }
      Emit(PlanAction::Kind::kChange, t.change, cchain, t.change, rchain);
    }
    DiffChildren(r, c, t, rchain, cchain);
  }

  // True if a descendant without XRLs of its own (reached through nodes without XRLs) differs.
  static bool Dirty(const ConfigNode& r, const ConfigNode& c, const TemplateNode& t) {
    for (const auto& ct : t.children) {
      if (ct->HasActions()) continue;
      const std::pair<const ConfigNode*, const ConfigNode*> sides[] = {{&r, &c}, {&c, &r}};
      for (const auto& [self, peer] : sides) {
        for (const auto& n : self->children()) {
          if (n.keyword() != ct->name) continue;
          const ConfigNode* other = Match(*peer, n, *ct);
          if (other == nullptr || n.args() != other->args()) return true;
          if (ct->kind != NodeKind::kLeaf && Dirty(n, *other, *ct)) return true;
        }
      }
    }
    return false;
  }

  void Emit(PlanAction::Kind kind, const std::string& xrl_tmpl, const Chain& chain,
            const std::string& undo_tmpl, const Chain& undo_chain) {
    if (!status_.ok()) return;
    const TemplateNode& t = *chain.back().tmpl;
    const ProcessDef* def = templates_.FindProcess(t.process);
    if (def == nullptr) {
      status_ = Internal("no process for '" + t.Path() + "'");
      return;
    }
    PlanAction action;
    action.kind = kind;
    action.path = XrlExpander::PathOf(chain);
    action.pos = chain.back().node->pos();
    action.process = def->name;
    action.rank = def->rank;
    auto instance = XrlExpander::ExpandText(def->instance, chain);
    auto xrl = XrlExpander::Expand(xrl_tmpl, chain);
    if (!instance.ok() || !xrl.ok()) {
      status_ = instance.ok() ? xrl.status() : instance.status();
      return;
    }
    action.instance = *instance;
    action.xrl = std::move(*xrl);
    if (!undo_tmpl.empty()) {
      auto undo = XrlExpander::Expand(undo_tmpl, undo_chain);
      if (!undo.ok()) {
        status_ = undo.status();
        return;
      }
      action.undo = std::move(*undo);
    }
    (kind == PlanAction::Kind::kDelete ? deletes_ : creates_).push_back(std::move(action));
  }

  const TemplateTree& templates_;
  Status status_;
  std::vector<PlanAction> deletes_;
  std::vector<PlanAction> creates_;
};

// An `arg "--NAME=$(LEAF)"` whose value is exactly one $(LEAF) that is not set (no value, no
// default) is left out, as an optional atom of an XRL is.
bool OptionalArgUnset(std::string_view arg, const Chain& chain) {
  const size_t eq = arg.find('=');
  if (eq == std::string_view::npos) return false;
  std::string_view v = arg.substr(eq + 1);
  if (v.size() < 4 || !v.starts_with("$(") || v.back() != ')' ||
      v.find("$(", 2) != std::string_view::npos) {
    return false;
  }
  return !XrlExpander::Lookup(chain, v.substr(2, v.size() - 3)).has_value();
}

void CollectProcesses(const TemplateTree& templates, const Chain& chain,
                      std::vector<ProcessInstance>& out, Status& status) {
  const TemplateNode& t = *chain.back().tmpl;
  // Adds the instance of `def` for this chain, then the processes it requires.
  std::function<void(const ProcessDef&, int)> add = [&](const ProcessDef& def, int depth) {
    auto instance = XrlExpander::ExpandText(def.instance, chain);
    if (!instance.ok()) {
      if (status.ok()) status = instance.status();
      return;
    }
    ProcessInstance p{def.name, *instance, def.rank, {}};
    for (const std::string& a : def.args) {
      if (OptionalArgUnset(a, chain)) continue;
      auto arg = XrlExpander::ExpandText(a, chain);
      if (!arg.ok()) {
        if (status.ok()) status = arg.status();
        return;
      }
      p.args.push_back(*arg);
    }
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
    if (depth > 8) return;  // a requires cycle; the template loader reports unknown names
    for (const std::string& r : def.requires_) {
      if (const ProcessDef* rd = templates.FindProcess(r)) add(*rd, depth + 1);
    }
  };
  if (const ProcessDef* def = templates.FindProcess(t.process)) add(*def, 0);
  if (const ProcessDef* def = templates.FindProcess(t.uses)) add(*def, 0);
  for (const auto& child : chain.back().node->children()) {
    if (const TemplateNode* ct = t.Find(child.keyword())) {
      CollectProcesses(templates, With(chain, child, *ct), out, status);
    }
  }
}

}  // namespace

StatusOr<std::vector<PlanAction>> ConfigPlanner::Plan(const ConfigNode& running,
                                                      const ConfigNode& candidate) const {
  Builder b(templates_);
  const ConfigNode r = PeerGroups::Expand(running, /*keep_groups=*/false);
  const ConfigNode c = PeerGroups::Expand(candidate, /*keep_groups=*/false);
  b.DiffChildren(r, c, templates_.root(), {}, {});
  if (!b.status().ok()) return b.status();
  return b.Finish();
}

StatusOr<std::vector<PlanAction>> ConfigPlanner::PlanCreate(const ConfigNode& candidate) const {
  return Plan(ConfigNode(), candidate);
}

StatusOr<std::vector<ProcessInstance>> ConfigPlanner::RequiredProcesses(
    const ConfigNode& tree) const {
  std::vector<ProcessInstance> out;
  Status status;
  for (const auto& child : tree.children()) {
    if (const TemplateNode* ct = templates_.root().Find(child.keyword())) {
      CollectProcesses(templates_, {{&child, ct}}, out, status);
    }
  }
  if (!status.ok()) return status;
  std::stable_sort(out.begin(), out.end(), [](const ProcessInstance& a, const ProcessInstance& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.instance < b.instance;
  });
  return out;
}

}  // namespace strata::rtrmgr
