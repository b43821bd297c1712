// The README's first command runs examples/strata.conf under strata-rtrmgr (run-router.sh). This
// test runs that same file the same way (--no-kernel) and checks what the file's comment
// promises: both speakers establish, red installs blue's prefix learned by BGP over lo, and no
// process logs an error. Needs strata-bgp; uses 127.0.0.2/127.0.0.3 port 1179 as the example.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

#include "common/json.h"
#include "testing/common/source_dir.h"
#include "testing/process_harness.h"

namespace strata::testing {
namespace {

using namespace std::chrono_literals;

using test_paths::SourceDir;

TEST(ExampleConfigTest, RunsAsTheReadmeSays) {
  ProcessHarness h;
  if (!std::filesystem::exists(h.bin("strata-bgp"))) {
    GTEST_SKIP() << "strata-bgp is not built in " << h.bin("");
  }
  const std::string conf = SourceDir() + "/examples/strata.conf";
  ASSERT_EQ(h.Run({"strata-rtrmgr", "--check", conf}).exit_code, 0);
  const std::string logs = h.run_dir() + "/logs";
  const pid_t rtrmgr = h.Start({"strata-rtrmgr", "-c", conf, "--no-kernel", "--state-dir",
                                h.run_dir() + "/state", "--log-dir", logs},
                               "rtrmgr");
  ASSERT_GT(rtrmgr, 0);
  auto json = [&](const std::string& cmd) {
    auto r = h.Run({"strata-sh", "-c", cmd + " --json"});
    return r.exit_code == 0 ? nlohmann::json::parse(r.out, nullptr, false) : nlohmann::json();
  };
  auto route = [&](const std::string& vr, const std::string& prefix) {
    auto j = json("show route vr " + vr);
    if (!j.is_object() || !j.contains("routes")) return nlohmann::json();
    for (const auto& r : j["routes"]) {
      if (r["prefix"] == prefix) return r;
    }
    return nlohmann::json();
  };
  ASSERT_TRUE(
      ProcessHarness::WaitFor([&] { return route("red", "198.51.100.0/24").is_object(); }, 30s))
      << h.ReadLog("rtrmgr");
  const auto r = route("red", "198.51.100.0/24");
  EXPECT_EQ(r["protocol"], "ebgp");
  EXPECT_EQ(r["nexthop"], "127.0.0.3");
  EXPECT_TRUE(route("red", "192.0.2.0/24").is_object());
  for (const auto& [vr, peer] : {std::pair{"red", "127.0.0.3"}, std::pair{"blue", "127.0.0.2"}}) {
    auto j = json(std::string("show bgp neighbor ") + peer + " vr " + vr);
    ASSERT_TRUE(j.is_object() && j.contains("peers") && !j["peers"].empty()) << j.dump();
    EXPECT_EQ(j["peers"][0]["state"], "Established") << j.dump();
  }
  // Every process's log (and the rtrmgr's own) is free of errors.
  std::string all = h.ReadLog("rtrmgr");
  if (std::filesystem::exists(logs)) {
    for (const auto& f : std::filesystem::directory_iterator(logs)) {
      std::ifstream in(f.path());
      all += std::string(std::istreambuf_iterator<char>(in), {});
    }
  }
  EXPECT_EQ(all.find(" error "), std::string::npos) << all;
  h.Kill(rtrmgr, SIGTERM);
  EXPECT_TRUE(ProcessHarness::WaitFor([&] { return h.Exited(rtrmgr); }, 10s));
}

}  // namespace
}  // namespace strata::testing
