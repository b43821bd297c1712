// ShSession's configuration mode: editing the candidate at a level (`edit`, `up`, `top`),
// showing it, loading (validated at once) and merging files, committing it through the rtrmgr
// (with the places of loaded nodes, so errors name the operator's file:line:column; `commit
// confirmed`), saving the running configuration.
#include <unistd.h>

#include "common/atomic_file.h"
#include "libipc/call/atoms_json.h"
#include "rtrmgr/config/config_compare.h"
#include "rtrmgr/config/config_origins.h"
#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_printer.h"
#include "rtrmgr/config/config_validator.h"
#include "rtrmgr/sh/sh_session.h"

namespace strata::rtrmgr::sh {
namespace {

std::string UserName() {
  const char* u = std::getenv("USER");
  return u != nullptr ? u : "uid " + std::to_string(::getuid());
}

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& w : v) s += (s.empty() ? "" : " ") + w;
  return s;
}

// The words after the command's first (a configuration path), as typed (quotes removed).
std::vector<std::string> Rest(const ShCommand& cmd) {
  return std::vector<std::string>(cmd.words.begin() + 1, cmd.words.end());
}

// Checks that `path` names a level (a container, or a keyed node with its key) in the
// templates.
Status CheckLevel(const TemplateTree& templates, const std::vector<std::string>& path) {
  const TemplateNode* node = &templates.root();
  for (size_t i = 0; i < path.size(); ++i) {
    const TemplateNode* child = node->Find(path[i]);
    if (child == nullptr) {
      return InvalidArgument("'" + path[i] + "' is not a statement of '" +
                             (node->name.empty() ? "the top level" : node->Path()) + "'");
    }
    if (child->kind == NodeKind::kLeaf) {
      return InvalidArgument("'" + child->Path() + "' is a value, not a level to edit");
    }
    if (child->kind == NodeKind::kKeyed) {
      if (++i >= path.size()) return InvalidArgument("'" + child->Path() + "' wants its key");
    }
    node = child;
  }
  return Status();
}

// The chain of config nodes `path` leads to (the root first), or NOT_FOUND.
StatusOr<std::vector<const ConfigNode*>> Chain(const TemplateTree& templates,
                                               const ConfigNode& root,
                                               const std::vector<std::string>& path) {
  std::vector<const ConfigNode*> chain = {&root};
  const TemplateNode* tmpl = &templates.root();
  for (size_t i = 0; i < path.size(); ++i) {
    const TemplateNode* t = tmpl != nullptr ? tmpl->Find(path[i]) : nullptr;
    const ConfigNode* n = nullptr;
    if (t != nullptr && t->kind == NodeKind::kKeyed && i + 1 < path.size()) {
      n = chain.back()->FindChild(path[i], path[i + 1]);
      ++i;
    } else {
      n = chain.back()->FindChild(path[i]);
    }
    if (n == nullptr) return NotFound("'" + Join(path) + "' is not configured");
    chain.push_back(n);
    tmpl = t;
  }
  return chain;
}

// `root` with only the subtree at the end of `chain` (and its ancestors' statements).
ConfigNode Pruned(const std::vector<const ConfigNode*>& chain) {
  ConfigNode sub = *chain.back();
  for (size_t i = chain.size() - 1; i-- > 0;) {
    ConfigNode parent(chain[i]->keyword(), chain[i]->arg_texts());
    parent.AddChild(std::move(sub));
    sub = std::move(parent);
  }
  return sub;
}

// Every statement of `node`'s subtree as a `set` path (leaves, and nodes without children).
void SetPaths(const ConfigNode& node, std::vector<std::string> prefix,
              std::vector<std::vector<std::string>>& out) {
  if (!node.keyword().empty()) {
    prefix.push_back(node.keyword());
    for (const std::string& a : node.arg_texts()) prefix.push_back(a);
    if (node.children().empty()) {
      out.push_back(prefix);
      return;
    }
  }
  for (const ConfigNode& c : node.children()) SetPaths(c, prefix, out);
}

}  // namespace

Status ShSession::Reload() {
  auto r = CallXrl(*ipc::Xrl::Parse("finder://rtrmgr/rtrmgr/1.0/get_config"));
  if (!r.status.ok()) return r.status;
  std::string text;
  for (const auto& a : r.atoms) {
    if (a.name() == "config") text = std::get<std::string>(a.value());
    if (a.name() == "revision") base_revision_ = std::get<uint64_t>(a.value());
  }
  auto tree = ConfigParser::Parse(text, "running");
  if (!tree.ok()) return tree.status();
  // Lines of this text mean nothing to the operator: errors about these nodes name paths.
  ConfigOrigins::Clear(*tree);
  running_ = *tree;
  candidate_ = std::move(*tree);
  return Status();
}

int ShSession::Configure() {
  if (Status s = Reload(); !s.ok()) return Fail(s);
  in_config_ = true;
  edit_path_.clear();
  Print("Entering configuration mode (revision " + std::to_string(base_revision_) + ")\n");
  return 0;
}

int ShSession::Commit(const CommandMatch& m) {
  const bool check = m.has("check");
  const std::string comment = m.get("comment");
  uint32_t confirm = 0;
  if (m.has("confirmed")) {
    confirm = 10;  // Junos's default
    if (const std::string n = m.get("confirmed"); !n.empty()) {
      auto v = ValueSpec::ParseU32(n);
      if (!v || *v == 0 || *v > 65535) {
        return Fail(InvalidArgument("commit confirmed takes 1..65535 minutes"));
      }
      confirm = *v;
    }
  }
  if (check && confirm != 0) {
    return Fail(InvalidArgument("commit check applies nothing to confirm"));
  }
  const std::string text = ConfigPrinter::Print(candidate_);
  const std::string method = check ? "check_config" : "commit";
  std::string args = "config:txt=" + ipc::PercentEncode(text) +
                     "&base_revision:u64=" + std::to_string(base_revision_) +
                     "&comment:txt=" + ipc::PercentEncode(comment) +
                     "&user:txt=" + ipc::PercentEncode(UserName());
  if (confirm != 0) args += "&confirm_minutes:u32=" + std::to_string(confirm);
  // The places of `load`ed nodes, so the rtrmgr's errors name the operator's files.
  const ConfigOrigins origins = ConfigOrigins::Collect(candidate_);
  if (!origins.files.empty()) {
    std::vector<std::string> files;
    for (const auto& f : origins.files) files.push_back(ipc::PercentEncode(f));
    std::vector<std::string> numbers;
    for (uint32_t n : origins.numbers) numbers.push_back(std::to_string(n));
    args += "&origin_files:list<txt>=" + JoinWords(files, ",") +
            "&origins:list<u32>=" + JoinWords(numbers, ",");
  }
  auto xrl = ipc::Xrl::Parse("finder://rtrmgr/rtrmgr/1.0/" + method + "?" + args);
  if (!xrl.ok()) return Fail(xrl.status());
  auto r = CallXrl(*xrl);
  if (!r.status.ok()) {
    if (r.status.code() == StatusCode::kCancelled && interrupted_) return 1;
    // Validation errors are "place: reason" lines, printed as they are (like --check).
    err_ << r.status.message() << "\n"
         << (check ? "error: configuration check fails\n"
                   : "error: commit failed; nothing was changed\n");
    return static_cast<int>(r.status.code());
  }
  for (const auto& a : r.atoms) {
    if (a.name() == "warnings" && a.is_list()) {
      for (const auto& e : a.elements()) err_ << std::get<std::string>(e) << "\n";
    }
  }
  if (check) {
    Print("configuration check succeeds\n");
    for (const auto& a : r.atoms) {
      if (a.name() == "actions" && a.is_list()) {
        for (const auto& e : a.elements()) Print("  " + std::get<std::string>(e) + "\n");
      }
    }
    return 0;
  }
  uint64_t rollback_revision = 0;
  for (const auto& a : r.atoms) {
    if (a.name() == "rollback_revision") rollback_revision = std::get<uint64_t>(a.value());
  }
  // Reload replaces the candidate: the edit level stays.
  if (Status s = Reload(); !s.ok()) return Fail(s);
  Print("commit complete (revision " + std::to_string(base_revision_) + ")\n");
  if (confirm != 0) {
    Print("commit confirmed: it rolls back to revision " + std::to_string(rollback_revision) +
          " in " + std::to_string(confirm) + (confirm == 1 ? " minute" : " minutes") +
          " unless you commit again\n");
  }
  return 0;
}

int ShSession::Load(const std::string& path) {
  auto tree = ConfigParser::ParseFile(path);
  if (!tree.ok()) return Fail(tree.status());
  candidate_ = std::move(*tree);
  // The validator `commit` runs, at once: the operator sees the file's problems at its lines.
  const ValidationReport report = ConfigValidator(templates_).Examine(candidate_);
  if (const std::string listing = report.Listing(); !listing.empty()) err_ << listing << "\n";
  if (!report.ok()) {
    Print("load complete, with " + std::to_string(report.errors.size()) +
          (report.errors.size() == 1 ? " error" : " errors") +
          ": commit refuses the candidate until it is fixed\n");
    return static_cast<int>(StatusCode::kInvalidArgument);
  }
  Print("load complete\n");
  return 0;
}

int ShSession::Save(const std::string& path) {
  // What runs, not the candidate: the file can boot the same router (strata-rtrmgr -c).
  auto j = CallJson("finder://rtrmgr/rtrmgr/1.0/get_config");
  if (!j.ok()) return Fail(j.status());
  const std::string text = j->value("config", "");
  const uint64_t revision = j->value("revision", uint64_t{0});
  // 0600: the configuration holds MD5 keys.
  if (Status s = WriteFileAtomically(path, text, 0600); !s.ok()) return Fail(s);
  Print("wrote the running configuration (revision " + std::to_string(revision) + ") to " + path +
        "\n");
  if (!(candidate_ == running_)) {
    Print("note: the candidate's uncommitted changes are not in it (commit, then save)\n");
  }
  return 0;
}

int ShSession::ShowConfig(const ConfigNode& tree, const std::vector<std::string>& path,
                          bool compare) {
  if (compare) {
    auto cand = Chain(templates_, candidate_, path);
    auto run = Chain(templates_, running_, path);
    const ConfigNode empty;
    Print(ConfigCompare::Compare(run.ok() ? Pruned(*run) : empty, cand.ok() ? Pruned(*cand) : empty,
                                 templates_));
    return 0;
  }
  auto chain = Chain(templates_, tree, path);
  if (!chain.ok()) return Fail(chain.status());
  const ConfigNode* node = chain->back();
  Print(node->children().empty() && !path.empty() ? ConfigPrinter::Statement(*node) + ";\n"
                                                  : ConfigPrinter::Print(*node));
  return 0;
}

int ShSession::LoadMerge(const std::string& file) {
  auto tree = ConfigParser::ParseFile(file);
  if (!tree.ok()) return Fail(tree.status());
  std::vector<std::vector<std::string>> paths;
  SetPaths(*tree, {}, paths);
  ConfigNode merged = candidate_;
  for (const auto& p : paths) {
    if (Status s = editor_.Set(merged, p); !s.ok()) {
      return Fail(Status(s.code(), file + ": " + Join(p) + ": " + s.message()));
    }
  }
  candidate_ = std::move(merged);
  Print("load complete (" + std::to_string(paths.size()) + " statements merged)\n");
  return 0;
}

int ShSession::ConfigCommand(const CommandMatch& m, const ShCommand& cmd) {
  const Op op = static_cast<Op>(m.id);
  std::vector<std::string> path = edit_path_;
  const std::vector<std::string> rest = Rest(cmd);
  path.insert(path.end(), rest.begin(), rest.end());
  switch (op) {
    case Op::kSet: {
      Status s = editor_.Set(candidate_, path);
      return s.ok() ? 0 : Fail(s);
    }
    case Op::kDelete: {
      Status s = editor_.Delete(candidate_, path);
      return s.ok() ? 0 : Fail(s);
    }
    case Op::kEdit: {
      if (Status s = CheckLevel(templates_, path); !s.ok()) return Fail(s);
      edit_path_ = std::move(path);
      return 0;
    }
    case Op::kUp:
    case Op::kConfigExit: {
      if (op == Op::kConfigExit && edit_path_.empty()) {
        if (!(candidate_ == running_)) {
          Print("warning: uncommitted changes discarded\n");
        }
        in_config_ = false;
        return 0;
      }
      size_t levels = m.has("number") ? std::stoul(m.get("number")) : 1;
      // A level is a keyword, with its key for a keyed node.
      while (levels-- > 0 && !edit_path_.empty()) {
        std::vector<std::string> shorter = edit_path_;
        shorter.pop_back();
        if (!shorter.empty() && !CheckLevel(templates_, shorter).ok()) shorter.pop_back();
        edit_path_ = std::move(shorter);
      }
      return 0;
    }
    case Op::kTop:
      edit_path_.clear();
      return 0;
    case Op::kShowCandidate:
      return ShowConfig(candidate_, path, cmd.compare);
    case Op::kCommit:
      return Commit(m);
    case Op::kRollback: {
      const std::string n = m.has("number") ? m.get("number") : "0";
      auto j = CallJson("finder://rtrmgr/rtrmgr/1.0/get_rollback?index:u32=" + n);
      if (!j.ok()) return Fail(j.status());
      auto tree = ConfigParser::Parse(j->value("config", ""), "rollback");
      if (!tree.ok()) return Fail(tree.status());
      ConfigOrigins::Clear(*tree);
      candidate_ = std::move(*tree);
      Print("load complete (rollback " + n + "); commit to apply it\n");
      return 0;
    }
    case Op::kLoadOverride:
      return Load(m.get("file"));
    case Op::kLoadMerge:
      return LoadMerge(m.get("file"));
    case Op::kSave:
      return Save(m.get("file"));
    case Op::kRun: {
      auto op_match = OperationalCommands().Parse(rest);
      if (!op_match.ok()) return Fail(op_match.status());
      const Op inner = static_cast<Op>(op_match->id);
      if (inner == Op::kConfigure || inner == Op::kExit) {
        return Fail(InvalidArgument("'run' takes a show, clear, enable or disable command"));
      }
      return Operational(*op_match, cmd.json);
    }
    case Op::kConfigHelp:
      Print(
          "Configuration mode, at the level shown in [edit ...]. Commands (abbreviable):\n"
          "  set PATH VALUE, delete PATH     change the candidate (paths relative to the level)\n"
          "  edit PATH, up [N], top, exit    move between levels (exit at the top: leave)\n"
          "  show [PATH] [| compare]         the candidate, or its changes\n"
          "  commit [check] [confirmed [MINUTES]] [comment TEXT], rollback [N]\n"
          "  load [override|merge] FILE, save FILE (the running configuration)\n"
          "  run COMMAND                     an operational command\n"
          "End a line with ? for what may follow.\n");
      return 0;
    default:
      return Fail(Internal("command not handled in configuration mode"));
  }
}

}  // namespace strata::rtrmgr::sh
