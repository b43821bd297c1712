// RtrmgrState: what a new strata-rtrmgr needs to take over a router whose rtrmgr died: the
// processes it ran (how each was started, its secret and rights, pid and start time), the
// Finder's admin secret, and the running configuration with its revision.
//
// The router's processes outlive their rtrmgr (docs/restart.md: a crash of the rtrmgr costs
// the routing nothing), so the rtrmgr keeps this file, RUN_DIR/rtrmgr.state, up to date after
// every process start, exit and commit, and removes it when it stops the router. It holds
// secrets: written 0600 in the 0700 run directory, by write-then-rename so a reader never sees
// half a file. JSON; unknown fields are ignored, a missing or malformed file is an error value.
// Thread-compatible.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "rtrmgr/process_supervisor.h"

namespace strata::rtrmgr {

struct StateProcess {
  ProcessSpec spec;
  pid_t pid = 0;            // 0: not running when saved
  uint64_t start_time = 0;  // /proc/PID/stat field 22, to tell the pid from a recycled one
  uint32_t restarts = 0;
  std::string last_restart_reason;
  // The rights the Finder gives the process's secret (finder/1.0/set_permissions).
  std::vector<std::string> allowed_targets;
  std::vector<std::string> allowed_methods;
};

struct RtrmgrState {
  pid_t rtrmgr_pid = 0;
  std::string admin_secret;
  uint64_t revision = 0;
  std::string running_config;  // canonical text
  std::vector<StateProcess> processes;

  static std::string PathIn(const std::string& run_dir) { return run_dir + "/rtrmgr.state"; }
  // NotFound when there is no file.
  static StatusOr<RtrmgrState> Load(const std::string& path);
  Status Save(const std::string& path) const;
};

}  // namespace strata::rtrmgr
