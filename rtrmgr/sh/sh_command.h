// ShCommand: one strata-sh command line split into its parts, apart from any I/O so it can be
// tested alone.
//
//   line := words [ '|' pipe ]* [ '?' ]        (pipes: pipe_filter.h)
// Words split as the config lexer does (quotes, escapes); `--json` anywhere is `| json`. A '?'
// ending the line outside quotes asks for help on what may follow (after a space) or on the
// words the last one may complete to; inside quotes it is a character like any other.
// What the words mean is the command trees' business (op_commands.h). Stateless.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "rtrmgr/sh/pipe_filter.h"

namespace strata::rtrmgr::sh {

struct ShCommand {
  std::vector<std::string> words;
  bool json = false;
  bool compare = false;
  std::vector<PipeStage> filters;  // match, except, count (in order)
  bool help = false;               // the line ended with '?'
  bool trailing_space = false;     // before the '?' (help on what follows, not on the last word)
  // The '?' came inside a pipe: help on the pipe being typed (its words so far).
  bool pipe_help = false;
  std::vector<std::string> pipe_words;
};

StatusOr<ShCommand> ParseCommandLine(std::string_view line);
// The words with `sep` between them.
std::string JoinWords(const std::vector<std::string>& words, const std::string& sep = ", ");
// Splits a `-c` script into commands at ';' and newlines outside quotes.
std::vector<std::string> SplitScript(std::string_view text);
// Whether `text` ends inside an open quote (a '?' typed there is a character, not help).
bool InsideQuotes(std::string_view text);

}  // namespace strata::rtrmgr::sh
