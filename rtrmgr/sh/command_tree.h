// CommandTree: a command grammar as vtysh and the Junos CLI have it: fixed words, typed
// arguments, options in any order, every keyword abbreviable to a unique prefix, and for `?`
// the words that may come next with a line of help each.
//
// A command is a fixed part (keywords and arguments, in order: "show bgp neighbor ADDRESS
// received-routes"; "neighbor|neighbors" gives a keyword exact-only aliases) and options that
// follow in any order, each at most once: a flag
// (`detail`), a keyword with a value (`vr NAME`, `soft [in|out]`) or a positional argument
// (`[PREFIX]`). Upper-case words of a fixed part are arguments; their lower-case form names them
// in Match::args (ADDRESS -> "address"). Argument types: ADDRESS, PREFIX, DEST (an address or a
// prefix), NAME (any word), NUMBER, REGEX and FILE (any word), REST (every word left, joined by
// spaces; for paths of the configuration).
// Keywords are matched against every keyword that may come at that point, in every command
// still possible: an exact word wins, else a unique prefix ("sh bgp sum"), else the word is an
// argument; a prefix of two keywords is ambiguous (the error names them).
// Immutable once built; thread-compatible.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace strata::rtrmgr::sh {

enum class ArgType { kNone, kAddress, kPrefix, kDest, kName, kNumber, kRegex, kFile, kRest };

// An option after the fixed part.
struct CommandOption {
  std::string keyword;              // empty: a positional argument
  ArgType type = ArgType::kNone;    // of the value (kNone: a flag)
  std::string placeholder;          // "NAME", "PREFIX"
  bool value_optional = false;      // `soft [in|out]`: the keyword alone is enough
  std::vector<std::string> values;  // the only words the value may be (keywords for `?`)
  std::string help;
  std::string name;  // key in Match::args; default: the keyword, else the placeholder lower-cased
};

struct CommandSpec {
  int id = 0;
  std::string fixed;  // "show bgp neighbor ADDRESS"
  std::vector<CommandOption> options;
  std::string help;  // of the command's last keyword
};

struct CommandMatch {
  int id = 0;
  // Argument and option values by name; a flag (or an option without its optional value) maps
  // to "".
  std::map<std::string, std::string> args;
  bool has(const std::string& name) const { return args.contains(name); }
  std::string get(const std::string& name) const {
    auto it = args.find(name);
    return it == args.end() ? "" : it->second;
  }
};

// What `?` lists: a keyword, "<ADDRESS>" for an argument, "<Enter>" when the line is complete.
struct Completion {
  std::string word;
  std::string help;
  bool keyword = true;
};

class CommandTree {
 public:
  // The help of a keyword or argument by its fixed path: "show bgp", "show bgp neighbor
  // ADDRESS". Commands give the help of their last word themselves.
  void SetHelp(const std::string& path, std::string help);
  void Add(CommandSpec spec);

  // INVALID_ARGUMENT: unknown or ambiguous word, bad argument, incomplete command.
  StatusOr<CommandMatch> Parse(const std::vector<std::string>& words) const;
  // What may follow `words` and starts with `partial`, sorted (arguments after keywords).
  std::vector<Completion> Next(const std::vector<std::string>& words,
                               std::string_view partial) const;
  // Whether `word` is a valid value of `type`.
  static bool Accepts(ArgType type, const std::string& word);

 private:
  struct Element {
    std::string keyword;               // empty: an argument
    std::vector<std::string> aliases;  // taken only when typed out in full
    ArgType type = ArgType::kNone;
    std::string placeholder;
    std::string path;  // the fixed words up to this one, for help
  };
  struct Command {
    CommandSpec spec;
    std::vector<Element> elements;
  };
  struct State {
    const Command* cmd = nullptr;
    size_t pos = 0;          // elements matched
    std::vector<bool> used;  // options given
    int pending = -1;        // an option waiting for its value
    std::string rest;        // a REST argument taking every further word
    std::string rest_placeholder;
    std::map<std::string, std::string> args;
  };
  // One thing a state may take next.
  struct Expect {
    std::string keyword;  // empty: an argument of `type`
    ArgType type = ArgType::kNone;
    std::string placeholder;
    std::string help;
    bool alias = false;  // matched only exactly, never listed
    enum Kind { kElement, kOption, kValue, kPositional, kRest } kind = kElement;
    int index = -1;  // of the element or option
  };
  std::vector<Expect> Expected(const State& s) const;
  static bool Complete(const State& s);
  static State Advance(const State& s, const Expect& e, const std::string& word);
  // Advances every state by `word`; the error says why none could take it.
  Status Step(std::vector<State>& states, const std::string& word,
              const std::vector<std::string>& before) const;
  std::vector<State> Start() const;
  std::string HelpOf(const std::string& path) const;

  std::vector<Command> commands_;
  std::map<std::string, std::string> help_;
};

// The name of an option or argument as a key: "PREFIX" -> "prefix".
std::string ArgName(std::string_view placeholder);

}  // namespace strata::rtrmgr::sh
