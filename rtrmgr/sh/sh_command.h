// ShCommand: strata-sh's command line grammar, apart from any I/O so it can be tested alone.
//
//   line      := words [ '|' pipe ]* [ '?' ]       pipe := json | compare
//   --json anywhere is the same as `| json`.
// Words split as the config lexer does (quotes, escapes). ParseShow() reads the operational
// `show` commands and ShowXrl() gives the XRL each sends:
//   show interfaces                      fea/1.0/list_interfaces
//   show route [vr NAME] [PREFIX]        rib.NAME rib/1.0/list_routes (within PREFIX)
//   show bgp summary [vr NAME]           bgp.NAME bgp/1.0/list_peers
//   show bgp neighbor ADDR [vr NAME]     bgp.NAME bgp/1.0/list_peers (peer ADDR)
//   show bgp routes [PREFIX] [vr NAME]   bgp.NAME bgp/1.0/list_routes (prefix PREFIX)
//   show bgp dampened [PREFIX] [vr NAME] bgp.NAME bgp/1.0/list_damped_routes (prefix PREFIX)
//   show fib [vr NAME] [ADDRESS]         fea/1.0/list_routes (vr) or fea/1.0/lookup (address)
//   show fib stats                       fea/1.0/get_stats
//   show processes                       rtrmgr/1.0/list_processes
//   show configuration                   rtrmgr/1.0/get_config
//   show system commit                   rtrmgr/1.0/list_commits
//   show log [LOGGER] [last N]           log/1.0/get_lines of every process (the last N lines,
//                                        default 50, of loggers named LOGGER or below it)
// A VR-scoped command without `vr NAME` runs for every configured VR. Stateless.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "libipc/xrl.h"

namespace strata::rtrmgr::sh {

struct ShCommand {
  std::vector<std::string> words;
  bool json = false;
  bool compare = false;
  bool help = false;            // the line ended with '?'
  bool trailing_space = false;  // before the '?' (help on what follows, not on the last word)
};

StatusOr<ShCommand> ParseCommandLine(std::string_view line);
// The words with `sep` between them.
std::string JoinWords(const std::vector<std::string>& words, const std::string& sep = ", ");
// Splits a `-c` script into commands at ';' and newlines outside quotes.
std::vector<std::string> SplitScript(std::string_view text);

struct ShowRequest {
  enum class Kind {
    kInterfaces,
    kRoute,
    kBgpSummary,
    kBgpNeighbor,
    kBgpRoutes,
    kFib,
    kFibLookup,
    kFibStats,
    kProcesses,
    kConfiguration,
    kCommits,
    kBgpDampened,
    kBgpStats,
    kLog,
  };
  Kind kind = Kind::kInterfaces;
  std::string vr;      // "" : every VR (VR-scoped kinds)
  std::string arg;     // prefix, address, neighbour or logger
  uint32_t last = 50;  // show log: lines
  bool per_vr() const;
};

// `words` starts after "show". INVALID_ARGUMENT names what was expected.
StatusOr<ShowRequest> ParseShow(const std::vector<std::string>& words);
// The XRL for one VR (ignored by kinds that are not per VR; show log: the process instance).
StatusOr<ipc::Xrl> ShowXrl(const ShowRequest& request, const std::string& vr);
// The words that may follow `words` in operational mode (for `?` and Tab).
std::vector<std::string> OperationalCompletions(const std::vector<std::string>& words);

}  // namespace strata::rtrmgr::sh
