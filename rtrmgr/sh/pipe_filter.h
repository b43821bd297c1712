// PipeFilter: the `| ...` stages of a strata-sh command line, as Junos has them.
//
//   | match REGEX    only the lines REGEX is found in (ECMAScript syntax)
//   | except REGEX   only the lines REGEX is not found in
//   | count          instead of the lines, "Count: N lines"
//   | json           the reply as JSON (same as --json)
//   | compare        configuration mode: the candidate's difference from the running config
//   | no-more        accepted for Junos habits; the shell never pages
// Names may be abbreviated to a unique prefix (`| m BGP`, `| cou`). `json` and `compare` choose
// what the command prints; the others filter what it printed, in order, line by line, so they
// work on a stream (`monitor ...`) as on a table. Thread-compatible.
#pragma once

#include <ostream>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "rtrmgr/sh/command_tree.h"

namespace strata::rtrmgr::sh {

struct PipeStage {
  enum class Kind { kMatch, kExcept, kCount, kJson, kCompare, kNoMore };
  Kind kind = Kind::kMatch;
  std::string pattern;  // match / except
};

// One pipe's text after the '|' ("match 10\.0\.1", `except "Idle|Active"`) to a stage: the
// name, then for match / except the rest of the text as the expression (outer double quotes
// removed, nothing unescaped). INVALID_ARGUMENT: unknown or ambiguous name, missing or bad
// regular expression, an argument where none is taken.
StatusOr<PipeStage> ParsePipe(std::string_view text);
// The pipe names and their help, for `| ?`.
std::vector<Completion> PipeCompletions(std::string_view partial);

// Filters text written to it line by line into `out`. REQUIRES: the stages parsed.
class PipeFilter {
 public:
  PipeFilter(const std::vector<PipeStage>& stages, std::ostream& out);
  // Whether any stage filters lines (else text may go straight to the output).
  bool filters() const { return !regexes_.empty() || count_; }
  // Any amount of text; a line is passed on (or not) once its newline arrives.
  void Write(std::string_view text);
  // The last line without a newline, then the count if asked.
  void Finish();

 private:
  void Line(const std::string& line);

  struct Test {
    std::regex re;
    bool keep_matching;
  };
  std::vector<Test> regexes_;
  bool count_ = false;
  uint64_t lines_ = 0;
  std::string partial_;
  std::ostream& out_;
};

}  // namespace strata::rtrmgr::sh
