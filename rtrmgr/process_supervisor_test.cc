// The supervisor against fake processes: small shell scripts that exit, crash or ignore SIGTERM.
#include "rtrmgr/process_supervisor.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>

namespace strata::rtrmgr {
namespace {

using std::chrono::milliseconds;

ProcessSpec Sh(const std::string& name, uint32_t rank, const std::string& script) {
  ProcessSpec s;
  s.instance = name;
  s.process = name;
  s.rank = rank;
  s.argv = {"/bin/sh", "-c", script};
  return s;
}

ProcessSupervisor::Options FastOptions() {
  ProcessSupervisor::Options o;
  o.restart.initial_backoff = milliseconds(20);
  o.restart.max_backoff = milliseconds(100);
  o.restart.max_crashes = 4;
  o.restart.window = milliseconds(60000);
  o.stop_grace = milliseconds(300);
  return o;
}

// Runs `io` until `pred` or the time limit.
bool RunUntil(boost::asio::io_context& io, const std::function<bool()>& pred,
              milliseconds limit = milliseconds(10000)) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!pred() && std::chrono::steady_clock::now() < end) {
    io.run_for(milliseconds(10));
    if (io.stopped()) io.restart();
  }
  return pred();
}

bool Alive(pid_t pid) { return pid > 0 && ::kill(pid, 0) == 0; }

TEST(ProcessSupervisorTest, RestartsACrashedProcessThenGivesUp) {
  boost::asio::io_context io;
  ProcessSupervisor sup(io, FastOptions());
  int starts = 0;
  std::vector<std::string> gave_up;
  sup.set_on_started([&](const std::string&) { ++starts; });
  sup.set_on_give_up([&](const std::string& n) { gave_up.push_back(n); });
  ASSERT_TRUE(sup.Start(Sh("crashy", 10, "exit 3")).ok());
  ASSERT_TRUE(sup.Start(Sh("steady", 20, "sleep 30")).ok());
  ASSERT_TRUE(RunUntil(io, [&] { return !gave_up.empty(); }));
  EXPECT_EQ(gave_up, std::vector<std::string>{"crashy"});
  EXPECT_EQ(starts, 5);  // crashy: first start and 3 restarts; steady: 1
  auto list = sup.List();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].instance, "crashy");
  EXPECT_EQ(list[0].state, ProcessState::kFailed);
  EXPECT_EQ(list[0].restarts, 3u);
  EXPECT_EQ(list[0].last_exit, "exit 3");
  EXPECT_EQ(list[1].state, ProcessState::kRunning);  // the rest keeps running
  EXPECT_TRUE(Alive(list[1].pid));
  bool stopped = false;
  sup.StopAll([&] { stopped = true; });
  ASSERT_TRUE(RunUntil(io, [&] { return stopped; }));
  EXPECT_FALSE(Alive(list[1].pid));
}

TEST(ProcessSupervisorTest, KilledProcessComesBackWithBackoff) {
  boost::asio::io_context io;
  ProcessSupervisor sup(io, FastOptions());
  std::vector<std::string> exits;
  sup.set_on_exit(
      [&](const std::string& n, const std::string& why) { exits.push_back(n + " " + why); });
  ASSERT_TRUE(sup.Start(Sh("rib.red", 20, "sleep 30")).ok());
  const pid_t first = sup.List()[0].pid;
  ASSERT_EQ(::kill(first, SIGKILL), 0);
  ASSERT_TRUE(RunUntil(io, [&] {
    auto l = sup.List();
    return l[0].state == ProcessState::kRunning && l[0].pid != first;
  }));
  EXPECT_EQ(exits, std::vector<std::string>{"rib.red signal 9"});
  EXPECT_EQ(sup.List()[0].restarts, 1u);
  bool stopped = false;
  sup.StopAll([&] { stopped = true; });
  ASSERT_TRUE(RunUntil(io, [&] { return stopped; }));
}

TEST(ProcessSupervisorTest, StopAllGoesInReverseRankAndKillsStubbornOnes) {
  boost::asio::io_context io;
  ProcessSupervisor sup(io, FastOptions());
  const std::string log = ::testing::TempDir() + "/stop_order_" + std::to_string(::getpid());
  std::remove(log.c_str());
  // Each records its name when SIGTERM arrives; "stubborn" ignores it.
  auto rec = [&](const std::string& n) {
    return "trap 'echo " + n + " >> " + log + "; exit 0' TERM; while :; do sleep 0.05; done";
  };
  ASSERT_TRUE(sup.Start(Sh("fea", 10, rec("fea"))).ok());
  ASSERT_TRUE(sup.Start(Sh("bgp.red", 30, rec("bgp.red"))).ok());
  ASSERT_TRUE(sup.Start(Sh("rib.red", 20, rec("rib.red"))).ok());
  ASSERT_TRUE(sup.Start(Sh("stubborn", 5, "trap '' TERM; while :; do sleep 0.05; done")).ok());
  std::vector<pid_t> pids;
  for (const auto& p : sup.List()) pids.push_back(p.pid);
  RunUntil(
      io, [] { return false; }, milliseconds(200));  // let the traps be set
  bool stopped = false;
  sup.StopAll([&] { stopped = true; });
  ASSERT_TRUE(RunUntil(io, [&] { return stopped; }));
  for (pid_t p : pids) EXPECT_FALSE(Alive(p)) << p;
  std::ifstream f(log);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_EQ(ss.str(), "bgp.red\nrib.red\nfea\n");
  for (const auto& p : sup.List()) EXPECT_EQ(p.state, ProcessState::kStopped) << p.instance;
  std::remove(log.c_str());
}

// The nice field of /proc/PID/stat (the 19th; the command in parentheses may hold spaces).
int NiceOf(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::istringstream rest(stat.substr(stat.rfind(')') + 2));
  std::string field;
  for (int i = 3; i <= 19; ++i) rest >> field;  // fields 3 (state) .. 19 (nice)
  return std::stoi(field);
}

TEST(ProcessSupervisorTest, StartsAProcessAtItsNiceIncrement) {
  boost::asio::io_context io;
  ProcessSupervisor sup(io, FastOptions());
  ProcessSpec bulk = Sh("bulk", 10, "sleep 30");
  bulk.nice = 7;
  ASSERT_TRUE(sup.Start(bulk).ok());
  ASSERT_TRUE(sup.Start(Sh("plain", 20, "sleep 30")).ok());
  const int own = NiceOf(::getpid());
  for (const auto& p : sup.List()) {
    ASSERT_TRUE(Alive(p.pid)) << p.instance;
    EXPECT_EQ(NiceOf(p.pid), p.instance == "bulk" ? std::min(own + 7, 19) : own) << p.instance;
  }
  bool stopped = false;
  sup.StopAll([&] { stopped = true; });
  ASSERT_TRUE(RunUntil(io, [&] { return stopped; }));
}

TEST(ProcessSupervisorTest, MissingBinaryIsAnError) {
  boost::asio::io_context io;
  ProcessSupervisor sup(io, FastOptions());
  ProcessSpec s;
  s.instance = "ghost";
  s.argv = {"/nonexistent/strata-ghost"};
  EXPECT_EQ(sup.Start(s).code(), StatusCode::kNotFound);
}

TEST(ProcessSupervisorTest, AHungProcessIsKilledAndRestartedWithTheReason) {
  boost::asio::io_context io;
  ProcessSupervisor sup(io, FastOptions());
  ASSERT_TRUE(sup.Start(Sh("rib.red", 20, "sleep 30")).ok());
  const pid_t first = sup.List()[0].pid;
  sup.Kill("rib.red", "hung: no answer to a liveness ping in 3000 ms");
  EXPECT_EQ(sup.List()[0].state, ProcessState::kHung);
  ASSERT_TRUE(RunUntil(io, [&] {
    auto l = sup.List();
    return l[0].state == ProcessState::kRunning && l[0].pid != first;
  }));
  const ProcessStatus s = sup.List()[0];
  EXPECT_EQ(s.restarts, 1u);
  EXPECT_EQ(s.last_exit, "signal 9");
  EXPECT_EQ(s.last_restart_reason, "hung: no answer to a liveness ping in 3000 ms");
  EXPECT_GT(s.rss_kb, 0u);
  // A crash after it: the reason is the exit again.
  ASSERT_EQ(::kill(s.pid, SIGKILL), 0);
  ASSERT_TRUE(RunUntil(io, [&] { return sup.List()[0].restarts == 2; }));
  EXPECT_EQ(sup.List()[0].last_restart_reason, "signal 9");
  bool stopped = false;
  sup.StopAll([&] { stopped = true; });
  ASSERT_TRUE(RunUntil(io, [&] { return stopped; }));
}

// A process an earlier rtrmgr started: not our child, its death is seen through a pidfd and it
// is then started again as our own.
TEST(ProcessSupervisorTest, AnAdoptedProcessIsWatchedAndRestartedAsOurOwn) {
  boost::asio::io_context io;
  ProcessSupervisor sup(io, FastOptions());
  pid_t orphan = 0;
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  char sh[] = "/bin/sh", c[] = "-c", cmd[] = "sleep 30";
  char* argv[] = {sh, c, cmd, nullptr};
  ASSERT_EQ(::posix_spawn(&orphan, "/bin/sh", nullptr, &attr, argv, environ), 0);
  posix_spawnattr_destroy(&attr);
  ASSERT_TRUE(sup.Adopt(Sh("fea", 10, "sleep 30"), orphan, 2).ok());
  EXPECT_EQ(sup.Adopt(Sh("fea", 10, "sleep 30"), orphan, 2).code(), StatusCode::kAlreadyExists);
  ProcessStatus s = sup.List()[0];
  EXPECT_EQ(s.pid, orphan);
  EXPECT_TRUE(s.adopted);
  EXPECT_EQ(s.restarts, 2u);
  EXPECT_EQ(s.state, ProcessState::kRunning);
  ASSERT_EQ(::kill(orphan, SIGKILL), 0);
  ASSERT_TRUE(RunUntil(io, [&] {
    auto l = sup.List();
    return l[0].state == ProcessState::kRunning && l[0].pid != orphan;
  }));
  s = sup.List()[0];
  EXPECT_FALSE(s.adopted);
  EXPECT_EQ(s.restarts, 3u);
  EXPECT_EQ(s.last_exit, "exited (status unknown: started by an earlier rtrmgr)");
  bool stopped = false;
  sup.StopAll([&] { stopped = true; });
  ASSERT_TRUE(RunUntil(io, [&] { return stopped; }));
  EXPECT_EQ(sup.Adopt(Sh("bgp.red", 30, "x"), orphan, 0).code(), StatusCode::kNotFound);
}

// Children get the standard descriptors only: none of the rtrmgr's sockets or files.
TEST(ProcessSupervisorTest, ChildrenInheritOnlyTheStandardDescriptors) {
  boost::asio::io_context io;
  ProcessSupervisor sup(io, FastOptions());
  const int leak = ::open("/dev/null", O_RDONLY);  // no O_CLOEXEC
  ASSERT_GE(leak, 0);
  const std::string out = ::testing::TempDir() + "/fds_" + std::to_string(::getpid());
  std::remove(out.c_str());
  // ls opens the directory it lists as one more descriptor.
  ASSERT_TRUE(sup.Start(Sh("fea", 10, "ls /proc/self/fd > " + out + "; sleep 30")).ok());
  std::string fds;
  ASSERT_TRUE(RunUntil(io, [&] {
    std::ifstream f(out);
    std::stringstream ss;
    ss << f.rdbuf();
    fds = ss.str();
    return !fds.empty();
  }));
  EXPECT_EQ(fds, "0\n1\n2\n3\n");
  ::close(leak);
  bool stopped = false;
  sup.StopAll([&] { stopped = true; });
  ASSERT_TRUE(RunUntil(io, [&] { return stopped; }));
  std::remove(out.c_str());
}

TEST(ProcessSupervisorTest, EveryStopWaitsForTheBeforeStopHook) {
  boost::asio::io_context io;
  ProcessSupervisor sup(io, FastOptions());
  std::vector<std::string> asked;
  std::vector<std::function<void()>> held;
  sup.set_before_stop([&](const std::string& instance, std::function<void()> proceed) {
    asked.push_back(instance);
    held.push_back(std::move(proceed));
  });
  ASSERT_TRUE(sup.Start(Sh("fea", 10, "sleep 30")).ok());
  ASSERT_TRUE(sup.Start(Sh("bgp.red", 30, "sleep 30")).ok());
  bool stopped = false;
  sup.StopAll([&] { stopped = true; });
  RunUntil(
      io, [] { return false; }, milliseconds(100));
  EXPECT_EQ(asked, std::vector<std::string>{"bgp.red"}) << "one rank at a time";
  EXPECT_EQ(sup.List()[1].state, ProcessState::kStopping);
  EXPECT_TRUE(Alive(sup.List()[1].pid)) << "no SIGTERM before the hook proceeds";
  held.back()();
  ASSERT_TRUE(RunUntil(io, [&] { return asked.size() == 2; }));
  EXPECT_EQ(asked.back(), "fea");
  held.back()();
  ASSERT_TRUE(RunUntil(io, [&] { return stopped; }));
}

}  // namespace
}  // namespace strata::rtrmgr
