// VR-level BGP policies configured through strata-rtrmgr (`protocols bgp { import; export; }` of
// a virtual router), driven by strata-sh as an operator would: red's VR export policy matching
// `protocol static` brings red's static route (next hop resolved through red's other static,
// 127.0.0.0/8, which the policy does not send) to blue without `redistribute`, the peer listing
// shows the policies as inherited, the statistics count the redistributed routes, and deleting
// the VR export policy withdraws the route and ends the redistribution. Port: 12710 (this
// test's range is 12700..12749).
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "common/json.h"
#include "testing/process_harness.h"

namespace strata::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kConfig = R"(
policy {
    prefix-list documentation { prefix 192.0.2.0/24 { le 32; } }
    policy-statement accept-all { term all { then { action accept; } } }
    policy-statement statics-only {
        term statics { from { protocol static; prefix-list documentation; } then { action accept; } }
        default-action reject;
    }
}
virtual-router red {
    static {
        route 192.0.2.0/24 { next-hop 127.0.0.1; }
        route 127.0.0.0/8 { next-hop 127.0.0.1; }
    }
    bgp {
        local-as 65001; router-id 10.255.0.1; listen-address 127.0.0.2; port 12710;
        import accept-all;
        export statics-only;
        peer 127.0.0.3 { as 65002; local-address 127.0.0.2; port 12710; }
    }
}
virtual-router blue {
    static { route 127.0.0.0/8 { next-hop 127.0.0.1; } }
    bgp {
        local-as 65002; router-id 10.255.0.2; listen-address 127.0.0.3; port 12710;
        peer 127.0.0.2 { as 65001; local-address 127.0.0.3; port 12710; import accept-all; }
    }
}
)";

TEST(RtrmgrVrPolicyTest, VrExportPolicyRedistributesStaticsAndIsShownInherited) {
  ProcessHarness h;
  if (!std::filesystem::exists(h.bin("strata-bgp"))) {
    GTEST_SKIP() << "strata-bgp is not built in " << h.bin("");
  }
  std::ofstream(h.run_dir() + "/bgp.conf") << kConfig;
  const pid_t rtrmgr = h.Start({"strata-rtrmgr", "-c", h.run_dir() + "/bgp.conf", "--no-kernel",
                                "--log-dir", h.run_dir() + "/logs", "--restart-backoff-ms", "100"},
                               "rtrmgr");
  ASSERT_GT(rtrmgr, 0);
  auto json = [&](const std::string& cmd) {
    auto r = h.Run({"strata-sh", "-c", cmd + " --json"});
    return r.exit_code == 0 ? nlohmann::json::parse(r.out, nullptr, false) : nlohmann::json();
  };
  auto peer = [&] {
    auto j = json("show bgp neighbor 127.0.0.3 vr red");
    return j.is_object() && j.contains("peers") && !j["peers"].empty() ? j["peers"][0]
                                                                       : nlohmann::json();
  };
  auto blue_has = [&](const std::string& prefix) {
    auto j = json("show route vr blue");
    if (!j.is_object() || !j.contains("routes")) return false;
    for (const auto& r : j["routes"]) {
      if (r["prefix"] == prefix) return true;
    }
    return false;
  };
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] {
        auto p = peer();
        return p.is_object() && p["state"] == "Established";
      },
      30s))
      << h.ReadLog("rtrmgr");
  // No `redistribute`: the VR's export policy, matching `protocol static`, brings the route.
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return blue_has("192.0.2.0/24"); }, 20s))
      << json("show bgp stats vr red").dump();
  auto p = peer();
  EXPECT_EQ(p["export_policy"], "statics-only");
  EXPECT_EQ(p["export_policy_inherited"], true);
  EXPECT_EQ(p["import_policy"], "accept-all");
  EXPECT_EQ(p["import_policy_inherited"], true);
  auto stats = json("show bgp stats vr red");
  ASSERT_TRUE(stats.is_object()) << stats.dump();
  EXPECT_EQ(stats["export_policy"], "statics-only");
  EXPECT_EQ(stats["redistributed_protocols"], nlohmann::json::array({"static"}));
  ASSERT_EQ(stats["redistributed_routes"].size(), 1u) << stats.dump();
  EXPECT_EQ(stats["redistributed_routes"][0]["protocol"], "static");
  auto text = h.Run({"strata-sh", "-c", "show bgp summary vr red"});
  EXPECT_NE(text.out.find("statics-only (vr)"), std::string::npos) << text.out;
  text = h.Run({"strata-sh", "-c", "show bgp stats vr red"});
  // Both statics are redistributed; the policy sends only 192.0.2.0/24.
  EXPECT_NE(text.out.find("redistributed_routes: static=2"), std::string::npos) << text.out;

  // The VR's export policy deleted: RFC 8212 again (the peer has none of its own), the route
  // is withdrawn and no export policy names static, so redistribution ends.
  auto r = h.Run({"strata-sh", "-c", "configure; delete virtual-router red bgp export; commit"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(ProcessHarness::WaitFor([&] { return !blue_has("192.0.2.0/24"); }, 20s));
  stats = json("show bgp stats vr red");
  EXPECT_TRUE(!stats.contains("redistributed_protocols") ||
              stats["redistributed_protocols"].empty())
      << stats.dump();
  EXPECT_EQ(peer()["export_policy_inherited"], false);
  h.Kill(rtrmgr, SIGTERM);
  EXPECT_TRUE(ProcessHarness::WaitFor([&] { return h.Exited(rtrmgr); }, 15s));
}

}  // namespace
}  // namespace strata::testing
