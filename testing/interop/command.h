// Running external commands for the interop harness: one-shot commands whose output is captured
// (birdc, vtysh, gobgp, ip) and long-running daemons whose output goes to a log file.
//
// Every child is started in its own process group so that killing the group also kills what it
// started (exabgp's API helper processes, for instance). Not thread-safe; tests call it from one
// thread.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "common/status.h"

namespace strata::interop {

struct CommandResult {
  int exit_code = -1;  // 128+signal when killed; -1 when it could not be started
  bool timed_out = false;
  std::string output;  // stdout and stderr interleaved
  bool ok() const { return exit_code == 0 && !timed_out; }
};

// Runs argv[0] (looked up in PATH) to completion, killing it after `timeout`.
// `env` adds NAME=VALUE entries to the inherited environment.
CommandResult RunCommand(const std::vector<std::string>& argv,
                         std::chrono::milliseconds timeout = std::chrono::seconds(10),
                         const std::vector<std::string>& env = {});

// "a b 'c d'": for messages and logs.
std::string JoinArgs(const std::vector<std::string>& argv);

// Polls `pred` every 100 ms until it holds or `limit` passes; returns its last value.
bool PollUntil(const std::function<bool()>& pred, std::chrono::milliseconds limit);

// A background process (a routing daemon). Stop() or the destructor kills its process group.
class Daemon {
 public:
  Daemon() = default;
  ~Daemon() { Stop(); }
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Starts argv with stdout and stderr appended to `log_path`.
  Status Start(const std::vector<std::string>& argv, const std::string& log_path,
               const std::vector<std::string>& env = {});
  bool Running();
  // SIGTERM to the group, then SIGKILL after `grace`; reaps the child. No-op when not started.
  void Stop(std::chrono::milliseconds grace = std::chrono::milliseconds(2000));
  // SIGKILL to the group (no cleanup, as in a crash); reaps the child. No-op when not started.
  void Kill();
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

}  // namespace strata::interop
