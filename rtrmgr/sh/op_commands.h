// The commands of strata-sh's two modes as CommandTrees (command_tree.h), with their help.
//
// Operational mode (`strata> `): show, clear, enable / disable, monitor, configure, exit, help.
// Configuration mode (`strata# `): set, delete, edit, up, top, show, commit, rollback, load,
// save, run, exit, help. Every `show` has --json; per-VR commands without `vr NAME` run for
// every VR (see sh_session.h). Built once; thread-compatible.
#pragma once

#include "rtrmgr/sh/command_tree.h"

namespace strata::rtrmgr::sh {

enum class Op {
  // Operational mode.
  kShowInterfaces = 1,
  kShowRoute,
  kShowBgpSummary,
  kShowBgpNeighbor,
  kShowBgpRoutes,
  kShowBgpReceivedRoutes,
  kShowBgpFilteredRoutes,
  kShowBgpAdvertisedRoutes,
  kShowBgpDiscardedRoutes,
  kShowBgpDampened,
  kShowBgpStats,
  kShowBgpRpki,
  kShowFib,
  kShowFibStats,
  kShowBfdSessions,
  kShowProcesses,
  kShowConfiguration,
  kShowCommits,
  kShowVersion,
  kShowLog,
  kClearBgpNeighbor,
  kClearBgpDamping,
  kEnableBgpNeighbor,
  kDisableBgpNeighbor,
  kMonitorRoute,
  kMonitorBgpUpdates,
  kConfigure,
  kExit,
  kHelp,
  // Configuration mode.
  kSet = 100,
  kDelete,
  kEdit,
  kUp,
  kTop,
  kShowCandidate,
  kCommit,
  kRollback,
  kLoadOverride,
  kLoadMerge,
  kSave,
  kRun,
  kConfigExit,
  kConfigHelp,
};

const CommandTree& OperationalCommands();
const CommandTree& ConfigurationCommands();

}  // namespace strata::rtrmgr::sh
