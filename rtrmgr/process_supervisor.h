// ProcessSupervisor: starts the router's processes, restarts them when they die and stops them.
//
// A process is started with fork/exec; its environment is the rtrmgr's plus the spec's
// additions, and it inherits no descriptor but stdin, stdout and stderr. Processes outlive the
// rtrmgr (docs/restart.md): a new rtrmgr adopts them (Adopt), watching their death through a
// pidfd since they are not its children (no exit status then). Deaths of its own children are
// noticed through SIGCHLD on the io_context; the socket files a dead process leaves are removed.
// A process that dies without being asked to is restarted after RestartPolicy's backoff; when
// the policy gives up it is left in state "failed" and on_give_up runs, the others keep running.
// Kill() ends a process that is alive but useless (hung) and records why: that reason, else its
// exit, is its last restart reason. on_started runs after each (re)start so the owner can wait
// for the process to register and replay its configuration.
// Each child leads its own process group. Stop runs the before_stop hook (the rtrmgr's clean stop
// asks the process to remove its forwarding state first), sends the group SIGTERM, waits
// `stop_grace`, then SIGKILL; StopAll stops in reverse rank order, one rank at a time.
// Threading: the io_context thread; the supervisor reaps every child of the process
// (waitpid(-1)), so it must be the only code that starts children.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/asio.h"
#include "common/status.h"
#include "rtrmgr/restart_policy.h"

namespace strata::rtrmgr {

struct ProcessSpec {
  std::string instance;  // "rib.red"
  std::string process;   // "rib"
  uint32_t rank = 0;
  std::vector<std::string> argv;  // argv[0] is the binary's path
  std::vector<std::string> env;   // "NAME=value", added to (or replacing) the inherited ones
  std::string log_file;           // stdout and stderr; "" inherits the rtrmgr's
  // Scheduling priority relative to the rtrmgr's (nice increment; > 0 yields the CPU to the
  // others when cores are short). Lowering it below the rtrmgr's needs CAP_SYS_NICE; without,
  // the process starts at the rtrmgr's priority.
  int nice = 0;
};

enum class ProcessState { kRunning, kHung, kRestarting, kFailed, kStopping, kStopped };
std::string_view ProcessStateName(ProcessState s);

struct ProcessStatus {
  std::string instance;
  std::string process;
  uint32_t rank = 0;
  pid_t pid = 0;
  ProcessState state = ProcessState::kStopped;
  uint32_t restarts = 0;
  std::string last_exit;            // "exit 1", "signal 9"
  std::string last_restart_reason;  // why it was last restarted: its exit, or "hung: ..."
  std::chrono::steady_clock::time_point started{};
  uint64_t rss_kb = 0;   // resident memory now (List() reads /proc)
  bool adopted = false;  // started by an earlier rtrmgr
};

class ProcessSupervisor {
 public:
  struct Options {
    RestartPolicyOptions restart;
    std::chrono::milliseconds stop_grace{3000};
  };
  ProcessSupervisor(boost::asio::io_context& io, Options options);
  ~ProcessSupervisor();

  // Starts a process; ALREADY_EXISTS if the instance is known and not stopped or failed.
  Status Start(ProcessSpec spec);
  // Takes over a process an earlier rtrmgr started from `spec` (pid alive); it counts `restarts`
  // already, for `last_restart_reason`. ALREADY_EXISTS as Start; NOT_FOUND if it is gone.
  Status Adopt(ProcessSpec spec, pid_t pid, uint32_t restarts,
               std::string last_restart_reason = "");
  // SIGKILLs a running process (its group) because of `reason` ("hung: ..."); it is then
  // restarted like a process that crashed, with `reason` as its last restart reason.
  void Kill(const std::string& instance, std::string reason);
  // Stops one process (no restart); `done` runs when it is gone. Unknown: `done` at once.
  void Stop(const std::string& instance, std::function<void()> done);
  // Stops every process, highest rank first; `done` when all are gone.
  void StopAll(std::function<void()> done);

  bool IsRunning(const std::string& instance) const;
  std::vector<ProcessStatus> List() const;
  // How `instance` is started (null if unknown).
  const ProcessSpec* spec(const std::string& instance) const;

  void set_on_started(std::function<void(const std::string& instance)> cb) {
    on_started_ = std::move(cb);
  }
  void set_on_exit(std::function<void(const std::string& instance, const std::string& why)> cb) {
    on_exit_ = std::move(cb);
  }
  void set_on_give_up(std::function<void(const std::string& instance)> cb) {
    on_give_up_ = std::move(cb);
  }
  // Runs before each stop's SIGTERM; the stop goes on when `proceed` is called.
  using BeforeStop =
      std::function<void(const std::string& instance, std::function<void()> proceed)>;
  void set_before_stop(BeforeStop cb) { before_stop_ = std::move(cb); }

 private:
  struct Child {
    ProcessSpec spec;
    ProcessStatus status;
    RestartPolicy policy;
    std::unique_ptr<boost::asio::steady_timer> timer;  // backoff or kill timer
    std::vector<std::function<void()>> stop_waiters;
    std::unique_ptr<boost::asio::posix::stream_descriptor> pidfd;  // adopted: readable at death
    std::string kill_reason;  // Kill()'s, for the exit it causes
  };
  Status Spawn(Child& c);
  void WaitSignal();
  void Reap();
  // `wstatus` < 0: an adopted process, exit status unknown.
  void OnExit(Child& c, int wstatus);
  void WatchPidfd(Child& c, int fd);
  // SIGTERM, then SIGKILL after the grace.
  void Terminate(const std::string& instance);
  void StopRanks(std::vector<uint32_t> ranks, std::function<void()> done);

  boost::asio::io_context& io_;
  Options options_;
  boost::asio::signal_set sigchld_;
  std::map<std::string, std::unique_ptr<Child>> children_;
  std::function<void(const std::string&)> on_started_;
  std::function<void(const std::string&, const std::string&)> on_exit_;
  std::function<void(const std::string&)> on_give_up_;
  BeforeStop before_stop_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::rtrmgr
