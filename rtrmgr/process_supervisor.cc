#include "rtrmgr/process_supervisor.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <set>

#include "common/log.h"
#include "libipc/router.h"
#include "libipc/socket_files.h"
#include "rtrmgr/proc_info.h"

extern char** environ;

namespace strata::rtrmgr {
namespace {

std::shared_ptr<spdlog::logger> Log() {
  static auto log = MakeLogger("rtrmgr");
  return log;
}

std::string DescribeExit(int wstatus) {
  if (wstatus < 0) return "exited (status unknown: started by an earlier rtrmgr)";
  if (WIFEXITED(wstatus)) return "exit " + std::to_string(WEXITSTATUS(wstatus));
  if (WIFSIGNALED(wstatus)) return "signal " + std::to_string(WTERMSIG(wstatus));
  return "status " + std::to_string(wstatus);
}

}  // namespace

std::string_view ProcessStateName(ProcessState s) {
  switch (s) {
    case ProcessState::kRunning:
      return "running";
    case ProcessState::kHung:
      return "hung";
    case ProcessState::kRestarting:
      return "restarting";
    case ProcessState::kFailed:
      return "failed";
    case ProcessState::kStopping:
      return "stopping";
    case ProcessState::kStopped:
      return "stopped";
  }
  return "unknown";
}

ProcessSupervisor::ProcessSupervisor(boost::asio::io_context& io, Options options)
    : io_(io), options_(options), sigchld_(io, SIGCHLD) {
  WaitSignal();
}

ProcessSupervisor::~ProcessSupervisor() {
  *alive_ = false;
  // Last resort: nothing may outlive us.
  for (auto& [name, c] : children_) {
    if (c->status.pid > 0) {
      ::kill(-c->status.pid, SIGKILL);
      ::waitpid(c->status.pid, nullptr, 0);
    }
  }
}

void ProcessSupervisor::WaitSignal() {
  sigchld_.async_wait([this, alive = alive_](const boost::system::error_code& ec, int) {
    if (ec || !*alive) return;
    Reap();
    WaitSignal();
  });
}

void ProcessSupervisor::Reap() {
  for (;;) {
    int wstatus = 0;
    const pid_t pid = ::waitpid(-1, &wstatus, WNOHANG);
    if (pid <= 0) return;
    for (auto& [name, c] : children_) {
      if (c->status.pid == pid) {
        OnExit(*c, wstatus);
        break;
      }
    }
  }
}

Status ProcessSupervisor::Spawn(Child& c) {
  const ProcessSpec& spec = c.spec;
  if (spec.argv.empty()) return InvalidArgument("no binary for " + spec.instance);
  // Everything the child needs is built before fork: only async-signal-safe calls after it.
  std::vector<std::string> env_store;
  std::set<std::string> replaced;
  for (const auto& e : spec.env) replaced.insert(e.substr(0, e.find('=')));
  for (char** e = environ; *e != nullptr; ++e) {
    std::string s(*e);
    if (!replaced.contains(s.substr(0, s.find('=')))) env_store.push_back(std::move(s));
  }
  env_store.insert(env_store.end(), spec.env.begin(), spec.env.end());
  std::vector<char*> envp;
  for (auto& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_store = spec.argv;
  std::vector<char*> argv;
  for (auto& a : argv_store) argv.push_back(a.data());
  argv.push_back(nullptr);
  int log_fd = -1;
  if (!spec.log_file.empty()) {
    log_fd = ::open(spec.log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
    if (log_fd < 0) return NotFound(spec.log_file + ": " + std::strerror(errno));
  }
  if (::access(argv[0], X_OK) != 0) {
    if (log_fd >= 0) ::close(log_fd);
    return NotFound(std::string(argv[0]) + ": " + std::strerror(errno));
  }
  errno = 0;
  const int own_nice = ::getpriority(PRIO_PROCESS, 0);
  const int child_nice = errno == 0 ? std::clamp(own_nice + spec.nice, -20, 19) : own_nice;
  const pid_t pid = ::fork();
  if (pid < 0) {
    if (log_fd >= 0) ::close(log_fd);
    return Internal(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // Its own process group: a stop reaches anything it started, and a Ctrl-C at the terminal
    // reaches only the rtrmgr, which stops the processes in order. No parent-death signal: the
    // router outlives its rtrmgr, and the next one adopts it.
    ::setpgid(0, 0);
    if (child_nice != own_nice) (void)::setpriority(PRIO_PROCESS, 0, child_nice);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (log_fd >= 0) {
      ::dup2(log_fd, 1);
      ::dup2(log_fd, 2);
    }
    // Nothing of ours but the standard streams: not our IPC sockets, not another child's log.
    ::close_range(3, ~0U, 0);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here, so a stop right after the fork finds the group
  // Also here, so the child runs at its priority when Start returns (it may not have run yet).
  if (child_nice != own_nice) (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(pid), child_nice);
  if (log_fd >= 0) ::close(log_fd);
  c.status.pid = pid;
  c.status.state = ProcessState::kRunning;
  c.status.started = std::chrono::steady_clock::now();
  Log()->info("started {} (pid {}): {}", spec.instance, pid, spec.argv[0]);
  return Status();
}

Status ProcessSupervisor::Start(ProcessSpec spec) {
  auto it = children_.find(spec.instance);
  if (it != children_.end() && it->second->status.state != ProcessState::kStopped &&
      it->second->status.state != ProcessState::kFailed) {
    return Status(StatusCode::kAlreadyExists, spec.instance + " is already running");
  }
  auto c = std::make_unique<Child>();
  c->policy = RestartPolicy(options_.restart);
  c->status.instance = spec.instance;
  c->status.process = spec.process;
  c->status.rank = spec.rank;
  c->spec = std::move(spec);
  if (Status s = Spawn(*c); !s.ok()) return s;
  Child& ref = *c;
  children_[ref.spec.instance] = std::move(c);
  if (on_started_) on_started_(ref.spec.instance);
  return Status();
}

Status ProcessSupervisor::Adopt(ProcessSpec spec, pid_t pid, uint32_t restarts,
                                std::string last_restart_reason) {
  auto it = children_.find(spec.instance);
  if (it != children_.end() && it->second->status.state != ProcessState::kStopped &&
      it->second->status.state != ProcessState::kFailed) {
    return Status(StatusCode::kAlreadyExists, spec.instance + " is already running");
  }
  const int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (fd < 0) return NotFound(spec.instance + " (pid " + std::to_string(pid) + ") is gone");
  auto c = std::make_unique<Child>();
  c->policy = RestartPolicy(options_.restart);
  c->status.instance = spec.instance;
  c->status.process = spec.process;
  c->status.rank = spec.rank;
  c->status.pid = pid;
  c->status.state = ProcessState::kRunning;
  c->status.restarts = restarts;
  c->status.last_restart_reason = std::move(last_restart_reason);
  c->status.started = ProcStartedAt(pid).value_or(std::chrono::steady_clock::now());
  c->status.adopted = true;
  c->spec = std::move(spec);
  Child& ref = *c;
  children_[ref.spec.instance] = std::move(c);
  WatchPidfd(ref, fd);
  Log()->info("adopted {} (pid {})", ref.spec.instance, pid);
  return Status();
}

void ProcessSupervisor::WatchPidfd(Child& c, int fd) {
  c.pidfd = std::make_unique<boost::asio::posix::stream_descriptor>(io_, fd);
  const pid_t pid = c.status.pid;
  c.pidfd->async_wait(
      boost::asio::posix::stream_descriptor::wait_read,
      [this, name = c.spec.instance, pid, alive = alive_](const boost::system::error_code& ec) {
        if (ec || !*alive) return;
        auto it = children_.find(name);
        if (it == children_.end() || it->second->status.pid != pid) return;
        OnExit(*it->second, -1);
      });
}

void ProcessSupervisor::Kill(const std::string& instance, std::string reason) {
  auto it = children_.find(instance);
  if (it == children_.end() || it->second->status.pid <= 0) return;
  Child& c = *it->second;
  if (c.status.state != ProcessState::kRunning) return;
  Log()->error("{} (pid {}) is {}; killing it", instance, c.status.pid, reason);
  c.kill_reason = std::move(reason);
  c.status.state = ProcessState::kHung;
  ::kill(-c.status.pid, SIGKILL);
}

void ProcessSupervisor::OnExit(Child& c, int wstatus) {
  const std::string why = DescribeExit(wstatus);
  const std::string name = c.spec.instance;
  const pid_t pid = c.status.pid;
  c.status.pid = 0;
  c.status.last_exit = why;
  c.pidfd.reset();
  c.status.adopted = false;
  if (c.timer) c.timer->cancel();
  // A process killed leaves its socket files behind.
  ipc::RemoveSocketFiles(ipc::DefaultRunDir(), pid);
  if (c.status.state == ProcessState::kStopping) {
    c.status.state = ProcessState::kStopped;
    Log()->info("{} stopped ({})", name, why);
    auto waiters = std::move(c.stop_waiters);
    for (auto& w : waiters) w();
    return;
  }
  Log()->warn("{} died ({})", name, why);
  c.status.last_restart_reason = c.kill_reason.empty() ? why : c.kill_reason;
  c.kill_reason.clear();
  if (on_exit_) on_exit_(name, why);
  auto delay = c.policy.OnCrash(std::chrono::steady_clock::now());
  if (!delay) {
    c.status.state = ProcessState::kFailed;
    Log()->error("{} crashed too often; giving up on it", name);
    if (on_give_up_) on_give_up_(name);
    return;
  }
  c.status.state = ProcessState::kRestarting;
  c.timer = std::make_unique<boost::asio::steady_timer>(io_, *delay);
  c.timer->async_wait([this, name, alive = alive_](const boost::system::error_code& ec) {
    if (ec || !*alive) return;
    auto it = children_.find(name);
    if (it == children_.end() || it->second->status.state != ProcessState::kRestarting) return;
    Child& ch = *it->second;
    ++ch.status.restarts;
    if (Status s = Spawn(ch); !s.ok()) {
      ch.status.state = ProcessState::kFailed;
      ch.status.last_exit = s.message();
      Log()->error("cannot restart {}: {}", name, s.ToString());
      if (on_give_up_) on_give_up_(name);
      return;
    }
    if (on_started_) on_started_(name);
  });
}

void ProcessSupervisor::Stop(const std::string& instance, std::function<void()> done) {
  auto it = children_.find(instance);
  if (it == children_.end()) {
    done();
    return;
  }
  Child& c = *it->second;
  if (c.status.pid <= 0) {
    if (c.timer) c.timer->cancel();
    if (c.status.state != ProcessState::kFailed) c.status.state = ProcessState::kStopped;
    done();
    return;
  }
  c.stop_waiters.push_back(std::move(done));
  if (c.status.state == ProcessState::kStopping) return;
  c.status.state = ProcessState::kStopping;
  if (!before_stop_) {
    Terminate(instance);
    return;
  }
  before_stop_(instance, [this, instance, alive = alive_] {
    if (*alive) Terminate(instance);
  });
}

void ProcessSupervisor::Terminate(const std::string& instance) {
  auto it = children_.find(instance);
  if (it == children_.end() || it->second->status.pid <= 0) return;
  Child& c = *it->second;
  ::kill(-c.status.pid, SIGTERM);
  c.timer = std::make_unique<boost::asio::steady_timer>(io_, options_.stop_grace);
  c.timer->async_wait([this, instance, alive = alive_](const boost::system::error_code& ec) {
    if (ec || !*alive) return;
    auto it = children_.find(instance);
    if (it == children_.end() || it->second->status.pid <= 0) return;
    Log()->warn("{} ignored SIGTERM; killing it", instance);
    ::kill(-it->second->status.pid, SIGKILL);
  });
}

void ProcessSupervisor::StopRanks(std::vector<uint32_t> ranks, std::function<void()> done) {
  if (ranks.empty()) {
    done();
    return;
  }
  const uint32_t rank = ranks.back();
  ranks.pop_back();
  std::vector<std::string> names;
  for (auto& [name, c] : children_) {
    if (c->spec.rank == rank) names.push_back(name);
  }
  auto left = std::make_shared<size_t>(names.size());
  auto next = [this, ranks, done = std::move(done)]() mutable {
    StopRanks(std::move(ranks), std::move(done));
  };
  if (names.empty()) {
    next();
    return;
  }
  auto shared_next = std::make_shared<decltype(next)>(std::move(next));
  for (const auto& n : names) {
    Stop(n, [left, shared_next] {
      if (--*left == 0) (*shared_next)();
    });
  }
}

void ProcessSupervisor::StopAll(std::function<void()> done) {
  std::set<uint32_t> ranks;
  for (auto& [name, c] : children_) ranks.insert(c->spec.rank);
  StopRanks(std::vector<uint32_t>(ranks.begin(), ranks.end()), std::move(done));
}

bool ProcessSupervisor::IsRunning(const std::string& instance) const {
  auto it = children_.find(instance);
  return it != children_.end() && it->second->status.state == ProcessState::kRunning;
}

const ProcessSpec* ProcessSupervisor::spec(const std::string& instance) const {
  auto it = children_.find(instance);
  return it == children_.end() ? nullptr : &it->second->spec;
}

std::vector<ProcessStatus> ProcessSupervisor::List() const {
  std::vector<ProcessStatus> out;
  for (auto& [name, c] : children_) {
    out.push_back(c->status);
    if (c->status.pid > 0) out.back().rss_kb = ProcRssKb(c->status.pid).value_or(0);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.rank < b.rank; });
  return out;
}

}  // namespace strata::rtrmgr
