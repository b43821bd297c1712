#include "bench/bgp/bgp_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "bench/bgp/bgp_netns.h"

namespace strata::bench {

bool ChildProcess::Start(const std::string& ns, const std::vector<std::string>& argv,
                         const std::string& log, const std::vector<std::string>& extra_env) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return false;
  if (pid == 0) {
    ::setpgid(0, 0);
    if (!ns.empty() && !BenchNetwork::Enter(ns)) ::_exit(126);
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, 0);
    for (const auto& e : extra_env) ::putenv(const_cast<char*>(e.c_str()));
    ::signal(SIGPIPE, SIG_DFL);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  pid_ = pid;
  RegisterChild(pid);
  return true;
}

bool ChildProcess::Running() {
  if (pid_ <= 0) return false;
  return ::waitpid(pid_, nullptr, WNOHANG) == 0;
}

void ChildProcess::Stop() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  using namespace std::chrono_literals;
  const auto end = std::chrono::steady_clock::now() + 5s;
  bool gone = false;
  while (std::chrono::steady_clock::now() < end) {
    const pid_t r = ::waitpid(pid_, nullptr, WNOHANG);
    if (r == pid_ || r < 0) {
      gone = true;
      break;
    }
    std::this_thread::sleep_for(20ms);
  }
  if (!gone) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  UnregisterChild(pid_);
  pid_ = -1;
}

long PeakRssKb(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return 0;
}

double CpuSeconds(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const auto close = s.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream in(s.substr(close + 2));
  std::string field;
  // Fields after the command: state(3) ... utime(14) stime(15).
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && in >> field; ++i) {
    if (i == 14) utime = std::strtoull(field.c_str(), nullptr, 10);
    if (i == 15) stime = std::strtoull(field.c_str(), nullptr, 10);
  }
  return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

pid_t ReadPidFile(const std::string& path) {
  std::ifstream f(path);
  long pid = -1;
  if (f >> pid) return static_cast<pid_t>(pid);
  return -1;
}

}  // namespace strata::bench
