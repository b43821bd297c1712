#include "rtrmgr/sh/sh_session.h"

#include <algorithm>

#include "libipc/call/atoms_json.h"
#include "rtrmgr/sh/show_format.h"

namespace strata::rtrmgr::sh {

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
    out_ << "configure | show " << JoinWords(OperationalCompletions({"show"}), "|")
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
    out_ << "possible completions: " << JoinWords(options, " ") << "\n";
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

}  // namespace strata::rtrmgr::sh
