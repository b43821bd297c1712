#include "rtrmgr/sh/sh_session.h"

#include <unistd.h>

#include <algorithm>

#include "common/atomic_file.h"
#include "libipc/call/atoms_json.h"
#include "rtrmgr/config/config_compare.h"
#include "rtrmgr/config/config_origins.h"
#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_printer.h"
#include "rtrmgr/config/config_validator.h"
#include "rtrmgr/sh/show_format.h"

namespace strata::rtrmgr::sh {
namespace {

std::string Join(const std::vector<std::string>& v, const std::string& sep = ", ") {
  std::string s;
  for (const auto& w : v) s += (s.empty() ? "" : sep) + w;
  return s;
}

std::string UserName() {
  const char* u = std::getenv("USER");
  return u != nullptr ? u : "uid " + std::to_string(::getuid());
}

}  // namespace

ShSession::ShSession(boost::asio::io_context& io, ipc::Router& router,
                     const TemplateTree& templates, std::ostream& out, std::ostream& err)
    : io_(io),
      router_(router),
      caller_(router),
      templates_(templates),
      editor_(templates),
      out_(out),
      err_(err) {}

ipc::CallResult ShSession::CallXrl(const ipc::Xrl& xrl) {
  bool done = false;
  ipc::CallResult result;
  caller_.Call(xrl, {}, [&](ipc::CallResult r) {
    result = std::move(r);
    done = true;
  });
  while (!done) {
    if (io_.run_one() == 0) io_.restart();
  }
  return result;
}

int ShSession::Fail(const Status& s) {
  err_ << "error: " << s.message() << "\n";
  return s.ok() ? 0 : static_cast<int>(s.code());
}

int ShSession::Execute(const std::string& line) {
  auto parsed = ParseCommandLine(line);
  if (!parsed.ok()) return Fail(parsed.status());
  const ShCommand& cmd = *parsed;
  if (cmd.help) return Help(cmd);
  if (cmd.words.empty()) return 0;
  const std::string& w0 = cmd.words[0];
  if (in_config_) return ConfigCommand(cmd);
  if (w0 == "show") {
    return Show(std::vector<std::string>(cmd.words.begin() + 1, cmd.words.end()), cmd.json);
  }
  if (w0 == "configure") return Configure();
  if (w0 == "exit" || w0 == "quit") {
    exit_ = true;
    return 0;
  }
  if (w0 == "help") {
    out_ << "configure | show " << Join(OperationalCompletions({"show"}), "|")
         << " | exit; end a line with ? for help\n";
    return 0;
  }
  return Fail(InvalidArgument("unknown command '" + w0 + "' (try help or ?)"));
}

int ShSession::Help(const ShCommand& cmd) {
  std::vector<std::string> words = cmd.words;
  std::string partial;
  if (!cmd.trailing_space && !words.empty()) {
    partial = words.back();
    words.pop_back();
  }
  std::vector<std::string> options;
  if (in_config_ && !words.empty() && (words[0] == "set" || words[0] == "delete")) {
    std::vector<std::string> path(words.begin() + 1, words.end());
    if (partial.empty()) {
      auto h = editor_.Help(path);
      if (h.ok()) out_ << *h;
    }
    options = editor_.Complete(candidate_, path, partial);
  } else if (in_config_ && words.empty()) {
    options = {"commit", "delete", "exit", "load", "rollback", "run", "save", "set", "show"};
  } else {
    if (in_config_ && !words.empty() && words[0] == "run") words.erase(words.begin());
    for (auto& o : OperationalCompletions(words)) {
      if (o.rfind(partial, 0) == 0) options.push_back(o);
    }
  }
  std::erase_if(options, [&](const std::string& o) { return o.rfind(partial, 0) != 0; });
  if (options.empty()) {
    out_ << "(no completions)\n";
  } else {
    out_ << "possible completions: " << Join(options, " ") << "\n";
  }
  return 0;
}

std::vector<std::string> ShSession::Complete(const std::string& line) {
  auto words = ConfigEditor::SplitWords(line);
  if (!words.ok()) return {};
  std::string partial;
  const bool space = line.empty() || line.back() == ' ';
  if (!space && !words->empty()) {
    partial = words->back();
    words->pop_back();
  }
  std::vector<std::string> options;
  if (in_config_ && !words->empty() && ((*words)[0] == "set" || (*words)[0] == "delete")) {
    options = editor_.Complete(candidate_,
                               std::vector<std::string>(words->begin() + 1, words->end()), partial);
  } else if (in_config_ && words->empty()) {
    options = {"commit", "delete", "exit", "load", "rollback", "run", "save", "set", "show"};
  } else {
    if (in_config_ && !words->empty() && (*words)[0] == "run") words->erase(words->begin());
    options = OperationalCompletions(*words);
  }
  std::erase_if(options, [&](const std::string& o) { return o.rfind(partial, 0) != 0; });
  return options;
}

StatusOr<std::vector<std::string>> ShSession::InstancesOf(const std::string& cls) {
  auto r = CallXrl(*ipc::Xrl::Parse("finder://finder/finder/1.0/list_targets"));
  if (!r.status.ok()) return r.status;
  std::vector<std::string> out;
  for (const auto& a : r.atoms) {
    if (a.name() != "instances" || !a.is_list()) continue;
    for (const auto& e : a.elements()) {
      const auto& name = std::get<std::string>(e);
      if (name.rfind(cls + ".", 0) == 0) out.push_back(name.substr(cls.size() + 1));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

int ShSession::Show(const std::vector<std::string>& words, bool json) {
  auto req = ParseShow(words);
  if (!req.ok()) return Fail(req.status());
  using K = ShowRequest::Kind;
  if (req->kind == K::kLog) return ShowLog(*req, json);
  std::vector<std::string> vrs = {""};
  if (req->per_vr()) {
    if (!req->vr.empty()) {
      vrs = {req->vr};
    } else {
      // The VRs that run the process answering (FIB views: the VRs with a RIB).
      const bool bgp = req->kind == K::kBgpSummary || req->kind == K::kBgpNeighbor ||
                       req->kind == K::kBgpRoutes || req->kind == K::kBgpDampened ||
                       req->kind == K::kBgpStats;
      const std::string cls = bgp ? "bgp" : "rib";
      auto found = InstancesOf(cls);
      if (!found.ok()) return Fail(found.status());
      vrs = *found;
      if (vrs.empty()) return Fail(NotFound("no virtual router runs " + cls));
    }
  }
  nlohmann::json all = nlohmann::json::object();
  int rc = 0;
  for (const auto& vr : vrs) {
    auto xrl = ShowXrl(*req, vr);
    if (!xrl.ok()) return Fail(xrl.status());
    auto r = CallXrl(*xrl);
    if (!r.status.ok()) {
      rc =
          Fail(Status(r.status.code(), (vr.empty() ? "" : "vr " + vr + ": ") + r.status.message()));
      continue;
    }
    nlohmann::json j = ipc::AtomsToJson(r.atoms);
    if (vrs.size() > 1 || (req->per_vr() && req->vr.empty())) {
      all[vr] = j;
      if (!json) out_ << "vr " << vr << ":\n" << ShowFormat::Format(req->kind, j);
    } else if (json) {
      out_ << j.dump(2) << "\n";
    } else {
      out_ << ShowFormat::Format(req->kind, j);
    }
  }
  if (json && (vrs.size() > 1 || (req->per_vr() && req->vr.empty()))) out_ << all.dump(2) << "\n";
  return rc;
}

// Every process keeps its last lines (log/1.0); merged by time, the last N of them.
int ShSession::ShowLog(const ShowRequest& req, bool json) {
  auto r = CallXrl(*ipc::Xrl::Parse("finder://finder/finder/1.0/list_targets"));
  if (!r.status.ok()) return Fail(r.status);
  std::vector<std::string> instances;
  for (const auto& a : r.atoms) {
    if (a.name() != "instances" || !a.is_list()) continue;
    for (const auto& e : a.elements()) instances.push_back(std::get<std::string>(e));
  }
  // Loggers are named after their process instance: ask only the processes that may have some
  // under the prefix.
  const std::string& p = req.arg;
  auto may_hold = [&](const std::string& i) {
    return p.empty() || p == i || p.rfind(i + ".", 0) == 0 || i.rfind(p + ".", 0) == 0;
  };
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& instance : instances) {
    if (!may_hold(instance)) continue;
    auto xrl = ShowXrl(req, instance);
    if (!xrl.ok()) return Fail(xrl.status());
    auto got = CallXrl(*xrl);
    if (!got.status.ok()) continue;  // a process that does not keep lines (the Finder)
    nlohmann::json j = ipc::AtomsToJson(got.atoms);
    if (j.contains("lines")) {
      for (auto& l : j["lines"]) lines.push_back(std::move(l));
    }
  }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const nlohmann::json& a, const nlohmann::json& b) {
                     return a.value("unix_ns", int64_t{0}) < b.value("unix_ns", int64_t{0});
                   });
  if (lines.size() > req.last) lines.erase(lines.begin(), lines.end() - req.last);
  if (json) {
    out_ << nlohmann::json{{"lines", lines}}.dump(2) << "\n";
  } else {
    out_ << ShowFormat::LogLines(lines);
  }
  return 0;
}

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
  out_ << "Entering configuration mode (revision " << base_revision_ << ")\n";
  return 0;
}

int ShSession::Commit(const std::vector<std::string>& words) {
  std::string comment;
  bool check = false;
  uint32_t confirm = 0;
  for (size_t i = 1; i < words.size(); ++i) {
    if (words[i] == "check") {
      check = true;
    } else if (words[i] == "comment" && i + 1 < words.size()) {
      comment = words[++i];
    } else if (words[i] == "confirmed") {
      confirm = 10;  // Junos's default
      if (i + 1 < words.size() && ValueSpec::ParseU32(words[i + 1])) {
        confirm = *ValueSpec::ParseU32(words[++i]);
        if (confirm == 0 || confirm > 65535) {
          return Fail(InvalidArgument("commit confirmed takes 1..65535 minutes"));
        }
      }
    } else {
      return Fail(InvalidArgument("commit [check] [confirmed [MINUTES]] [comment TEXT], not '" +
                                  words[i] + "'"));
    }
  }
  if (check && confirm != 0)
    return Fail(InvalidArgument("commit check applies nothing to confirm"));
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
    args +=
        "&origin_files:list<txt>=" + Join(files, ",") + "&origins:list<u32>=" + Join(numbers, ",");
  }
  auto xrl = ipc::Xrl::Parse("finder://rtrmgr/rtrmgr/1.0/" + method + "?" + args);
  if (!xrl.ok()) return Fail(xrl.status());
  auto r = CallXrl(*xrl);
  if (!r.status.ok()) {
    // Validation errors are "place: reason" lines, printed as they are (like --check).
    err_ << r.status.message() << "\n"
         << "error: commit failed; nothing was changed\n";
    return static_cast<int>(r.status.code());
  }
  for (const auto& a : r.atoms) {
    if (a.name() == "warnings" && a.is_list()) {
      for (const auto& e : a.elements()) err_ << std::get<std::string>(e) << "\n";
    }
  }
  if (check) {
    out_ << "configuration check succeeds\n";
    for (const auto& a : r.atoms) {
      if (a.name() == "actions" && a.is_list()) {
        for (const auto& e : a.elements()) out_ << "  " << std::get<std::string>(e) << "\n";
      }
    }
    return 0;
  }
  uint64_t rollback_revision = 0;
  for (const auto& a : r.atoms) {
    if (a.name() == "rollback_revision") rollback_revision = std::get<uint64_t>(a.value());
  }
  if (Status s = Reload(); !s.ok()) return Fail(s);
  out_ << "commit complete (revision " << base_revision_ << ")\n";
  if (confirm != 0) {
    out_ << "commit confirmed: it rolls back to revision " << rollback_revision << " in " << confirm
         << (confirm == 1 ? " minute" : " minutes") << " unless you commit again\n";
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
    out_ << "load complete, with " << report.errors.size()
         << (report.errors.size() == 1 ? " error" : " errors")
         << ": commit refuses the candidate until it is fixed\n";
    return static_cast<int>(StatusCode::kInvalidArgument);
  }
  out_ << "load complete\n";
  return 0;
}

int ShSession::Save(const std::string& path) {
  // What runs, not the candidate: the file can boot the same router (strata-rtrmgr -c).
  auto r = CallXrl(*ipc::Xrl::Parse("finder://rtrmgr/rtrmgr/1.0/get_config"));
  if (!r.status.ok()) return Fail(r.status);
  std::string text;
  uint64_t revision = 0;
  for (const auto& a : r.atoms) {
    if (a.name() == "config") text = std::get<std::string>(a.value());
    if (a.name() == "revision") revision = std::get<uint64_t>(a.value());
  }
  // 0600: the configuration holds MD5 keys.
  if (Status s = WriteFileAtomically(path, text, 0600); !s.ok()) return Fail(s);
  out_ << "wrote the running configuration (revision " << revision << ") to " << path << "\n";
  if (!(candidate_ == running_)) {
    out_ << "note: the candidate's uncommitted changes are not in it (commit, then save)\n";
  }
  return 0;
}

int ShSession::ConfigCommand(const ShCommand& cmd) {
  const auto& w = cmd.words;
  const std::string& w0 = w[0];
  std::vector<std::string> rest(w.begin() + 1, w.end());
  if (w0 == "set") {
    if (rest.empty()) return Fail(InvalidArgument("set what?"));
    Status s = editor_.Set(candidate_, rest);
    return s.ok() ? 0 : Fail(s);
  }
  if (w0 == "delete") {
    if (rest.empty()) return Fail(InvalidArgument("delete what?"));
    Status s = editor_.Delete(candidate_, rest);
    return s.ok() ? 0 : Fail(s);
  }
  if (w0 == "show") {
    if (!rest.empty()) return Fail(InvalidArgument("show takes no path here (try run show ...)"));
    out_ << (cmd.compare ? ConfigCompare::Compare(running_, candidate_, templates_)
                         : ConfigPrinter::Print(candidate_));
    return 0;
  }
  if (w0 == "commit") return Commit(w);
  if (w0 == "rollback") {
    uint32_t n = 0;
    if (rest.size() > 1) return Fail(InvalidArgument("rollback [N]"));
    if (!rest.empty()) {
      auto v = ValueSpec::ParseU32(rest[0]);
      if (!v) return Fail(InvalidArgument("rollback wants a number, not '" + rest[0] + "'"));
      n = *v;
    }
    auto r = CallXrl(
        *ipc::Xrl::Parse("finder://rtrmgr/rtrmgr/1.0/get_rollback?index:u32=" + std::to_string(n)));
    if (!r.status.ok()) return Fail(r.status);
    for (const auto& a : r.atoms) {
      if (a.name() != "config") continue;
      auto tree = ConfigParser::Parse(std::get<std::string>(a.value()), "rollback");
      if (!tree.ok()) return Fail(tree.status());
      ConfigOrigins::Clear(*tree);
      candidate_ = std::move(*tree);
    }
    out_ << "load complete (rollback " << n << "); commit to apply it\n";
    return 0;
  }
  if (w0 == "load") {
    if (rest.size() != 1) return Fail(InvalidArgument("load FILE"));
    return Load(rest[0]);
  }
  if (w0 == "save") {
    if (rest.size() != 1) return Fail(InvalidArgument("save FILE"));
    return Save(rest[0]);
  }
  if (w0 == "run") {
    if (rest.empty() || rest[0] != "show") return Fail(InvalidArgument("run show ..."));
    return Show(std::vector<std::string>(rest.begin() + 1, rest.end()), cmd.json);
  }
  if (w0 == "exit" || w0 == "quit") {
    if (!(candidate_ == running_)) out_ << "warning: uncommitted changes discarded\n";
    in_config_ = false;
    return 0;
  }
  return Fail(InvalidArgument("unknown configuration command '" + w0 + "' (try ?)"));
}

}  // namespace strata::rtrmgr::sh
