// strata-finder, two components and strata-call as separate processes.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "testing/process_harness.h"

namespace strata::testing {
namespace {

using namespace std::chrono_literals;

class IpcProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    finder_ = h_.StartFinder();
    ASSERT_GT(finder_, 0);
  }
  // Starts a test target and waits until strata-call reaches it.
  pid_t StartTarget(const std::string& name, const std::string& cls = "test",
                    const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"strata-test-target", "-n", name, "-c", cls};
    args.insert(args.end(), extra.begin(), extra.end());
    const pid_t pid = h_.Start(args, name);
    EXPECT_TRUE(ProcessHarness::WaitFor([&] {
      return h_.Run({"strata-call", "finder://" + name + "/test/1.0/ping"}).exit_code == 0;
    }));
    return pid;
  }
  RunResult Call(const std::vector<std::string>& args) {
    std::vector<std::string> full = {"strata-call"};
    full.insert(full.end(), args.begin(), args.end());
    return h_.Run(full);
  }

  ProcessHarness h_;
  pid_t finder_ = 0;
};

TEST_F(IpcProcessTest, CallsAcrossProcessesAndPrintsAtoms) {
  StartTarget("t1");
  auto r = Call({"finder://t1/test/1.0/add?a:u32=4000000000&b:u32=1000000000"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "sum:u64=5000000000\n");
  r = Call({"--json",
            "finder://test/test/1.0/echo?txt:txt=a%26b&addr:ipv6=2001:db8::1&"
            "nets:list<ipv4net>=10.0.0.0/8,192.0.2.0/24&flag:bool=true"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"txt\":\"a&b\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"addr\":\"2001:db8::1\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"nets\":[\"10.0.0.0/8\",\"192.0.2.0/24\"]"), std::string::npos);
  EXPECT_NE(r.out.find("\"flag\":true"), std::string::npos);
}

TEST_F(IpcProcessTest, ComponentsCallEachOtherAndSeeDeathsAsErrors) {
  StartTarget("a");
  const pid_t b = StartTarget("b");
  auto r = Call({"finder://a/test/1.0/relay?target:txt=b&a:u32=20&b:u32=22"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "sum:u64=42&code:u32=0&message:txt=\n");
  // b dies during a relayed call: a's call fails with UNAVAILABLE (14), "died".
  const std::string slow = "finder://a/test/1.0/relay?target:txt=b&delay_ms:u32=3000";
  const pid_t caller = h_.Start({"strata-call", slow}, "slow");
  ASSERT_TRUE(ProcessHarness::WaitFor([&] {
    auto c = Call({"finder://b/test/1.0/get_count"});
    return c.exit_code == 0;
  }));
  std::this_thread::sleep_for(300ms);
  h_.Kill(b, SIGKILL);
  int status = 0;
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return h_.Exited(caller, &status); }, 2000ms));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_NE(h_.ReadLog("slow").find("code:u32=14"), std::string::npos) << h_.ReadLog("slow");
  EXPECT_NE(h_.ReadLog("slow").find("died"), std::string::npos);
  // Afterwards b is unknown: NOT_FOUND (5).
  r = Call({"finder://a/test/1.0/relay?target:txt=b&a:u32=1&b:u32=1"});
  EXPECT_NE(r.out.find("code:u32=5"), std::string::npos) << r.out;
}

TEST_F(IpcProcessTest, ResolvesGenericXrlsIntoTransportForms) {
  StartTarget("t1");
  auto r = Call({"-r", "finder://t1/test/1.0/add?a:u32=1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("sunix://"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/test/1.0/add?a:u32=1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stcp://127.0.0.1:"), std::string::npos) << r.out;
}

TEST_F(IpcProcessTest, ListsMethodsWithTypes) {
  StartTarget("t1");
  auto r = Call({"-l", "t1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("test/1.0/add?a:u32&b:u32 -> sum:u64\n"), std::string::npos) << r.out;
  r = Call({"-l", "finder"});
  EXPECT_NE(r.out.find("finder/1.0/resolve_target?target:txt&secret:txt"), std::string::npos);
  r = Call({"-l", "nobody"});
  EXPECT_EQ(r.exit_code, 5);
}

TEST_F(IpcProcessTest, EveryErrorPathHasItsCode) {
  StartTarget("t1");
  struct Case {
    std::string xrl;
    int code;
    std::string text;
  } cases[] = {
      {"finder://nobody/test/1.0/ping", 5, "NOT_FOUND: no such target 'nobody'"},
      {"finder://t1/test/1.0/nope", 12, "UNIMPLEMENTED: no such method 'test/1.0/nope'"},
      {"finder://t1/test/1.0/add?a:u64=1", 3, "argument 'a' is u32, not u64"},
      {"finder://t1/test/1.0/add?zz:u32=1", 3, "no argument 'zz'"},
      {"finder://t1/test/1.0/add?a:u32=4294967296", 3, "position 31: expected a decimal u32"},
      {"finder://t1/test/1.0/fail?code:u32=9&message:txt=precondition", 9,
       "FAILED_PRECONDITION: precondition"},
      {"finder:/t1/test", 3, "position 6: expected '://'"},
      {"sunix://%2Ftmp%2Fx/test/1.0/ping", 3, "only generic XRLs"},
  };
  for (const auto& c : cases) {
    auto r = Call({c.xrl});
    EXPECT_EQ(r.exit_code, c.code) << c.xrl << ": " << r.err;
    EXPECT_NE(r.err.find(c.text), std::string::npos) << c.xrl << ": " << r.err;
  }
  auto r = Call({"-t", "200", "finder://t1/test/1.0/sleep?delay_ms:u32=3000"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("DEADLINE_EXCEEDED"), std::string::npos);
  // Still alive after all that.
  EXPECT_EQ(Call({"finder://t1/test/1.0/ping"}).exit_code, 0);
}

TEST_F(IpcProcessTest, RunsScriptsFromFileAndStdin) {
  StartTarget("t1");
  const std::string script =
      "# a comment\n\nfinder://t1/test/1.0/add?a:u32=1&b:u32=2\n"
      "  finder://t1/test/1.0/add?a:u32=3&b:u32=4  \n";
  auto r = h_.Run({"strata-call", "-f", "-"}, script);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "sum:u64=3\nsum:u64=7\n");
  const std::string file = h_.run_dir() + "/script.xrl";
  std::ofstream(file) << "finder://t1/test/1.0/nope\nfinder://t1/test/1.0/add?a:u32=1\n";
  r = Call({"-f", file});
  EXPECT_EQ(r.exit_code, 12) << "stops at the first failure";
  EXPECT_EQ(r.out, "");
  r = Call({"-k", "-f", file});
  EXPECT_EQ(r.exit_code, 12);
  EXPECT_EQ(r.out, "sum:u64=1\n") << "-k goes on";
  EXPECT_EQ(Call({"-f", "/nonexistent"}).exit_code, 5);
}

TEST_F(IpcProcessTest, SigkilledComponentIsDeclaredDeadWithinASecond) {
  StartTarget("watcher", "watcher", {"--watch", "test"});
  const pid_t victim = StartTarget("t1");
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] { return h_.ReadLog("watcher").find("EVENT birth test t1") != std::string::npos; }));
  const auto killed_at = std::chrono::steady_clock::now();
  h_.Kill(victim, SIGKILL);
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] { return h_.ReadLog("watcher").find("EVENT death test t1") != std::string::npos; },
      1000ms));
  EXPECT_LT(std::chrono::steady_clock::now() - killed_at, 1s);
  auto r = Call({"finder://t1/test/1.0/ping"});
  EXPECT_EQ(r.exit_code, 5) << r.err;
  // A new instance takes the name back, and the watcher hears of it.
  StartTarget("t1");
  EXPECT_TRUE(ProcessHarness::WaitFor([&] {
    const auto log = h_.ReadLog("watcher");
    return log.find("EVENT birth test t1") != log.rfind("EVENT birth test t1");
  }));
}

// strata-finder killed and started again on the same socket: the components stay up, register
// again, are found by strata-call, and the watcher hears later deaths, but no death or second
// birth of the components that lived on.
TEST_F(IpcProcessTest, SigkilledFinderIsReplacedAndComponentsRegisterAgain) {
  const pid_t watcher = StartTarget("watcher", "watcher", {"--watch", "test"});
  const pid_t t1 = StartTarget("t1");
  const pid_t t2 = StartTarget("t2");
  ASSERT_TRUE(ProcessHarness::WaitFor([&] {
    const auto log = h_.ReadLog("watcher");
    return log.find("EVENT birth test t1") != std::string::npos &&
           log.find("EVENT birth test t2") != std::string::npos;
  }));
  h_.Kill(finder_, SIGKILL);
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return h_.Exited(finder_); }));
  EXPECT_NE(Call({"finder://t1/test/1.0/ping"}).exit_code, 0) << "no Finder, no resolution";
  std::filesystem::remove(h_.run_dir() + "/finder.sock");
  finder_ = h_.StartFinder();
  ASSERT_GT(finder_, 0);
  for (const char* t : {"t1", "t2"}) {
    EXPECT_TRUE(ProcessHarness::WaitFor([&] {
      return Call({std::string("finder://") + t + "/test/1.0/ping"}).exit_code == 0;
    })) << t
        << " is found again";
  }
  for (pid_t p : {watcher, t1, t2}) EXPECT_FALSE(h_.Exited(p)) << "pid " << p;
  h_.Kill(t2, SIGKILL);
  ASSERT_TRUE(ProcessHarness::WaitFor([&] {
    return h_.ReadLog("watcher").find("EVENT death test t2") != std::string::npos;
  })) << h_.ReadLog("watcher");
  const auto log = h_.ReadLog("watcher");
  EXPECT_EQ(log.find("EVENT death test t1"), std::string::npos) << log;
  EXPECT_EQ(log.find("EVENT birth test t1"), log.rfind("EVENT birth test t1")) << log;
  EXPECT_EQ(Call({"finder://t1/test/1.0/ping"}).exit_code, 0);
}

TEST_F(IpcProcessTest, SoleInstanceClassRefusesASecondProcess) {
  StartTarget("one");
  // strata-test-target registers non-sole; a second instance of the same name is refused.
  const pid_t dup = h_.Start({"strata-test-target", "-n", "one"}, "dup");
  int status = 0;
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return h_.Exited(dup, &status); }));
  EXPECT_NE(WEXITSTATUS(status), 0);
  EXPECT_NE(h_.ReadLog("dup").find("already registered"), std::string::npos);
}

TEST_F(IpcProcessTest, FinderSurvivesGarbageAndHostileRequests) {
  StartTarget("t1");
  // A huge list and garbage arguments: error replies, nothing dies.
  std::string big = "finder://t1/test/1.0/echo?numbers:list<u32>=";
  for (int i = 0; i < 200000; ++i) big += (i ? "," : "") + std::to_string(i);
  auto r = h_.Run({"strata-call", "-f", "-"}, big + "\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = Call({"finder://finder/finder/1.0/register_target?class_name:txt=bad%20name"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(Call({"finder://t1/test/1.0/ping"}).exit_code, 0);
  EXPECT_FALSE(h_.Exited(finder_));
}

// The target's resident memory, in kB (/proc/PID/status VmRSS).
long VmRssKb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

int ConnectUnix(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// 32 connections each send a length prefix and nothing more (16 claiming just under the
// default 8 MiB frame limit, 16 claiming 64 MiB): the target allocates by the bytes it got,
// refuses the oversized claims, closes the rest after its frame timeout, and keeps answering.
TEST_F(IpcProcessTest, LengthPrefixesAloneDoNotGrowTheTarget) {
  ::setenv("STRATA_IPC_FRAME_TIMEOUT_MS", "1000", 1);
  const pid_t t1 = StartTarget("t1");
  ::unsetenv("STRATA_IPC_FRAME_TIMEOUT_MS");
  const std::string sock = h_.run_dir() + "/t1." + std::to_string(t1) + ".sock";
  const long before = VmRssKb(t1);
  ASSERT_GT(before, 0);
  std::vector<int> fds;
  for (int i = 0; i < 32; ++i) {
    const int fd = ConnectUnix(sock);
    ASSERT_GE(fd, 0) << sock;
    const uint32_t len = i < 16 ? (8u << 20) - 1 : (64u << 20) - 1;
    ASSERT_EQ(::send(fd, &len, 4, MSG_NOSIGNAL), 4);
    fds.push_back(fd);
  }
  std::this_thread::sleep_for(500ms);
  const long after = VmRssKb(t1);
  std::printf("VmRSS of the target: %ld kB before, %ld kB with 32 length prefixes\n", before,
              after);
  EXPECT_LT(after - before, 8 * 1024) << before << " kB -> " << after << " kB";
  EXPECT_EQ(Call({"finder://t1/test/1.0/ping"}).exit_code, 0);
  // Every one of them is closed: the 64 MiB claims at once, the others after the timeout.
  EXPECT_TRUE(ProcessHarness::WaitFor([&] {
    for (int fd : fds) {
      char c;
      if (::recv(fd, &c, 1, MSG_DONTWAIT) != 0) return false;
    }
    return true;
  }));
  for (int fd : fds) ::close(fd);
}

}  // namespace
}  // namespace strata::testing
