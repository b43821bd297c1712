// The harness's plumbing against the real kernel: namespaces, veth links, cleanup of leftovers,
// and command/daemon process handling.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include "testing/interop/command.h"
#include "testing/interop/interop_fixture.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;

bool NsExists(const std::string& name) {
  return RunCommand({"ip", "netns", "list"}).output.find(name) != std::string::npos;
}

class HarnessTest : public InteropTest {};

TEST_F(HarnessTest, VethLinkJoinsTwoNamespacesWithBothFamilies) {
  NetNs& a = AddNs("ha");
  NetNs& b = AddNs("hb");
  VethLink& link = AddLink(a, b, 7);
  EXPECT_EQ(link.a_v4(), "10.200.7.1");
  auto ra = a.Exec({"ip", "-o", "addr", "show", "dev", link.a_ifname()});
  EXPECT_NE(ra.output.find("10.200.7.1/24"), std::string::npos) << ra.output;
  EXPECT_NE(ra.output.find("fd00:200:7::1/64"), std::string::npos) << ra.output;
  EXPECT_EQ(ra.output.find("tentative"), std::string::npos) << ra.output;
  auto rb = b.Exec({"ip", "-o", "addr", "show", "dev", link.b_ifname()});
  EXPECT_NE(rb.output.find("10.200.7.2/24"), std::string::npos) << rb.output;
  // The kernel resolves the other side: a neighbour entry appears after a connect attempt.
  (void)a.Exec({"bash", "-c", "exec 3<>/dev/tcp/10.200.7.2/9 || true"}, 3s);
  auto neigh = a.Exec({"ip", "neigh", "show", "10.200.7.2"});
  EXPECT_EQ(neigh.output.find("FAILED"), std::string::npos) << neigh.output;
  EXPECT_NE(neigh.output.find("lladdr"), std::string::npos) << neigh.output;
  // Nothing leaks into the root namespace.
  EXPECT_EQ(RunCommand({"ip", "link", "show", link.a_ifname()}).exit_code, 1);
}

TEST_F(HarnessTest, NamespaceIsDeletedWithItsProcesses) {
  std::string name;
  Daemon sleeper;
  {
    auto ns = NetNs::Create("gone");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    name = (*ns)->name();
    ASSERT_TRUE(sleeper.Start((*ns)->Wrap({"sleep", "60"}), dir() + "/sleep.log").ok());
    ASSERT_TRUE(PollUntil(
        [&] {
          return !RunCommand({"ip", "netns", "pids", name}).output.empty();
        },
        2s));
    EXPECT_TRUE(NsExists(name));
  }
  EXPECT_FALSE(NsExists(name));
  EXPECT_TRUE(PollUntil([&] { return !sleeper.Running(); }, 2s));
}

TEST_F(HarnessTest, LeftoversOfDeadTestProcessesAreRemoved) {
  // A pid that is not alive: a forked child that has exited and been reaped.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  const std::string stale = "iop-" + std::to_string(child) + "-stale";
  ASSERT_TRUE(RunCommand({"ip", "netns", "add", stale}).ok());
  const std::string mine = "iop-" + std::to_string(::getpid()) + "-mine";
  ASSERT_TRUE(RunCommand({"ip", "netns", "add", mine}).ok());
  NetNs::RemoveLeftovers();
  EXPECT_FALSE(NsExists(stale));
  EXPECT_TRUE(NsExists(mine));  // its owner (this process) is alive
  (void)RunCommand({"ip", "netns", "del", mine});
}

TEST(CommandTest, CapturesOutputAndExitCodeAndKillsOnTimeout) {
  auto r = RunCommand({"sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.output.find("out"), std::string::npos);
  EXPECT_NE(r.output.find("err"), std::string::npos);
  const auto start = std::chrono::steady_clock::now();
  r = RunCommand({"sh", "-c", "sleep 30 & sleep 30"}, 300ms);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_EQ(RunCommand({"/nonexistent/binary"}).exit_code, -1);
}

TEST(CommandTest, DaemonStopKillsItsWholeProcessGroup) {
  char tmpl[] = "/tmp/strata-iop-daemon-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  Daemon d;
  ASSERT_TRUE(
      d.Start({"sh", "-c", "sleep 60 & echo $! > " + dir + "/child; wait"}, dir + "/log").ok());
  pid_t child = 0;
  ASSERT_TRUE(PollUntil(
      [&] {
        auto r = RunCommand({"cat", dir + "/child"});
        if (!r.ok() || r.output.empty()) return false;
        child = std::stoi(r.output);
        return true;
      },
      3s));
  EXPECT_TRUE(d.Running());
  d.Stop();
  EXPECT_FALSE(d.Running());
  // Gone, or a zombie waiting for init to reap it.
  EXPECT_TRUE(PollUntil(
      [&] {
        const auto stat = RunCommand({"cat", "/proc/" + std::to_string(child) + "/stat"});
        return !stat.ok() || stat.output.find(") Z ") != std::string::npos;
      },
      2s));
  RunCommand({"rm", "-rf", dir});
}

}  // namespace
}  // namespace strata::interop
