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
      }
    }
  }
}

StatusOr<ipc::Xrl> MakeXrl(const std::string& target, const std::string& method,
                           const std::string& args) {
  return ipc::Xrl::Parse("finder://" + target + "/bgp/1.0/" + method + "?" + args);
}

PlanAction MakeAction(PlanAction::Kind kind, const std::string& vr, const std::string& name,
                      uint32_t rank, ipc::Xrl xrl, std::optional<ipc::Xrl> undo) {
  PlanAction a;
  a.kind = kind;
  a.path = "policy policy-statement " + name;
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
  const ConfigNode* def = st->FindChild("default-action");
  w.Txt("default_action", ActionName(def != nullptr ? def->first_arg() : "reject"));
  return MakeXrl(target, "define_policy", w.text());
}

std::vector<std::string> PolicyCompiler::Referenced(const ConfigNode& root, const std::string& vr) {
  std::set<std::string> names;
  const ConfigNode* v = root.FindChild("virtual-router", vr);
  const ConfigNode* bgp = v != nullptr ? v->FindChild("bgp") : nullptr;
  if (bgp == nullptr) return {};
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
                     name, bgp_rank, xrl, std::move(undo)));
    }
  }
  for (const auto& [vr, defs] : *old_defs) {
    auto new_vr = new_defs->find(vr);
    if (new_vr == new_defs->end()) continue;  // the speaker goes away with its policies
    for (const auto& [name, xrl] : defs) {
      if (new_vr->second.contains(name)) continue;
      auto del = MakeXrl("bgp." + vr, "delete_policy", "name:txt=" + ipc::PercentEncode(name));
      if (!del.ok()) return del.status();
      plan.deletes.push_back(
          MakeAction(PlanAction::Kind::kDelete, vr, name, bgp_rank, std::move(*del), xrl));
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
