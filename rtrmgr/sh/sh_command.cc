#include "rtrmgr/sh/sh_command.h"

#include "rtrmgr/config/config_editor.h"

namespace strata::rtrmgr::sh {
namespace {

// Splits `text` at `sep` characters outside quotes (a backslash escapes inside them).
std::vector<std::string> SplitOutsideQuotes(std::string_view text, std::string_view seps) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && quoted && i + 1 < text.size()) {
      out.back() += c;
      out.back() += text[++i];
      continue;
    }
    if (c == '"') quoted = !quoted;
    if (!quoted && seps.find(c) != std::string_view::npos) {
      out.emplace_back();
      continue;
    }
    out.back() += c;
  }
  return out;
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

bool InsideQuotes(std::string_view text) {
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && quoted) {
      ++i;
      continue;
    }
    if (text[i] == '"') quoted = !quoted;
  }
  return quoted;
}

StatusOr<ShCommand> ParseCommandLine(std::string_view line) {
  ShCommand cmd;
  std::string text(line);
  while (!text.empty() && IsSpace(text.back())) text.pop_back();
  if (!text.empty() && text.back() == '?' &&
      !InsideQuotes(std::string_view(text).substr(0, text.size() - 1))) {
    cmd.help = true;
    text.pop_back();
    cmd.trailing_space = text.empty() || IsSpace(text.back());
  }
  std::vector<std::string> parts = SplitOutsideQuotes(text, "|");
  auto words = ConfigEditor::SplitWords(parts.front());
  if (!words.ok()) return words.status();
  for (auto& w : *words) {
    if (w == "--json") {
      cmd.json = true;
    } else {
      cmd.words.push_back(std::move(w));
    }
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    if (cmd.help && i + 1 == parts.size()) {
      auto pw = ConfigEditor::SplitWords(parts[i]);
      if (!pw.ok()) return pw.status();
      cmd.pipe_help = true;
      cmd.pipe_words = std::move(*pw);
      break;
    }
    auto stage = ParsePipe(parts[i]);
    if (!stage.ok()) return stage.status();
    switch (stage->kind) {
      case PipeStage::Kind::kJson:
        cmd.json = true;
        break;
      case PipeStage::Kind::kCompare:
        cmd.compare = true;
        break;
      case PipeStage::Kind::kNoMore:
        break;
      default:
        cmd.filters.push_back(std::move(*stage));
    }
  }
  return cmd;
}

std::string JoinWords(const std::vector<std::string>& words, const std::string& sep) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : sep) + w;
  return s;
}

std::vector<std::string> SplitScript(std::string_view text) {
  std::vector<std::string> cmds;
  for (auto& s : SplitOutsideQuotes(text, ";\n")) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) continue;
    const auto e = s.find_last_not_of(" \t\r");
    cmds.push_back(s.substr(b, e - b + 1));
  }
  return cmds;
}

}  // namespace strata::rtrmgr::sh
