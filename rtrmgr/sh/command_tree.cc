#include "rtrmgr/sh/command_tree.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"

namespace strata::rtrmgr::sh {
namespace {

std::vector<std::string> Words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool IsPlaceholder(const std::string& w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

ArgType TypeOf(const std::string& placeholder) {
  if (placeholder == "ADDRESS") return ArgType::kAddress;
  if (placeholder == "PREFIX") return ArgType::kPrefix;
  if (placeholder == "DEST") return ArgType::kDest;
  if (placeholder == "NUMBER") return ArgType::kNumber;
  if (placeholder == "REGEX") return ArgType::kRegex;
  if (placeholder == "FILE") return ArgType::kFile;
  if (placeholder == "REST" || placeholder == "PATH") return ArgType::kRest;
  return ArgType::kName;
}

std::string Describe(ArgType t) {
  switch (t) {
    case ArgType::kAddress:
      return "an IPv4 or IPv6 address";
    case ArgType::kPrefix:
      return "a prefix (ADDRESS/LENGTH)";
    case ArgType::kDest:
      return "an address or a prefix";
    case ArgType::kNumber:
      return "a number";
    default:
      return "a word";
  }
}

std::string Join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const auto& w : v) s += (s.empty() ? "" : sep) + w;
  return s;
}

}  // namespace

std::string ArgName(std::string_view placeholder) {
  std::string s(placeholder);
  std::transform(s.begin(), s.end(), s.begin(), [](char c) {
    return c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  return s;
}

bool CommandTree::Accepts(ArgType type, const std::string& w) {
  if (w.empty()) return false;
  switch (type) {
    case ArgType::kAddress:
      return IpAddr::Parse(w).ok();
    case ArgType::kPrefix:
      return IpPrefix::Parse(w).ok();
    case ArgType::kDest:
      return IpAddr::Parse(w).ok() || IpPrefix::Parse(w).ok();
    case ArgType::kNumber:
      return std::all_of(w.begin(), w.end(),
                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    case ArgType::kNone:
      return false;
    default:
      return true;
  }
}

void CommandTree::SetHelp(const std::string& path, std::string help) {
  help_[path] = std::move(help);
}

void CommandTree::Add(CommandSpec spec) {
  Command c;
  std::string path;
  for (const std::string& w : Words(spec.fixed)) {
    path += (path.empty() ? "" : " ") + w;
    Element e;
    if (IsPlaceholder(w)) {
      e.type = TypeOf(w);
      e.placeholder = w;
    } else {
      std::istringstream alts(w);
      std::getline(alts, e.keyword, '|');
      for (std::string a; std::getline(alts, a, '|');) e.aliases.push_back(a);
      path.resize(path.size() - w.size());
      path += e.keyword;
    }
    e.path = path;
    c.elements.push_back(std::move(e));
  }
  for (CommandOption& o : spec.options) {
    if (o.name.empty()) o.name = o.keyword.empty() ? ArgName(o.placeholder) : o.keyword;
    if (o.placeholder.empty() && o.type != ArgType::kNone) o.placeholder = "VALUE";
  }
  c.spec = std::move(spec);
  commands_.push_back(std::move(c));
}

std::string CommandTree::HelpOf(const std::string& path) const {
  auto it = help_.find(path);
  if (it != help_.end()) return it->second;
  for (const Command& c : commands_) {
    if (!c.elements.empty() && c.elements.back().path == path) return c.spec.help;
  }
  return "";
}

std::vector<CommandTree::State> CommandTree::Start() const {
  std::vector<State> states;
  for (const Command& c : commands_) {
    State s;
    s.cmd = &c;
    s.used.assign(c.spec.options.size(), false);
    states.push_back(std::move(s));
  }
  return states;
}

std::vector<CommandTree::Expect> CommandTree::Expected(const State& s) const {
  std::vector<Expect> out;
  const CommandSpec& spec = s.cmd->spec;
  if (!s.rest.empty()) {
    out.push_back({"", ArgType::kRest, s.rest_placeholder, "", false, Expect::kRest, -1});
    return out;
  }
  if (s.pending >= 0) {
    const CommandOption& o = spec.options[static_cast<size_t>(s.pending)];
    if (o.values.empty()) {
      out.push_back({"", o.type, o.placeholder, o.help, false, Expect::kValue, s.pending});
    } else {
      for (const std::string& v : o.values) {
        out.push_back({v, ArgType::kNone, "", o.help, false, Expect::kValue, s.pending});
      }
    }
    return out;
  }
  if (s.pos < s.cmd->elements.size()) {
    const Element& e = s.cmd->elements[s.pos];
    out.push_back({e.keyword, e.type, e.placeholder, HelpOf(e.path), false, Expect::kElement,
                   static_cast<int>(s.pos)});
    for (const std::string& a : e.aliases) {
      out.push_back({a, ArgType::kNone, "", "", true, Expect::kElement, static_cast<int>(s.pos)});
    }
    return out;
  }
  for (size_t i = 0; i < spec.options.size(); ++i) {
    if (s.used[i]) continue;
    const CommandOption& o = spec.options[i];
    if (o.keyword.empty()) {
      out.push_back(
          {"", o.type, o.placeholder, o.help, false, Expect::kPositional, static_cast<int>(i)});
    } else {
      out.push_back(
          {o.keyword, ArgType::kNone, "", o.help, false, Expect::kOption, static_cast<int>(i)});
    }
  }
  return out;
}

bool CommandTree::Complete(const State& s) {
  return s.pending < 0 && s.pos == s.cmd->elements.size();
}

CommandTree::State CommandTree::Advance(const State& s, const Expect& e, const std::string& word) {
  State n = s;
  const CommandSpec& spec = s.cmd->spec;
  switch (e.kind) {
    case Expect::kRest:
      n.args[n.rest] += " " + word;
      break;
    case Expect::kElement: {
      const Element& el = s.cmd->elements[static_cast<size_t>(e.index)];
      ++n.pos;
      if (!el.keyword.empty()) break;
      n.args[ArgName(el.placeholder)] = word;
      if (el.type == ArgType::kRest) {
        n.rest = ArgName(el.placeholder);
        n.rest_placeholder = el.placeholder;
      }
      break;
    }
    case Expect::kValue:
      n.args[spec.options[static_cast<size_t>(e.index)].name] = word;
      n.pending = -1;
      break;
    case Expect::kOption: {
      const CommandOption& o = spec.options[static_cast<size_t>(e.index)];
      n.used[static_cast<size_t>(e.index)] = true;
      if (o.type == ArgType::kNone && o.values.empty()) {
        n.args[o.name] = "";
      } else {
        n.pending = e.index;
      }
      break;
    }
    case Expect::kPositional: {
      const CommandOption& o = spec.options[static_cast<size_t>(e.index)];
      n.used[static_cast<size_t>(e.index)] = true;
      n.args[o.name] = word;
      if (o.type == ArgType::kRest) {
        n.rest = o.name;
        n.rest_placeholder = o.placeholder;
      }
      break;
    }
  }
  return n;
}

Status CommandTree::Step(std::vector<State>& states, const std::string& word,
                         const std::vector<std::string>& before) const {
  std::set<std::string> keywords;  // prefixes of these resolve to them
  std::set<std::string> exact;     // these only when typed out
  std::vector<std::string> args;
  for (const State& s : states) {
    for (const Expect& e : Expected(s)) {
      if (e.alias) {
        exact.insert(e.keyword);
      } else if (!e.keyword.empty()) {
        keywords.insert(e.keyword);
      } else if (std::find(args.begin(), args.end(), e.placeholder) == args.end()) {
        args.push_back(e.placeholder);
      }
    }
  }
  std::string resolved;
  std::vector<std::string> prefixed;
  if (keywords.contains(word) || exact.contains(word)) {
    resolved = word;
  } else {
    for (const std::string& k : keywords) {
      if (k.rfind(word, 0) == 0) prefixed.push_back(k);
    }
    if (prefixed.size() == 1) resolved = prefixed[0];
  }
  std::vector<State> next;
  for (const State& s : states) {
    for (const Expect& e : Expected(s)) {
      const bool take =
          resolved.empty() ? e.keyword.empty() && Accepts(e.type, word) : e.keyword == resolved;
      if (!take) continue;
      State n = Advance(s, e, resolved.empty() ? word : resolved);
      if (n.pending >= 0 && n.cmd->spec.options[static_cast<size_t>(n.pending)].value_optional) {
        State without = n;
        without.pending = -1;
        without.args[n.cmd->spec.options[static_cast<size_t>(n.pending)].name] = "";
        next.push_back(std::move(without));
      }
      next.push_back(std::move(n));
    }
  }
  if (!next.empty()) {
    states = std::move(next);
    return Status();
  }
  const std::string after = before.empty() ? "" : " after '" + Join(before, " ") + "'";
  if (prefixed.size() > 1) {
    return InvalidArgument("'" + word + "' is ambiguous" + after + ": " + Join(prefixed, ", "));
  }
  std::vector<std::string> expected(keywords.begin(), keywords.end());
  for (const std::string& a : args) expected.push_back("<" + a + ">");
  if (keywords.empty() && args.size() == 1) {
    return InvalidArgument("'" + word + "' is not " + Describe(TypeOf(args[0])) + " (" + args[0] +
                           after + ")");
  }
  if (expected.empty()) return InvalidArgument("unexpected '" + word + "'" + after);
  return InvalidArgument("unexpected '" + word + "'" + after + " (expected " +
                         Join(expected, ", ") + ")");
}

StatusOr<CommandMatch> CommandTree::Parse(const std::vector<std::string>& words) const {
  std::vector<State> states = Start();
  std::vector<std::string> before;
  for (const std::string& w : words) {
    if (Status s = Step(states, w, before); !s.ok()) return s;
    before.push_back(w);
  }
  for (const State& s : states) {
    if (!Complete(s)) continue;
    CommandMatch m;
    m.id = s.cmd->spec.id;
    m.args = s.args;
    return m;
  }
  std::vector<std::string> expected;
  for (const State& s : states) {
    for (const Expect& e : Expected(s)) {
      if (e.alias) continue;
      expected.push_back(e.keyword.empty() ? "<" + e.placeholder + ">" : e.keyword);
    }
  }
  std::sort(expected.begin(), expected.end());
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  return InvalidArgument("incomplete command '" + Join(words, " ") + "' (expected " +
                         Join(expected, ", ") + ")");
}

std::vector<Completion> CommandTree::Next(const std::vector<std::string>& words,
                                          std::string_view partial) const {
  std::vector<State> states = Start();
  std::vector<std::string> before;
  for (const std::string& w : words) {
    if (!Step(states, w, before).ok()) return {};
    before.push_back(w);
  }
  std::map<std::string, Completion> keywords;
  std::map<std::string, Completion> args;
  bool complete = false;
  for (const State& s : states) {
    complete = complete || Complete(s);
    for (const Expect& e : Expected(s)) {
      if (e.alias) continue;
      if (!e.keyword.empty()) {
        if (e.keyword.rfind(partial, 0) == 0) {
          keywords.try_emplace(e.keyword, Completion{e.keyword, e.help, true});
        }
      } else {
        const std::string w = "<" + e.placeholder + ">";
        args.try_emplace(w, Completion{w, e.help.empty() ? Describe(e.type) : e.help, false});
      }
    }
  }
  std::vector<Completion> out;
  for (auto& [w, c] : keywords) out.push_back(std::move(c));
  if (partial.empty() || out.empty()) {
    for (auto& [w, c] : args) out.push_back(std::move(c));
  }
  if (complete && partial.empty()) out.push_back({"<Enter>", "run the command", false});
  return out;
}

}  // namespace strata::rtrmgr::sh
