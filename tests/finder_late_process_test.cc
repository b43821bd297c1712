// A component started while no Finder listens waits for it (backoff, one log line per series of
// attempts) and registers once it appears, like after a Finder restart.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "testing/process_harness.h"

namespace strata::testing {
namespace {

using namespace std::chrono_literals;

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(FinderLateProcessTest, RibStartedBeforeTheFinderRegistersWhenItAppears) {
  ProcessHarness h;
  const pid_t rib = h.Start({"strata-rib", "--vr", "red"}, "rib");
  ASSERT_GT(rib, 0);
  // Long enough for several attempts (50 ms doubling to 1 s): the RIB must still be running.
  std::this_thread::sleep_for(1500ms);
  ASSERT_FALSE(h.Exited(rib)) << h.ReadLog("rib");
  EXPECT_EQ(Count(h.ReadLog("rib"), "retrying with backoff"), 1u) << h.ReadLog("rib");

  ASSERT_GT(h.StartFinder(), 0);
  RunResult r;
  EXPECT_TRUE(ProcessHarness::WaitFor(
      [&] {
        r = h.Run({"strata-call", "finder://rib.red/rib/1.0/list_routes?"});
        return r.exit_code == 0;
      },
      5000ms))
      << r.err << h.ReadLog("rib");
  EXPECT_NE(h.ReadLog("rib").find("the Finder appeared"), std::string::npos) << h.ReadLog("rib");
  EXPECT_FALSE(h.Exited(rib));
}

TEST(FinderLateProcessTest, ToolsStillFailAtOnceWithoutAFinder) {
  ProcessHarness h;
  const auto start = std::chrono::steady_clock::now();
  RunResult r = h.Run({"strata-call", "finder://rib.red/rib/1.0/list_routes?"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
}

}  // namespace
}  // namespace strata::testing
