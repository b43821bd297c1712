#include "bench/bgp/bgp_netns.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace strata::bench {
namespace {

// Plain arrays: the signal handler reads them.
std::array<std::atomic<pid_t>, 16> g_children{};
char g_ns[2][64] = {};

void DeleteNs(const char* name) {
  if (name[0] == '\0') return;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/usr/bin/ip", "ip", "netns", "del", name, static_cast<char*>(nullptr));
    ::_exit(127);
  }
  if (pid > 0) ::waitpid(pid, nullptr, 0);
}

void OnSignal(int sig) {
  for (auto& c : g_children) {
    const pid_t p = c.load();
    if (p > 0) ::kill(p, SIGKILL);
  }
  for (auto& c : g_children) {
    const pid_t p = c.load();
    if (p > 0) ::waitpid(p, nullptr, 0);
  }
  DeleteNs(g_ns[0]);
  DeleteNs(g_ns[1]);
  ::_exit(128 + sig);
}

// Deletes bb-t<pid>/bb-r<pid> namespaces whose benchmark process no longer exists.
void RemoveStale() {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/run/netns", ec)) {
    const std::string n = e.path().filename().string();
    if (n.size() < 6 || n.rfind("bb-", 0) != 0 || (n[3] != 't' && n[3] != 'r')) continue;
    const long pid = std::strtol(n.c_str() + 4, nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == 0) continue;
    Sh("ip netns del " + n + " 2>/dev/null");
  }
}

}  // namespace

bool Sh(const std::string& cmd) { return std::system(cmd.c_str()) == 0; }

void RegisterChild(pid_t pid) {
  for (auto& c : g_children) {
    pid_t zero = 0;
    if (c.compare_exchange_strong(zero, pid)) return;
  }
}
void UnregisterChild(pid_t pid) {
  for (auto& c : g_children) {
    pid_t p = pid;
    if (c.compare_exchange_strong(p, 0)) return;
  }
}

void InstallCleanupHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  ::sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGHUP, &sa, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
}

BenchNetwork::BenchNetwork() {
  RemoveStale();
  const std::string id = std::to_string(::getpid());
  tester_ = "bb-t" + id;
  router_ = "bb-r" + id;
  std::snprintf(g_ns[0], sizeof g_ns[0], "%s", tester_.c_str());
  std::snprintf(g_ns[1], sizeof g_ns[1], "%s", router_.c_str());
  const std::string vt = "bb-" + id + "t", vr = "bb-" + id + "r";
  ok_ = Sh("ip netns add " + tester_) && Sh("ip netns add " + router_) &&
        Sh("ip link add " + vt + " netns " + tester_ + " type veth peer name " + vr + " netns " +
           router_) &&
        Sh("ip -n " + tester_ + " link set lo up") && Sh("ip -n " + router_ + " link set lo up") &&
        Sh("ip -n " + tester_ + " addr add 10.99.0.2/16 dev " + vt) &&
        Sh("ip -n " + tester_ + " addr add 10.99.0.3/16 dev " + vt) &&
        Sh("ip -n " + tester_ + " addr add 10.99.0.4/16 dev " + vt) &&
        Sh("ip -n " + router_ + " addr add 10.99.0.1/16 dev " + vr) &&
        Sh("ip -n " + tester_ + " link set " + vt + " up") &&
        Sh("ip -n " + router_ + " link set " + vr + " up");
}

BenchNetwork::~BenchNetwork() { Remove(); }

void BenchNetwork::Remove() {
  if (tester_.empty()) return;
  Sh("ip netns del " + tester_ + " 2>/dev/null");
  Sh("ip netns del " + router_ + " 2>/dev/null");
  g_ns[0][0] = g_ns[1][0] = '\0';
  tester_.clear();
  router_.clear();
}

bool BenchNetwork::Enter(const std::string& ns) {
  const int fd = ::open(("/run/netns/" + ns).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::setns(fd, CLONE_NEWNET) == 0;
  ::close(fd);
  return ok;
}

}  // namespace strata::bench
