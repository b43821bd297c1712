#include "testing/interop/command.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace strata::interop {

namespace {

using namespace std::chrono_literals;

// Spawns argv in a new process group with stdin from /dev/null and stdout+stderr to `out`
// (opened with `out_flags`).
pid_t Spawn(const std::vector<std::string>& argv, const std::string& out, int out_flags,
            const std::vector<std::string>& env) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), out_flags, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  std::vector<std::string> env_store;
  for (char** e = environ; *e != nullptr; ++e) env_store.emplace_back(*e);
  env_store.insert(env_store.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (auto& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawnp(&pid, args[0], &fa, &attr, args.data(), envp.data()) != 0) pid = -1;
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

int DecodeStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

CommandResult RunCommand(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                         const std::vector<std::string>& env) {
  CommandResult r;
  char tmpl[] = "/tmp/strata-iop-cmd-XXXXXX";
  const int fd = ::mkstemp(tmpl);
  if (fd < 0) return r;
  ::close(fd);
  const pid_t pid = Spawn(argv, tmpl, O_WRONLY | O_TRUNC, env);
  if (pid > 0) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    for (int wait_us = 200;; wait_us = std::min(wait_us * 2, 20000)) {
      if (::waitpid(pid, &status, WNOHANG) == pid) {
        r.exit_code = DecodeStatus(status);
        break;
      }
      if (std::chrono::steady_clock::now() > end) {
        ::kill(-pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        r.timed_out = true;
        r.exit_code = DecodeStatus(status);
        break;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(wait_us));
    }
  }
  std::ifstream f(tmpl);
  std::stringstream ss;
  ss << f.rdbuf();
  r.output = ss.str();
  ::unlink(tmpl);
  return r;
}

std::string JoinArgs(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) {
    if (!s.empty()) s += ' ';
    if (a.find_first_of(" \t'\"") != std::string::npos) {
      s += "'" + a + "'";
    } else {
      s += a;
    }
  }
  return s;
}

bool PollUntil(const std::function<bool()>& pred, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(100ms);
  }
  return pred();
}

Status Daemon::Start(const std::vector<std::string>& argv, const std::string& log_path,
                     const std::vector<std::string>& env) {
  if (pid_ > 0) return FailedPrecondition("already started: " + JoinArgs(argv));
  pid_ = Spawn(argv, log_path, O_WRONLY | O_CREAT | O_APPEND, env);
  if (pid_ <= 0) return Internal("cannot start " + JoinArgs(argv));
  return Status::Ok();
}

bool Daemon::Running() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    ::kill(-pid_, SIGKILL);  // helpers it left behind
    pid_ = -1;
    return false;
  }
  return true;
}

void Daemon::Stop(std::chrono::milliseconds grace) {
  if (pid_ <= 0) return;
  ::kill(-pid_, SIGTERM);
  int status = 0;
  const bool exited = PollUntil([&] { return ::waitpid(pid_, &status, WNOHANG) == pid_; }, grace);
  ::kill(-pid_, SIGKILL);
  if (!exited) ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

void Daemon::Kill() {
  if (pid_ <= 0) return;
  ::kill(-pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

}  // namespace strata::interop
