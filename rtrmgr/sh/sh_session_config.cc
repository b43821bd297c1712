// ShSession's configuration mode: entering it, the candidate's commands, commit, load and save.
#include <unistd.h>

#include "common/atomic_file.h"
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
    args += "&origin_files:list<txt>=" + JoinWords(files, ",") +
            "&origins:list<u32>=" + JoinWords(numbers, ",");
  }
  auto xrl = ipc::Xrl::Parse("finder://rtrmgr/rtrmgr/1.0/" + method + "?" + args);
  if (!xrl.ok()) return Fail(xrl.status());
  auto r = CallXrl(*xrl);
  if (!r.status.ok()) {
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
