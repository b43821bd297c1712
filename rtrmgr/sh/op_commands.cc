#include "rtrmgr/sh/op_commands.h"

namespace strata::rtrmgr::sh {
namespace {

CommandOption Vr() {
  return {"vr", ArgType::kName, "NAME", false, {}, "Only this virtual router (default: every VR)",
          ""};
}
CommandOption Flag(std::string keyword, std::string help) {
  return {std::move(keyword), ArgType::kNone, "", false, {}, std::move(help), ""};
}
CommandOption Positional(ArgType type, std::string placeholder, std::string help) {
  return {"", type, std::move(placeholder), false, {}, std::move(help), ""};
}

void Add(CommandTree& t, Op op, std::string fixed, std::string help,
         std::vector<CommandOption> options = {}) {
  t.Add({static_cast<int>(op), std::move(fixed), std::move(options), std::move(help)});
}

CommandTree BuildOperational() {
  CommandTree t;
  t.SetHelp("show", "Show the router's state");
  t.SetHelp("show bgp", "BGP: peers, routes, statistics");
  t.SetHelp("show fib", "The forwarding table (FEA)");
  t.SetHelp("show system", "The router manager's records");
  t.SetHelp("clear", "Reset or release state");
  t.SetHelp("clear bgp", "BGP sessions and damping");
  t.SetHelp("clear bgp neighbor", "Reset BGP sessions (hard, or soft with ROUTE-REFRESH)");
  t.SetHelp("clear bgp neighbor ADDRESS", "The peer's address");
  t.SetHelp("enable", "Bring something administratively up");
  t.SetHelp("enable bgp", "BGP peers");
  t.SetHelp("enable bgp neighbor ADDRESS", "The peer's address");
  t.SetHelp("disable", "Take something administratively down");
  t.SetHelp("disable bgp", "BGP peers");
  t.SetHelp("disable bgp neighbor ADDRESS", "The peer's address");
  t.SetHelp("monitor", "Watch changes as they happen (Ctrl-C stops; `| json`: JSON lines)");
  t.SetHelp("monitor bgp", "BGP UPDATEs");
  t.SetHelp("show bgp neighbor ADDRESS", "The peer's address");

  Add(t, Op::kShowInterfaces, "show interfaces", "Interfaces, their addresses and VRs");
  Add(t, Op::kShowRoute, "show route", "The RIB's routes (winners)",
      {Positional(ArgType::kDest, "DEST",
                  "An address (longest match) or a prefix (it and the routes within)"),
       Flag("detail",
            "With DEST: every protocol's candidate for the prefix, its distance and why it won "
            "or lost, and whether the winner is installed"),
       Vr()});
  Add(t, Op::kShowBgpSummary, "show bgp summary", "One line per peer", {Vr()});
  Add(t, Op::kShowBgpNeighbor, "show bgp neighbor|neighbors", "Peers in detail",
      {Positional(ArgType::kAddress, "ADDRESS", "The peer's address (default: every peer)"), Vr()});
  Add(t, Op::kShowBgpRoutes, "show bgp route|routes",
      "The decision's candidates, with why the best won",
      {Positional(ArgType::kPrefix, "PREFIX", "Only this prefix"),
       Flag("detail",
            "With PREFIX: every path any peer sent, what became of it and why, and the "
            "decision step that ranked it"),
       Vr()});
  Add(t, Op::kShowBgpReceivedRoutes, "show bgp neighbor|neighbors ADDRESS received-routes",
      "Every route the peer sent (before import policy), what became of it and why",
      {Positional(ArgType::kPrefix, "PREFIX", "Only this prefix"), Vr()});
  Add(t, Op::kShowBgpFilteredRoutes, "show bgp neighbor|neighbors ADDRESS filtered-routes",
      "The peer's routes not used: rejected by policy, looped, damped, next hop unresolved",
      {Positional(ArgType::kPrefix, "PREFIX", "Only this prefix"), Vr()});
  Add(t, Op::kShowBgpAdvertisedRoutes, "show bgp neighbor|neighbors ADDRESS advertised-routes",
      "What the peer is sent (export policy applied)",
      {Positional(ArgType::kPrefix, "PREFIX", "Only this prefix"), Vr()});
  Add(t, Op::kShowBgpDiscardedRoutes, "show bgp neighbor|neighbors ADDRESS discarded-routes",
      "The last prefixes the peer sent that were not kept (malformed, first AS, own next hop, "
      "max-prefix), when and why",
      {Vr()});
  Add(t, Op::kShowBgpDampened, "show bgp dampened|dampening", "Routes with flap-damping history",
      {Positional(ArgType::kPrefix, "PREFIX", "Only this prefix"), Vr()});
  Add(t, Op::kShowBgpStats, "show bgp stats|statistics", "Speaker-wide counters and policies",
      {Vr()});
  Add(t, Op::kShowBgpRpki, "show bgp rpki cache",
      "RPKI caches: RTR session state, VRPs, re-validation counters", {Vr()});
  Add(t, Op::kShowFib, "show fib", "The forwarding table",
      {Positional(ArgType::kAddress, "ADDRESS", "Where this address is forwarded"), Vr()});
  Add(t, Op::kShowFibStats, "show fib stats|statistics", "FIB and kernel counters");
  Add(t, Op::kShowBfdSessions, "show bfd sessions|peers",
      "BFD sessions (strata-bfd): state, intervals, why down, who holds them");
  Add(t, Op::kShowProcesses, "show processes", "The supervised processes");
  Add(t, Op::kShowConfiguration, "show configuration", "The running configuration",
      {Positional(ArgType::kRest, "PATH", "Only this part (e.g. virtual-router red bgp)")});
  Add(t, Op::kShowCommits, "show system commit|commits", "The commit history");
  Add(t, Op::kShowVersion, "show version", "Strata's version and build");
  Add(t, Op::kShowLog, "show log", "Every process's last log lines, merged by time",
      {Positional(ArgType::kName, "LOGGER",
                  "Only loggers named so or below it (bgp.red, rib.blue.fea)"),
       {"last", ArgType::kNumber, "N", false, {}, "The last N lines (default 50)", ""}});
  Add(t, Op::kClearBgpNeighbor, "clear bgp neighbor ADDRESS",
      "Reset the session (Cease / Administrative Reset; it comes back by itself)",
      {{"soft",
        ArgType::kName,
        "",
        true,
        {"in", "out"},
        "Keep the session: re-send our routes (out), ask for the peer's (in), both if neither",
        ""},
       Vr()});
  Add(t, Op::kClearBgpNeighbor, "clear bgp neighbor all", "Every peer",
      {{"soft",
        ArgType::kName,
        "",
        true,
        {"in", "out"},
        "Keep the sessions: re-send our routes (out), ask for the peers' (in), both if neither",
        ""},
       Vr()});
  Add(t, Op::kClearBgpDamping, "clear bgp damping|dampening",
      "Forget flap history, release suppressed routes",
      {Positional(ArgType::kPrefix, "PREFIX", "Only this prefix (default: all)"),
       {"neighbor", ArgType::kAddress, "ADDRESS", false, {}, "Only this peer's routes", "address"},
       Vr()});
  Add(t, Op::kMonitorRoute, "monitor route",
      "Route changes as they happen (add, replace, delete of the winner), until Ctrl-C",
      {Positional(ArgType::kPrefix, "PREFIX", "Only this prefix and the prefixes within it"),
       Vr()});
  Add(t, Op::kMonitorBgpUpdates, "monitor bgp updates",
      "UPDATEs received and sent, a line per prefix, as they happen, until Ctrl-C",
      {{"neighbor", ArgType::kAddress, "ADDRESS", false, {}, "Only this peer's", "address"}, Vr()});
  Add(t, Op::kEnableBgpNeighbor, "enable bgp neighbor ADDRESS",
      "Start a peer stopped by `disable` (until the speaker restarts; the configuration is "
      "unchanged)",
      {Vr()});
  Add(t, Op::kDisableBgpNeighbor, "disable bgp neighbor ADDRESS",
      "Stop a peer (Cease / Administrative Shutdown) until `enable`; not saved: `set ... peer X "
      "disable` is",
      {Vr()});
  Add(t, Op::kConfigure, "configure", "Enter configuration mode");
  Add(t, Op::kExit, "exit|quit", "Leave the shell");
  Add(t, Op::kHelp, "help", "What the commands are");
  return t;
}

CommandTree BuildConfiguration() {
  CommandTree t;
  t.SetHelp("load", "Read a configuration file into the candidate");
  Add(t, Op::kSet, "set PATH", "Set a value, creating the nodes on the way");
  Add(t, Op::kDelete, "delete PATH", "Delete a node and everything under it");
  Add(t, Op::kEdit, "edit PATH", "Move to a node: later paths are relative to it");
  Add(t, Op::kUp, "up", "Move up one level (or N)",
      {Positional(ArgType::kNumber, "NUMBER", "Levels")});
  Add(t, Op::kTop, "top", "Move to the top of the configuration");
  Add(t, Op::kShowCandidate, "show", "The candidate (here, or at PATH); `| compare`: the changes",
      {Positional(ArgType::kRest, "PATH", "A node below the current level")});
  Add(t, Op::kCommit, "commit", "Apply the candidate",
      {Flag("check", "Only validate it and list the XRLs it would send"),
       {"confirmed",
        ArgType::kNumber,
        "MINUTES",
        true,
        {},
        "Roll back unless another commit comes within MINUTES (default 10)",
        ""},
       {"comment", ArgType::kName, "TEXT", false, {}, "Recorded in the commit history", ""}});
  Add(t, Op::kRollback, "rollback", "Load the configuration N commits back (0: the running one)",
      {Positional(ArgType::kNumber, "NUMBER", "How many commits back")});
  Add(t, Op::kLoadOverride, "load FILE", "Replace the candidate with a file");
  Add(t, Op::kLoadOverride, "load override FILE", "Replace the candidate with a file");
  Add(t, Op::kLoadMerge, "load merge FILE",
      "Merge a file into the candidate (its values win; nothing is deleted)");
  Add(t, Op::kSave, "save FILE", "Write the running configuration to a file (0600)");
  Add(t, Op::kRun, "run REST", "Run an operational command");
  Add(t, Op::kConfigExit, "exit|quit", "Up one level; at the top, leave configuration mode");
  Add(t, Op::kConfigHelp, "help", "What the commands are");
  return t;
}

}  // namespace

const CommandTree& OperationalCommands() {
  static const CommandTree tree = BuildOperational();
  return tree;
}

const CommandTree& ConfigurationCommands() {
  static const CommandTree tree = BuildConfiguration();
  return tree;
}

}  // namespace strata::rtrmgr::sh
