// ProcessSupervisor: starts the router's processes, restarts them when they die and stops them.
//
// A process is started with fork/exec (the child gets PR_SET_PDEATHSIG so nothing outlives a
// killed rtrmgr), its environment is the rtrmgr's plus the spec's additions. Deaths are noticed
// through SIGCHLD on the io_context. A process that dies without being asked to is restarted
// after RestartPolicy's backoff; when the policy gives up it is left in state "failed" and
// on_give_up runs, the others keep running. on_started runs after each (re)start so the owner can
// wait for the process to register and replay its configuration.
// Each child leads its own process group. Stop sends the group SIGTERM, waits `stop_grace`,
// then SIGKILL; StopAll stops in reverse rank order,
// one rank at a time. Threading: the io_context thread; the supervisor reaps every child of the
// process (waitpid(-1)), so it must be the only code that starts children.
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

enum class ProcessState { kRunning, kRestarting, kFailed, kStopping, kStopped };
std::string_view ProcessStateName(ProcessState s);

struct ProcessStatus {
  std::string instance;
  std::string process;
  uint32_t rank = 0;
  pid_t pid = 0;
  ProcessState state = ProcessState::kStopped;
  uint32_t restarts = 0;
  std::string last_exit;  // "exit 1", "signal 9"
  std::chrono::steady_clock::time_point started{};
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
  // Stops one process (no restart); `done` runs when it is gone. Unknown: `done` at once.
  void Stop(const std::string& instance, std::function<void()> done);
  // Stops every process, highest rank first; `done` when all are gone.
  void StopAll(std::function<void()> done);

  bool IsRunning(const std::string& instance) const;
  std::vector<ProcessStatus> List() const;

  void set_on_started(std::function<void(const std::string& instance)> cb) {
    on_started_ = std::move(cb);
  }
  void set_on_exit(std::function<void(const std::string& instance, const std::string& why)> cb) {
    on_exit_ = std::move(cb);
  }
  void set_on_give_up(std::function<void(const std::string& instance)> cb) {
    on_give_up_ = std::move(cb);
  }

 private:
  struct Child {
    ProcessSpec spec;
    ProcessStatus status;
    RestartPolicy policy;
    std::unique_ptr<boost::asio::steady_timer> timer;  // backoff or kill timer
    std::vector<std::function<void()>> stop_waiters;
  };
  Status Spawn(Child& c);
  void WaitSignal();
  void Reap();
  void OnExit(Child& c, int wstatus);
  void StopRanks(std::vector<uint32_t> ranks, std::function<void()> done);

  boost::asio::io_context& io_;
  Options options_;
  boost::asio::signal_set sigchld_;
  std::map<std::string, std::unique_ptr<Child>> children_;
  std::function<void(const std::string&)> on_started_;
  std::function<void(const std::string&, const std::string&)> on_exit_;
  std::function<void(const std::string&)> on_give_up_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::rtrmgr
