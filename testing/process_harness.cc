#include "testing/process_harness.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace strata::testing {

namespace {

std::string Slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

pid_t SpawnWithFiles(const std::vector<std::string>& args, const std::string& in,
                     const std::string& out, const std::string& err, const std::string& run_dir) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> env_store;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string_view(*e).starts_with("STRATA_RUN_DIR=") ||
        std::string_view(*e).starts_with("STRATA_STATE_DIR=") ||
        std::string_view(*e).starts_with("STRATA_FINDER=")) {
      continue;
    }
    env_store.emplace_back(*e);
  }
  env_store.push_back("STRATA_RUN_DIR=" + run_dir);
  // Commits stay in the test's directory, never in the host's /var/lib/strata.
  env_store.push_back("STRATA_STATE_DIR=" + run_dir + "/state");
  std::vector<char*> envp;
  for (auto& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data()) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

}  // namespace

ProcessHarness::ProcessHarness() {
  char tmpl[] = "/tmp/strata-it-XXXXXX";
  dir_ = ::mkdtemp(tmpl);
  const char* b = std::getenv("STRATA_BIN_DIR");  // unset or empty: the build's bin folder
#ifdef STRATA_BIN_DIR_DEFAULT
  bin_dir_ = b != nullptr && *b != '\0' ? b : STRATA_BIN_DIR_DEFAULT;
#else
  bin_dir_ = b != nullptr && *b != '\0' ? b : ".";
#endif
}

ProcessHarness::~ProcessHarness() {
  for (pid_t p : pids_) ::kill(p, SIGKILL);
  for (pid_t p : pids_) ::waitpid(p, nullptr, 0);
  // The router's processes outlive a killed rtrmgr (docs/restart.md): every process that runs
  // with this run directory goes too.
  for (pid_t p : RunningIn(dir_)) ::kill(p, SIGKILL);
  std::filesystem::remove_all(dir_);
}

std::vector<pid_t> ProcessHarness::RunningIn(const std::string& run_dir) {
  std::vector<pid_t> out;
  const std::string want = "STRATA_RUN_DIR=" + run_dir;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    std::ifstream env(e.path() / "environ", std::ios::binary);
    std::string var;
    while (std::getline(env, var, '\0')) {
      if (var == want) {
        out.push_back(static_cast<pid_t>(std::stoi(name)));
        break;
      }
    }
  }
  return out;
}

std::string ProcessHarness::bin(const std::string& name) const {
  return name.starts_with('/') ? name : bin_dir_ + "/" + name;
}

pid_t ProcessHarness::Start(const std::vector<std::string>& args, const std::string& log_name) {
  std::vector<std::string> full = args;
  full[0] = bin(args[0]);
  const pid_t pid = SpawnWithFiles(full, "/dev/null", dir_ + "/" + log_name + ".out",
                                   dir_ + "/" + log_name + ".err", dir_);
  if (pid > 0) pids_.push_back(pid);
  return pid;
}

RunResult ProcessHarness::Run(const std::vector<std::string>& args, const std::string& input) {
  static int n = 0;
  const std::string base = dir_ + "/run" + std::to_string(++n);
  { std::ofstream(base + ".in") << input; }
  std::vector<std::string> full = args;
  full[0] = bin(args[0]);
  const pid_t pid = SpawnWithFiles(full, base + ".in", base + ".out", base + ".err", dir_);
  RunResult r;
  if (pid <= 0) return r;
  int status = 0;
  ::waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = Slurp(base + ".out");
  r.err = Slurp(base + ".err");
  return r;
}

pid_t ProcessHarness::StartFinder() {
  const pid_t pid = Start({"strata-finder"}, "finder");
  WaitFor([&] { return std::filesystem::exists(dir_ + "/finder.sock"); });
  return pid;
}

void ProcessHarness::Kill(pid_t pid, int sig) { ::kill(pid, sig); }

bool ProcessHarness::Exited(pid_t pid, int* status) {
  int st = 0;
  const pid_t r = ::waitpid(pid, &st, WNOHANG);
  if (r == pid) {
    pids_.erase(std::remove(pids_.begin(), pids_.end(), pid), pids_.end());
    if (status != nullptr) *status = st;
    return true;
  }
  return r < 0;
}

std::string ProcessHarness::ReadLog(const std::string& log_name) const {
  return Slurp(dir_ + "/" + log_name + ".out") + Slurp(dir_ + "/" + log_name + ".err");
}

bool ProcessHarness::WaitFor(const std::function<bool()>& pred, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pred();
}

}  // namespace strata::testing
