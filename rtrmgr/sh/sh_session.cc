#include "rtrmgr/sh/sh_session.h"

#include <memory>

#include "libipc/call/atoms_json.h"

namespace strata::rtrmgr::sh {
namespace {

std::string Join(const std::vector<std::string>& v, const std::string& sep = " ") {
  std::string s;
  for (const auto& w : v) s += (s.empty() ? "" : sep) + w;
  return s;
}

// The configuration-mode commands whose words after the first are a configuration path.
bool TakesPath(Op op) {
  return op == Op::kSet || op == Op::kDelete || op == Op::kEdit || op == Op::kShowCandidate;
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

std::string ShSession::Prompt() const {
  if (!in_config_) return "strata> ";
  return "[edit" + (edit_path_.empty() ? "" : " " + Join(edit_path_)) + "]\nstrata# ";
}

ipc::CallResult ShSession::CallXrl(const ipc::Xrl& xrl) {
  // Shared with the callback: an interrupted call's reply may still come after we returned.
  struct Pending {
    bool done = false;
    ipc::CallResult result;
  };
  auto pending = std::make_shared<Pending>();
  caller_.Call(xrl, {}, [pending](ipc::CallResult r) {
    pending->result = std::move(r);
    pending->done = true;
  });
  while (!pending->done && !interrupted_) {
    if (io_.run_one() == 0) io_.restart();
  }
  if (!pending->done) return {Status(StatusCode::kCancelled, "interrupted"), {}};
  return std::move(pending->result);
}

StatusOr<nlohmann::json> ShSession::CallJson(const std::string& xrl_text) {
  auto xrl = ipc::Xrl::Parse(xrl_text);
  if (!xrl.ok()) return xrl.status();
  auto r = CallXrl(*xrl);
  if (!r.status.ok()) return r.status;
  return ipc::AtomsToJson(r.atoms);
}

int ShSession::Fail(const Status& s) {
  if (s.code() == StatusCode::kCancelled && interrupted_) return 1;
  std::string msg = s.message();
  if (s.code() == StatusCode::kUnavailable && !router_.finder_connected()) {
    msg = "the router is not running (lost the Finder; is strata-rtrmgr running? STRATA_RUN_DIR?)";
  }
  err_ << "error: " << msg << "\n";
  return s.ok() ? 0 : static_cast<int>(s.code());
}

void ShSession::Print(std::string_view text) {
  if (pipe_ != nullptr) {
    pipe_->Write(text);
  } else {
    out_ << text;
  }
}

int ShSession::Execute(const std::string& line) {
  interrupted_ = false;
  interrupt_ends_ = false;
  auto parsed = ParseCommandLine(line);
  if (!parsed.ok()) return Fail(parsed.status());
  const ShCommand& cmd = *parsed;
  if (cmd.help) return Help(cmd);
  if (cmd.words.empty()) return 0;
  const CommandTree& tree = in_config_ ? ConfigurationCommands() : OperationalCommands();
  auto m = tree.Parse(cmd.words);
  if (!m.ok()) return Fail(m.status());
  PipeFilter filter(cmd.filters, out_);
  pipe_ = &filter;
  busy_ = true;
  int rc = in_config_ ? ConfigCommand(*m, cmd) : Operational(*m, cmd.json);
  busy_ = false;
  filter.Finish();
  pipe_ = nullptr;
  if (interrupted_ && !interrupt_ends_) {
    err_ << "interrupted\n";
    if (rc == 0) rc = 1;
  }
  return rc;
}

std::vector<Completion> ShSession::Completions(std::vector<std::string> words,
                                               const std::string& partial) {
  if (!in_config_) return OperationalCommands().Next(words, partial);
  const CommandTree& tree = ConfigurationCommands();
  if (words.empty()) return tree.Next(words, partial);
  // The first word decides: a configuration path follows, an operational command, or neither.
  auto first = tree.Parse({words[0], "x"});
  if (!first.ok()) first = tree.Parse({words[0]});
  if (!first.ok()) return tree.Next(words, partial);
  const Op op = static_cast<Op>(first->id);
  if (op == Op::kRun) {
    return OperationalCommands().Next(std::vector<std::string>(words.begin() + 1, words.end()),
                                      partial);
  }
  if (!TakesPath(op)) return tree.Next(words, partial);
  std::vector<std::string> path = edit_path_;
  path.insert(path.end(), words.begin() + 1, words.end());
  std::vector<Completion> out;
  for (std::string& w : editor_.Complete(candidate_, path, partial)) {
    out.push_back({std::move(w), "", true});
  }
  return out;
}

void ShSession::PrintCompletions(const std::vector<Completion>& options) {
  if (options.empty()) {
    out_ << "(no completions)\n";
    return;
  }
  size_t width = 0;
  for (const Completion& c : options) width = std::max(width, c.word.size());
  out_ << "Possible completions:\n";
  for (const Completion& c : options) {
    out_ << "  " << c.word;
    if (!c.help.empty()) out_ << std::string(width - c.word.size() + 3, ' ') << c.help;
    out_ << "\n";
  }
}

int ShSession::Help(const ShCommand& cmd) {
  if (cmd.pipe_help) {
    std::vector<std::string> pw = cmd.pipe_words;
    if (pw.empty() || (pw.size() == 1 && !cmd.trailing_space)) {
      PrintCompletions(PipeCompletions(pw.empty() ? "" : pw[0]));
      return 0;
    }
    auto stage = ParsePipe(pw[0] + " x");
    const bool regex = stage.ok() && (stage->kind == PipeStage::Kind::kMatch ||
                                      stage->kind == PipeStage::Kind::kExcept);
    PrintCompletions(regex && pw.size() == 1
                         ? std::vector<Completion>{{"<REGEX>", "A regular expression", false}}
                         : std::vector<Completion>{{"<Enter>", "run the command", false}});
    return 0;
  }
  std::vector<std::string> words = cmd.words;
  std::string partial;
  if (!cmd.trailing_space && !words.empty()) {
    partial = words.back();
    words.pop_back();
  }
  // Configuration paths: the node's own help first (its syntax and children).
  if (in_config_ && !words.empty() && partial.empty()) {
    auto first = ConfigurationCommands().Parse({words[0], "x"});
    if (first.ok() && TakesPath(static_cast<Op>(first->id))) {
      std::vector<std::string> path = edit_path_;
      path.insert(path.end(), words.begin() + 1, words.end());
      if (auto h = editor_.Help(path); h.ok()) {
        out_ << *h;
        return 0;
      }
    }
  }
  std::vector<Completion> options = Completions(words, partial);
  const bool complete = !options.empty() && options.back().word == "<Enter>";
  if (complete) options.push_back({"|", "Pipe through a command", false});
  PrintCompletions(options);
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
  std::vector<std::string> out;
  for (const Completion& c : Completions(*words, partial)) {
    if (c.keyword) out.push_back(c.word);
  }
  return out;
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

}  // namespace strata::rtrmgr::sh
