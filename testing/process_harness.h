// ProcessHarness: starts Strata binaries as real processes for integration tests, in a private
// run directory, and cleans up after them.
//
// Binaries come from $STRATA_BIN_DIR (set by ctest through strata_test). Each started process
// gets STRATA_RUN_DIR pointing at the harness's temporary directory (and STRATA_STATE_DIR at its
// `state` folder, so commits never reach the host's), its stdout and stderr go to files there,
// and every process still running when the harness is destroyed is killed, with every process
// running in that run directory (a killed rtrmgr leaves its router running).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace strata::testing {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

class ProcessHarness {
 public:
  ProcessHarness();
  ~ProcessHarness();
  ProcessHarness(const ProcessHarness&) = delete;
  ProcessHarness& operator=(const ProcessHarness&) = delete;

  const std::string& run_dir() const { return dir_; }
  // A binary of the bin dir by name; an absolute path as it is (e.g. /usr/sbin/ip for netns exec).
  std::string bin(const std::string& name) const;

  // Starts `args` (args[0] a binary name in the bin dir, or an absolute path) in the background.
  pid_t Start(const std::vector<std::string>& args, const std::string& log_name);
  // Runs `args` to completion, with optional standard input.
  RunResult Run(const std::vector<std::string>& args, const std::string& input = "");
  // Starts strata-finder and waits for its socket.
  pid_t StartFinder();
  void Kill(pid_t pid, int sig);
  // Reaps `pid` if it exited; returns true if it is gone.
  bool Exited(pid_t pid, int* status = nullptr);
  std::string ReadLog(const std::string& log_name) const;

  // The processes whose environment has STRATA_RUN_DIR=run_dir.
  static std::vector<pid_t> RunningIn(const std::string& run_dir);

  // Polls `pred` every 10 ms until true or `limit`.
  static bool WaitFor(const std::function<bool()>& pred,
                      std::chrono::milliseconds limit = std::chrono::milliseconds(5000));

 private:
  std::string dir_;
  std::string bin_dir_;
  std::vector<pid_t> pids_;
};

}  // namespace strata::testing
