#include "rtrmgr/sh/pipe_filter.h"

namespace strata::rtrmgr::sh {
namespace {

struct PipeName {
  const char* name;
  PipeStage::Kind kind;
  const char* help;
};
constexpr PipeName kPipes[] = {
    {"compare", PipeStage::Kind::kCompare, "Difference from the running configuration"},
    {"count", PipeStage::Kind::kCount, "Count the lines"},
    {"except", PipeStage::Kind::kExcept, "Lines not matching a regular expression"},
    {"json", PipeStage::Kind::kJson, "The reply as JSON"},
    {"match", PipeStage::Kind::kMatch, "Lines matching a regular expression"},
    {"no-more", PipeStage::Kind::kNoMore, "Do not page (the shell never does)"},
};

}  // namespace

StatusOr<PipeStage> ParsePipe(std::string_view text) {
  auto trim = [](std::string_view t) {
    const auto b = t.find_first_not_of(" \t");
    if (b == std::string_view::npos) return std::string_view();
    return t.substr(b, t.find_last_not_of(" \t") - b + 1);
  };
  text = trim(text);
  if (text.empty()) return InvalidArgument("empty pipe after '|'");
  const size_t sp = text.find_first_of(" \t");
  const std::string name(text.substr(0, sp));
  std::string_view arg = sp == std::string_view::npos ? "" : trim(text.substr(sp));
  const PipeName* found = nullptr;
  std::vector<const PipeName*> prefixed;
  for (const PipeName& p : kPipes) {
    if (name == p.name) found = &p;
    if (std::string_view(p.name).starts_with(name)) prefixed.push_back(&p);
  }
  if (found == nullptr && prefixed.size() == 1) found = prefixed[0];
  if (found == nullptr && prefixed.size() > 1) {
    std::string names;
    for (const PipeName* p : prefixed) names += (names.empty() ? "" : ", ") + std::string(p->name);
    return InvalidArgument("'| " + name + "' is ambiguous: " + names);
  }
  if (found == nullptr) {
    return InvalidArgument("unknown pipe '| " + name +
                           "' (match, except, count, json, compare, no-more)");
  }
  PipeStage stage;
  stage.kind = found->kind;
  const bool regex =
      stage.kind == PipeStage::Kind::kMatch || stage.kind == PipeStage::Kind::kExcept;
  if (!regex) {
    if (!arg.empty()) {
      return InvalidArgument("'| " + std::string(found->name) + "' takes no argument");
    }
    return stage;
  }
  if (arg.size() >= 2 && arg.front() == '"' && arg.back() == '"')
    arg = arg.substr(1, arg.size() - 2);
  if (arg.empty()) {
    return InvalidArgument("'| " + std::string(found->name) + "' wants a regular expression");
  }
  stage.pattern = std::string(arg);
  try {
    std::regex check(stage.pattern);
  } catch (const std::regex_error& e) {
    return InvalidArgument("'" + stage.pattern + "' is not a regular expression: " + e.what());
  }
  return stage;
}

std::vector<Completion> PipeCompletions(std::string_view partial) {
  std::vector<Completion> out;
  for (const PipeName& p : kPipes) {
    if (std::string_view(p.name).starts_with(partial)) out.push_back({p.name, p.help, true});
  }
  return out;
}

PipeFilter::PipeFilter(const std::vector<PipeStage>& stages, std::ostream& out) : out_(out) {
  for (const PipeStage& s : stages) {
    if (s.kind == PipeStage::Kind::kMatch || s.kind == PipeStage::Kind::kExcept) {
      regexes_.push_back({std::regex(s.pattern), s.kind == PipeStage::Kind::kMatch});
    } else if (s.kind == PipeStage::Kind::kCount) {
      count_ = true;
    }
  }
}

void PipeFilter::Write(std::string_view text) {
  if (!filters()) {
    out_ << text;
    return;
  }
  size_t start = 0;
  for (size_t nl = text.find('\n'); nl != std::string_view::npos; nl = text.find('\n', start)) {
    partial_.append(text.substr(start, nl - start));
    Line(partial_);
    partial_.clear();
    start = nl + 1;
  }
  partial_.append(text.substr(start));
}

void PipeFilter::Line(const std::string& line) {
  for (const Test& t : regexes_) {
    if (std::regex_search(line, t.re) != t.keep_matching) return;
  }
  if (count_) {
    ++lines_;
  } else {
    out_ << line << '\n';
  }
}

void PipeFilter::Finish() {
  if (!partial_.empty()) {
    Line(partial_);
    partial_.clear();
  }
  if (count_) out_ << "Count: " << lines_ << " lines\n";
  out_.flush();
}

}  // namespace strata::rtrmgr::sh
