#include "rtrmgr/policy_compiler.h"

#include <algorithm>
#include <map>
#include <set>

namespace strata::rtrmgr {
namespace {

bool IsV6(const std::string& text) { return text.find(':') != std::string::npos; }

class AtomWriter {
 public:
  void Txt(const std::string& name, const std::string& value) {
    Add(name + ":txt=" + ipc::PercentEncode(value));
  }
  void U32(const std::string& name, const std::string& value) { Add(name + ":u32=" + value); }
  void Bool(const std::string& name) { Add(name + ":bool=true"); }
  void Addr(const std::string& name, const std::string& value) {
    Add(name + (IsV6(value) ? ":ipv6=" : ":ipv4=") + value);
  }
  void Net(const std::string& name, const std::string& value) {
    Add(name + (IsV6(value) ? ":ipv6net=" : ":ipv4net=") + value);
  }
  void TxtList(const std::string& name, const std::vector<std::string>& values) {
    std::string v;
    for (const auto& s : values) v += (v.empty() ? "" : ",") + ipc::PercentEncode(s);
    Add(name + ":list<txt>=" + v);
  }
  void AddrList(const std::string& name, const std::vector<std::string>& values) {
    std::string v;
    for (const auto& s : values) v += (v.empty() ? "" : ",") + s;
    Add(name + (IsV6(values.front()) ? ":list<ipv6>=" : ":list<ipv4>=") + v);
  }
  const std::string& text() const { return text_; }

 private:
  void Add(const std::string& atom) { text_ += (text_.empty() ? "" : "&") + atom; }
  std::string text_;
};

// Config list nodes sent as list<txt> fields of the same meaning.
struct ListNode {
  const char* keyword;
  const char* field;
};
constexpr ListNode kFromLists[] = {
    {"prefix-list", "prefix_lists"},
    {"community-set", "community_sets"},
    {"ext-community", "ext_communities"},
    {"ext-community-set", "ext_community_sets"},
    {"large-community", "large_communities"},
    {"large-community-set", "large_community_sets"},
    {"as-path-set", "as_path_sets"},
    {"next-hop", "nexthops"},
    {"origin", "origins"},
    {"rpki", "rpki"},
};
constexpr ListNode kThenLists[] = {
    {"community-delete", "delete_communities"},
    {"community-delete-set", "delete_community_sets"},
    {"large-community-delete", "delete_large_communities"},
    {"large-community-delete-set", "delete_large_community_sets"},
    {"large-community-add", "add_large_communities"},
    {"ext-community-delete", "delete_ext_communities"},
    {"ext-community-delete-set", "delete_ext_community_sets"},
    {"ext-community-add", "add_ext_communities"},
};

template <size_t N>
const char* ListField(const ListNode (&table)[N], const std::string& keyword) {
  for (const ListNode& n : table) {
    if (keyword == n.keyword) return n.field;
  }
  return nullptr;
}

// The sets a statement's terms name, by set keyword ("prefix-list", ...), sorted, once each.
std::map<std::string, std::set<std::string>> NamedSets(const ConfigNode& statement) {
  static const std::map<std::string, std::string> kSetOf = {
      {"prefix-list", "prefix-list"},
      {"community-set", "community-set"},
      {"community-delete-set", "community-set"},
      {"ext-community-set", "ext-community-set"},
      {"ext-community-delete-set", "ext-community-set"},
      {"large-community-set", "large-community-set"},
      {"large-community-delete-set", "large-community-set"},
      {"as-path-set", "as-path-set"},
  };
  std::map<std::string, std::set<std::string>> out;
  for (const ConfigNode& term : statement.children()) {
    if (term.keyword() != "term") continue;
    for (const char* part : {"from", "then"}) {
      const ConfigNode* node = term.FindChild(part);
      if (node == nullptr) continue;
      for (const ConfigNode& c : node->children()) {
        auto it = kSetOf.find(c.keyword());
        if (it == kSetOf.end()) continue;
        for (const auto& name : c.arg_texts()) out[it->second].insert(name);
      }
    }
  }
  return out;
}

// Writes the sets `statement` names, as defined under `policy`, into the request.
Status CompileSets(const ConfigNode& policy, const ConfigNode& statement, AtomWriter& w) {
  static const std::map<std::string, std::pair<std::string, std::string>> kField = {
      {"community-set", {"community_sets", "member"}},
      {"ext-community-set", {"ext_community_sets", "member"}},
      {"large-community-set", {"large_community_sets", "member"}},
      {"as-path-set", {"as_path_sets", "regex"}},
  };
  for (const auto& [kind, names] : NamedSets(statement)) {
    int n = 0;
    for (const auto& name : names) {
      const ConfigNode* set = policy.FindChild(kind, name);
      if (set == nullptr) return NotFound("no " + kind + " '" + name + "'");
      if (kind == "prefix-list") {
        const std::string q = "prefix_lists." + std::to_string(n++) + ".";
        w.Txt(q + "name", name);
        int m = 0;
        for (const ConfigNode& pfx : set->children()) {
          if (pfx.keyword() != "prefix") continue;
          const std::string r = q + "prefixes." + std::to_string(m++) + ".";
          w.Net(r + "prefix", pfx.first_arg());
          if (const ConfigNode* ge = pfx.FindChild("ge")) w.U32(r + "ge", ge->first_arg());
          if (const ConfigNode* le = pfx.FindChild("le")) w.U32(r + "le", le->first_arg());
        }
        continue;
      }
      const auto& [field, member] = kField.at(kind);
      const std::string q = field + "." + std::to_string(n++) + ".";
      w.Txt(q + "name", name);
      const ConfigNode* members = set->FindChild(member);
      w.TxtList(q + (member == "regex" ? "regexes" : "members"),
                members != nullptr ? members->arg_texts() : std::vector<std::string>());
    }
  }
  return Status::Ok();
}

std::string ActionName(const std::string& action) {
  if (action == "accept") return "POLICY_ACTION_ACCEPT";
  if (action == "reject") return "POLICY_ACTION_REJECT";
  return "POLICY_ACTION_NEXT_TERM";
}

void CompileTerm(const ConfigNode& term, const std::string& p, AtomWriter& w) {
  w.Txt(p + "name", term.first_arg());
  int prefixes = 0;
  if (const ConfigNode* from = term.FindChild("from")) {
    for (const ConfigNode& c : from->children()) {
      const std::string& k = c.keyword();
      if (k == "prefix") {
        for (const auto& a : c.arg_texts()) {
          w.Net(p + "prefixes." + std::to_string(prefixes++) + ".prefix", a);
        }
      } else if (k == "route-filter") {
        const std::string q = p + "prefixes." + std::to_string(prefixes++) + ".";
        w.Net(q + "prefix", c.first_arg());
        if (const ConfigNode* ge = c.FindChild("ge")) w.U32(q + "ge", ge->first_arg());
        if (const ConfigNode* le = c.FindChild("le")) w.U32(q + "le", le->first_arg());
      } else if (k == "protocol") {
        w.TxtList(p + "protocols", c.arg_texts());
      } else if (k == "community") {
        w.TxtList(p + "communities", c.arg_texts());
      } else if (k == "as-path") {
        w.Txt(p + "as_path_regex", c.first_arg());
      } else if (k == "neighbor" && !c.args().empty()) {
        w.AddrList(p + "neighbors", c.arg_texts());
      } else if (const char* field = ListField(kFromLists, k)) {
        w.TxtList(p + field, c.arg_texts());
      }
    }
  }
  if (const ConfigNode* then = term.FindChild("then")) {
    for (const ConfigNode& c : then->children()) {
      const std::string& k = c.keyword();
      if (k == "action") {
        w.Txt(p + "action", ActionName(c.first_arg()));
      } else if (k == "local-preference") {
        w.U32(p + "set_local_pref", c.first_arg());
      } else if (k == "metric") {
        w.U32(p + "set_med", c.first_arg());
      } else if (k == "next-hop") {
        w.Addr(p + "set_nexthop", c.first_arg());
      } else if (k == "community-add") {
        w.TxtList(p + "add_communities", c.arg_texts());
      } else if (k == "as-path-prepend") {
        w.U32(p + "prepend_count", c.first_arg());
      } else if (k == "as-path-prepend-as") {
        w.U32(p + "prepend_as", c.first_arg());
      } else if (k == "origin") {
        w.Txt(p + "set_origin", c.first_arg());
      } else if (k == "community-replace") {
        w.Bool(p + "replace_communities");
        w.TxtList(p + "set_communities", c.arg_texts());
      } else if (k == "ext-community-replace") {
        w.Bool(p + "replace_ext_communities");
        w.TxtList(p + "set_ext_communities", c.arg_texts());
      } else if (k == "large-community-replace") {
        w.Bool(p + "replace_large_communities");
        w.TxtList(p + "set_large_communities", c.arg_texts());
      } else if (const char* field = ListField(kThenLists, k)) {
        w.TxtList(p + field, c.arg_texts());
      }
    }
  }
}

StatusOr<ipc::Xrl> MakeXrl(const std::string& target, const std::string& method,
                           const std::string& args) {
  return ipc::Xrl::Parse("finder://" + target + "/bgp/1.0/" + method + "?" + args);
}

// Where `name` is written in `root` (line 0: nowhere known).
SourcePos StatementPos(const ConfigNode& root, const std::string& name) {
  const ConfigNode* policy = root.FindChild("policy");
  const ConfigNode* st = policy != nullptr ? policy->FindChild("policy-statement", name) : nullptr;
  return st != nullptr ? st->pos() : SourcePos{};
}

PlanAction MakeAction(PlanAction::Kind kind, const std::string& vr, const std::string& name,
                      const SourcePos& pos, uint32_t rank, ipc::Xrl xrl,
                      std::optional<ipc::Xrl> undo) {
  PlanAction a;
  a.kind = kind;
  a.path = "policy policy-statement " + name;
  a.pos = pos;
  a.process = "bgp";
  a.instance = "bgp." + vr;
  a.rank = rank;
  a.xrl = std::move(xrl);
  a.undo = std::move(undo);
  return a;
}

// For each VR with bgp: statement -> compiled XRL.
StatusOr<std::map<std::string, std::map<std::string, ipc::Xrl>>> CompileAll(
    const ConfigNode& root) {
  std::map<std::string, std::map<std::string, ipc::Xrl>> out;
  for (const ConfigNode& vr : root.children()) {
    if (vr.keyword() != "virtual-router" || vr.FindChild("bgp") == nullptr) continue;
    auto& defs = out[vr.first_arg()];
    for (const auto& name : PolicyCompiler::Referenced(root, vr.first_arg())) {
      auto xrl = PolicyCompiler::Compile(root, name, "bgp." + vr.first_arg());
      if (!xrl.ok()) return xrl.status();
      defs.emplace(name, std::move(*xrl));
    }
  }
  return out;
}

}  // namespace

StatusOr<ipc::Xrl> PolicyCompiler::Compile(const ConfigNode& root, const std::string& name,
                                           const std::string& target) {
  const ConfigNode* policy = root.FindChild("policy");
  const ConfigNode* st = policy != nullptr ? policy->FindChild("policy-statement", name) : nullptr;
  if (st == nullptr) return NotFound("no policy-statement '" + name + "'");
  AtomWriter w;
  w.Txt("name", name);
  int n = 0;
  for (const ConfigNode& c : st->children()) {
    if (c.keyword() == "term") CompileTerm(c, "terms." + std::to_string(n++) + ".", w);
  }
  if (Status s = CompileSets(*policy, *st, w); !s.ok()) return s;
  const ConfigNode* def = st->FindChild("default-action");
  w.Txt("default_action", ActionName(def != nullptr ? def->first_arg() : "reject"));
  return MakeXrl(target, "define_policy", w.text());
}

std::vector<std::string> PolicyCompiler::Referenced(const ConfigNode& root, const std::string& vr) {
  std::set<std::string> names;
  const ConfigNode* v = root.FindChild("virtual-router", vr);
  const ConfigNode* bgp = v != nullptr ? v->FindChild("bgp") : nullptr;
  if (bgp == nullptr) return {};
  for (const char* dir : {"import", "export"}) {
    if (const ConfigNode* p = bgp->FindChild(dir)) names.insert(p->first_arg());
  }
  for (const ConfigNode& peer : bgp->children()) {
    if (peer.keyword() != "peer") continue;
    for (const char* dir : {"import", "export"}) {
      if (const ConfigNode* p = peer.FindChild(dir)) names.insert(p->first_arg());
    }
  }
  return {names.begin(), names.end()};
}

StatusOr<PolicyCompiler::Plan> PolicyCompiler::Diff(const ConfigNode& running,
                                                    const ConfigNode& candidate,
                                                    uint32_t bgp_rank) {
  auto old_defs = CompileAll(running);
  if (!old_defs.ok()) return old_defs.status();
  auto new_defs = CompileAll(candidate);
  if (!new_defs.ok()) return new_defs.status();
  Plan plan;
  for (const auto& [vr, defs] : *new_defs) {
    auto old_vr = old_defs->find(vr);
    for (const auto& [name, xrl] : defs) {
      const ipc::Xrl* old = nullptr;
      if (old_vr != old_defs->end()) {
        if (auto it = old_vr->second.find(name); it != old_vr->second.end()) old = &it->second;
      }
      if (old != nullptr && *old == xrl) continue;
      std::optional<ipc::Xrl> undo;
      if (old != nullptr) {
        undo = *old;
      } else {
        auto del = MakeXrl("bgp." + vr, "delete_policy", "name:txt=" + ipc::PercentEncode(name));
        if (!del.ok()) return del.status();
        undo = std::move(*del);
      }
      plan.defines.push_back(
          MakeAction(old != nullptr ? PlanAction::Kind::kChange : PlanAction::Kind::kCreate, vr,
                     name, StatementPos(candidate, name), bgp_rank, xrl, std::move(undo)));
    }
  }
  for (const auto& [vr, defs] : *old_defs) {
    auto new_vr = new_defs->find(vr);
    if (new_vr == new_defs->end()) continue;  // the speaker goes away with its policies
    for (const auto& [name, xrl] : defs) {
      if (new_vr->second.contains(name)) continue;
      auto del = MakeXrl("bgp." + vr, "delete_policy", "name:txt=" + ipc::PercentEncode(name));
      if (!del.ok()) return del.status();
      plan.deletes.push_back(MakeAction(PlanAction::Kind::kDelete, vr, name,
                                        StatementPos(running, name), bgp_rank, std::move(*del),
                                        xrl));
    }
  }
  return plan;
}

std::vector<PlanAction> PolicyCompiler::Merge(std::vector<PlanAction> plan, Plan policy) {
  auto pos = std::find_if(plan.begin(), plan.end(), [](const PlanAction& a) {
    return a.process == "bgp" && a.kind != PlanAction::Kind::kDelete;
  });
  plan.insert(pos, std::make_move_iterator(policy.defines.begin()),
              std::make_move_iterator(policy.defines.end()));
  plan.insert(plan.end(), std::make_move_iterator(policy.deletes.begin()),
              std::make_move_iterator(policy.deletes.end()));
  return plan;
}

}  // namespace strata::rtrmgr
