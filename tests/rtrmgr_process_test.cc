// strata-rtrmgr running a real router (Finder, FEA in no-kernel mode, one RIB per VR), driven by
// strata-sh -c as an operator would: shows, live commits, a failing commit, a crash of a RIB and
// a shutdown that leaves nothing behind.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "common/json.h"
#include "testing/process_harness.h"

namespace strata::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kConfig = R"(
interfaces {
    interface lo { description "loopback"; }
}
virtual-router red {
    table-id 0;
    static {
        route 192.0.2.0/24 { next-hop 127.0.0.1; }
    }
}
virtual-router blue {
    table-id 0;
    static {
        route 198.51.100.0/24 { next-hop 127.0.0.1; metric 10; }
    }
}
)";

class RtrmgrProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    conf_ = h_.run_dir() + "/router.conf";
    std::ofstream(conf_) << kConfig;
    rtrmgr_ = h_.Start(
        {"strata-rtrmgr", "-c", conf_, "--no-kernel", "--state-dir", h_.run_dir() + "/state",
         "--log-dir", h_.run_dir() + "/logs", "--restart-backoff-ms", "100"},
        "rtrmgr");
    ASSERT_GT(rtrmgr_, 0);
    ASSERT_TRUE(ProcessHarness::WaitFor([&] { return HasRoute("red", "192.0.2.0/24"); }, 20s))
        << h_.ReadLog("rtrmgr");
  }
  void TearDown() override {
    if (rtrmgr_ > 0 && !h_.Exited(rtrmgr_)) {
      h_.Kill(rtrmgr_, SIGTERM);
      ProcessHarness::WaitFor([&] { return h_.Exited(rtrmgr_); }, 10s);
    }
  }

  RunResult Sh(const std::string& script) { return h_.Run({"strata-sh", "-c", script}); }
  nlohmann::json ShJson(const std::string& cmd) {
    auto r = Sh(cmd + " --json");
    if (r.exit_code != 0) return nullptr;
    return nlohmann::json::parse(r.out, nullptr, false);
  }
  std::set<std::string> Routes(const std::string& vr) {
    std::set<std::string> out;
    auto j = ShJson("show route vr " + vr);
    if (!j.is_object() || !j.contains("routes")) return out;
    for (const auto& r : j["routes"]) out.insert(r["prefix"].get<std::string>());
    return out;
  }
  bool HasRoute(const std::string& vr, const std::string& p) { return Routes(vr).contains(p); }
  nlohmann::json Process(const std::string& instance) {
    auto j = ShJson("show processes");
    if (!j.is_object() || !j.contains("processes")) return nullptr;
    for (const auto& p : j["processes"]) {
      if (p["instance"] == instance) return p;
    }
    return nullptr;
  }

  ProcessHarness h_;
  std::string conf_;
  pid_t rtrmgr_ = 0;
};

TEST_F(RtrmgrProcessTest, ShowRouteJsonHasTheStatics) {
  auto j = ShJson("show route vr red");
  ASSERT_TRUE(j.is_object()) << Sh("show route vr red --json").err;
  ASSERT_EQ(j["routes"].size(), 1u) << j.dump();
  const auto& r = j["routes"][0];
  EXPECT_EQ(r["prefix"], "192.0.2.0/24");
  EXPECT_EQ(r["nexthop"], "127.0.0.1");
  EXPECT_EQ(r["protocol"], "static");
  EXPECT_EQ(r["metric"], 1);
  auto b = ShJson("show route vr blue");
  ASSERT_EQ(b["routes"].size(), 1u);
  EXPECT_EQ(b["routes"][0]["metric"], 10);
  // Text form and every-VR form.
  auto all = Sh("show route");
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_NE(all.out.find("vr blue:"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("198.51.100.0/24"), std::string::npos) << all.out;
  auto procs = ShJson("show processes");
  std::set<std::string> names;
  for (const auto& p : procs["processes"]) names.insert(p["instance"].get<std::string>());
  EXPECT_EQ(names, (std::set<std::string>{"finder", "fea", "rib.blue", "rib.red"}));
}

TEST_F(RtrmgrProcessTest, LiveCommitsAddAndDeleteRoutesAndVrs) {
  auto r =
      Sh("configure; set virtual-router red static route 203.0.113.0/24 next-hop 127.0.0.1; "
         "commit comment add");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("commit complete"), std::string::npos) << r.out;
  EXPECT_EQ(Routes("red"), (std::set<std::string>{"192.0.2.0/24", "203.0.113.0/24"}));
  r = Sh(
      "configure; delete virtual-router red static route 203.0.113.0/24; show | compare; commit");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("[edit virtual-router red static]\n-    route 203.0.113.0/24 {"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(Routes("red"), (std::set<std::string>{"192.0.2.0/24"}));

  // A new VR brings its RIB up; deleting it stops the RIB again.
  r =
      Sh("configure; set virtual-router green table-id 0; "
         "set virtual-router green static route 10.9.0.0/16 next-hop 127.0.0.1; commit");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Routes("green"), (std::set<std::string>{"10.9.0.0/16"}));
  EXPECT_EQ(Process("rib.green")["state"], "running");
  r = Sh("configure; delete virtual-router green; commit");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(ProcessHarness::WaitFor([&] { return Process("rib.green")["state"] == "stopped"; }));
  EXPECT_NE(Sh("show route vr green").exit_code, 0);

  // History: rollback 1 brings VR green back.
  r = Sh("configure; rollback 1; commit");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Routes("green"), (std::set<std::string>{"10.9.0.0/16"}));
  EXPECT_TRUE(std::filesystem::exists(h_.run_dir() + "/state"));
}

TEST_F(RtrmgrProcessTest, FailingCommitChangesNothing) {
  auto before = Sh("show configuration");
  ASSERT_EQ(before.exit_code, 0);
  // Binding lo is fine; the FEA refuses the second interface (the kernel has none of that
  // name: nothing the validator can know), so lo's binding must be taken back, and the route
  // (the RIB's step, after the FEA's) never sent.
  auto r =
      Sh("configure; set virtual-router red static route 203.0.113.0/24 next-hop 127.0.0.1; "
         "set virtual-router red interface lo; set interfaces interface nosuch0; "
         "set virtual-router red interface nosuch0; commit");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.err.find("virtual-router red interface nosuch0: fea: no interface named 'nosuch0'"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("commit failed"), std::string::npos) << r.err;
  EXPECT_EQ(Routes("red"), (std::set<std::string>{"192.0.2.0/24"}));
  EXPECT_EQ(Sh("show configuration").out, before.out);
  auto ifs = ShJson("show interfaces");
  ASSERT_TRUE(ifs.is_object()) << Sh("show interfaces").err;
  for (const auto& i : ifs["interfaces"]) {
    if (i["name"] == "lo") {
      EXPECT_EQ(i.value("vr", ""), "") << i.dump();
    }
  }
  // A stale base revision is refused too: another session commits in between.
  r =
      Sh("configure; set virtual-router red static route 203.0.113.0/24 next-hop 127.0.0.1; "
         "commit");
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(RtrmgrProcessTest, KilledRibIsRestartedWithItsRoutes) {
  auto p = Process("rib.red");
  ASSERT_TRUE(p.is_object());
  const pid_t pid = p["pid"].get<int>();
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] {
        auto q = Process("rib.red");
        // At least one restart: a new RIB that registers before the Finder has seen the old one
        // go is refused, exits and is started again.
        return q.is_object() && q["restarts"].get<int>() >= 1 && q["state"] == "running" &&
               HasRoute("red", "192.0.2.0/24");
      },
      20s))
      << h_.ReadLog("rtrmgr");
  EXPECT_EQ(Process("rib.red")["last_exit"], "signal 9");
  EXPECT_EQ(Routes("blue"), (std::set<std::string>{"198.51.100.0/24"}));
}

// The FEA killed: the rtrmgr restarts it and replays its part of the config (VRs, interface
// bindings); the RIB sees the new FEA and re-sends its routes, so the FIB holds them again.
TEST_F(RtrmgrProcessTest, KilledFeaIsRestartedAndRefedByTheRib) {
  auto fib_has = [&](const std::string& addr, const std::string& prefix) {
    auto j = ShJson("show fib vr red " + addr);
    return j.is_object() && j.value("found", false) && j["prefix"] == prefix;
  };
  // Red's static next hop 127.0.0.1 is on lo, bound to red only now: the FEA refused the route
  // at start-up and is offered it again when lo joins the VR; the restarted FEA must get it too.
  auto r = Sh("configure; set virtual-router red interface lo; commit");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return fib_has("127.0.0.1", "127.0.0.0/8"); }, 20s))
      << h_.ReadLog("rtrmgr");
  auto p = Process("fea");
  ASSERT_TRUE(p.is_object());
  const pid_t pid = p["pid"].get<int>();
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] {
        auto q = Process("fea");
        return q.is_object() && q["restarts"].get<int>() >= 1 && q["state"] == "running" &&
               q["pid"].get<int>() != pid && fib_has("192.0.2.1", "192.0.2.0/24");
      },
      30s))
      << h_.ReadLog("rtrmgr");
  EXPECT_EQ(Process("fea")["last_exit"], "signal 9");
  EXPECT_TRUE(fib_has("127.0.0.1", "127.0.0.0/8"));  // the connected route came back too
  EXPECT_EQ(Process("rib.red")["restarts"], 0);      // the RIB rode it out
  EXPECT_EQ(Routes("red"), (std::set<std::string>{"127.0.0.0/8", "192.0.2.0/24", "::1/128"}));
}

// The Finder killed: the rtrmgr restarts it and nothing else. Every process keeps its pid and
// its state, registers again with the new Finder, the routes stay in the RIBs and the FIB (also
// past the time after which a watched process that did not come back counts as dead), and a
// live commit still works.
TEST_F(RtrmgrProcessTest, KilledFinderIsRestartedAndTheRouterRidesItOut) {
  auto fib_has = [&](const std::string& addr, const std::string& prefix) {
    auto j = ShJson("show fib vr red " + addr);
    return j.is_object() && j.value("found", false) && j["prefix"] == prefix;
  };
  auto r = Sh("configure; set virtual-router red interface lo; commit");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] { return fib_has("127.0.0.1", "127.0.0.0/8") && fib_has("192.0.2.1", "192.0.2.0/24"); },
      20s));
  std::map<std::string, int> pids;
  for (const char* name : {"fea", "rib.red", "rib.blue"})
    pids[name] = Process(name)["pid"].get<int>();
  const int finder = Process("finder")["pid"].get<int>();
  ASSERT_GT(finder, 0);
  ASSERT_EQ(::kill(finder, SIGKILL), 0);
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] {
        auto q = Process("finder");
        return q.is_object() && q["restarts"].get<int>() >= 1 && q["state"] == "running" &&
               q["pid"].get<int>() != finder;
      },
      20s))
      << h_.ReadLog("rtrmgr");
  EXPECT_EQ(Process("finder")["last_exit"], "signal 9");
  // The new Finder held resolutions by secrets without rights until the rtrmgr re-gave them all
  // and said so (strata-finder --await-permissions, finder/1.0/permissions_complete).
  EXPECT_TRUE(ProcessHarness::WaitFor(
      [&] {
        std::ifstream log(h_.run_dir() + "/logs/finder.log");
        const std::string text((std::istreambuf_iterator<char>(log)),
                               std::istreambuf_iterator<char>());
        size_t n = 0;
        for (size_t at = text.find("declared the permissions complete"); at != std::string::npos;
             at = text.find("declared the permissions complete", at + 1)) {
          ++n;
        }
        return n >= 2;  // at boot and after the restart
      },
      10s))
      << h_.ReadLog("rtrmgr");
  auto still_there = [&](const std::set<std::string>& blue) {
    for (const auto& [name, pid] : pids) {
      auto q = Process(name);
      EXPECT_EQ(q["pid"], pid) << name;
      EXPECT_EQ(q["restarts"], 0) << name;
      EXPECT_EQ(q["state"], "running") << name;
    }
    EXPECT_EQ(Routes("red"), (std::set<std::string>{"127.0.0.0/8", "192.0.2.0/24", "::1/128"}));
    EXPECT_EQ(Routes("blue"), blue);
    EXPECT_TRUE(fib_has("127.0.0.1", "127.0.0.0/8"));
    EXPECT_TRUE(fib_has("192.0.2.1", "192.0.2.0/24"));
  };
  still_there({"198.51.100.0/24"});
  // The components are found through the new Finder by name.
  auto call = h_.Run({"strata-call", "-l", "rib.red"});
  EXPECT_EQ(call.exit_code, 0) << call.err;
  r =
      Sh("configure; set virtual-router blue static route 203.0.113.0/24 next-hop 127.0.0.1; "
         "commit");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Routes("blue"), (std::set<std::string>{"198.51.100.0/24", "203.0.113.0/24"}));
  // Past the Routers' settle time (10 s): nobody was taken for dead.
  std::this_thread::sleep_for(11s);
  still_there({"198.51.100.0/24", "203.0.113.0/24"});
}

TEST_F(RtrmgrProcessTest, SigtermStopsEverything) {
  auto j = ShJson("show processes");
  std::vector<pid_t> pids;
  for (const auto& p : j["processes"]) pids.push_back(p["pid"].get<int>());
  ASSERT_EQ(pids.size(), 4u);
  h_.Kill(rtrmgr_, SIGTERM);
  int status = 0;
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return h_.Exited(rtrmgr_, &status); }, 15s));
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  for (pid_t p : pids) EXPECT_NE(::kill(p, 0), 0) << "pid " << p << " is still there";
  rtrmgr_ = 0;
}

// Red exports its statics to blue over BGP on loopback addresses, on a port of its own.
std::string TwoVrBgpConfig(int salt) {
  const std::string port = std::to_string(20000 + (::getpid() + salt) % 20000);
  std::string conf = R"(
policy {
    prefix-list documentation { prefix 192.0.2.0/24 { le 32; } prefix 2001:db8::/32 { le 64; } }
    community-set ours { member 65001:*; }
    policy-statement accept-all { term all { then { action accept; } } }
    policy-statement statics-only {
        term statics {
            from { protocol static; prefix-list documentation; }
            then { action accept; local-preference 150; community-delete-set ours; origin igp; }
        }
        default-action reject;
    }
}
virtual-router red {
    static { route 192.0.2.0/24 { next-hop 127.0.0.1; } }
    bgp {
        local-as 65001; router-id 10.255.0.1; listen-address 127.0.0.2; port PORT;
        peer 127.0.0.3 { as 65002; local-address 127.0.0.2; port PORT;
                         import accept-all; export statics-only; }
    }
}
virtual-router blue {
    bgp {
        local-as 65002; router-id 10.255.0.2; listen-address 127.0.0.3; port PORT;
        peer 127.0.0.2 { as 65001; local-address 127.0.0.3; port PORT; import accept-all; }
    }
}
)";
  for (size_t at; (at = conf.find("PORT")) != std::string::npos;) conf.replace(at, 4, port);
  return conf;
}

// Two VRs speaking BGP to each other over loopback addresses, configured by the rtrmgr: the
// sessions come up, policies reach the speakers, a peer change is applied live, and a killed
// speaker comes back with its peers and policies. Needs strata-bgp in the bin directory.
TEST(RtrmgrBgpTest, SessionsPoliciesAndReplay) {
  ProcessHarness h;
  if (!std::filesystem::exists(h.bin("strata-bgp"))) {
    GTEST_SKIP() << "strata-bgp is not built in " << h.bin("");
  }
  const std::string conf = TwoVrBgpConfig(0);
  std::ofstream(h.run_dir() + "/bgp.conf") << conf;
  const pid_t rtrmgr = h.Start({"strata-rtrmgr", "-c", h.run_dir() + "/bgp.conf", "--no-kernel",
                                "--log-dir", h.run_dir() + "/logs", "--restart-backoff-ms", "100"},
                               "rtrmgr");
  ASSERT_GT(rtrmgr, 0);
  auto json = [&](const std::string& cmd) {
    auto r = h.Run({"strata-sh", "-c", cmd + " --json"});
    return r.exit_code == 0 ? nlohmann::json::parse(r.out, nullptr, false) : nlohmann::json();
  };
  auto peer = [&](const std::string& vr, const std::string& addr) {
    auto j = json("show bgp neighbor " + addr + " vr " + vr);
    return j.is_object() && j.contains("peers") && !j["peers"].empty() ? j["peers"][0]
                                                                       : nlohmann::json();
  };
  auto established = [&](const std::string& vr, const std::string& addr) {
    auto p = peer(vr, addr);
    return p.is_object() && p["state"] == "Established";
  };
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return established("red", "127.0.0.3"); }, 30s))
      << h.ReadLog("rtrmgr");
  auto p = peer("red", "127.0.0.3");
  EXPECT_EQ(p["import_policy"], "accept-all");
  EXPECT_EQ(p["export_policy"], "statics-only");
  EXPECT_EQ(p["peer_as"], 65002);

  // A leaf of the peer changes: change_peer, live.
  auto r = h.Run({"strata-sh", "-c",
                  "configure; set virtual-router red bgp peer 127.0.0.3 description \"to blue\"; "
                  "commit"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(peer("red", "127.0.0.3")["description"], "to blue");
  // A change the speaker refuses (no such local address here): the commit fails and the peer,
  // its session and its settings stay as they were.
  const auto transitions = peer("red", "127.0.0.3")["established_transitions"];
  r = h.Run({"strata-sh", "-c",
             "configure; set virtual-router red bgp peer 127.0.0.3 local-address 192.0.2.77; "
             "set virtual-router red bgp peer 127.0.0.3 description \"changed\"; commit"});
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE((r.out + r.err).find("local_address"), std::string::npos) << r.out << r.err;
  p = peer("red", "127.0.0.3");
  EXPECT_EQ(p["state"], "Established");
  EXPECT_EQ(p["description"], "to blue");
  EXPECT_EQ(p["established_transitions"], transitions);

  // bgp.red dies: restarted, its local config, policies and peer replayed.
  auto procs = json("show processes");
  pid_t bgp_pid = 0;
  for (const auto& q : procs["processes"]) {
    if (q["instance"] == "bgp.red") bgp_pid = q["pid"].get<int>();
  }
  ASSERT_GT(bgp_pid, 0);
  ASSERT_EQ(::kill(bgp_pid, SIGKILL), 0);
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] {
        auto q = peer("red", "127.0.0.3");
        return q.is_object() && q["state"] == "Established" && q["description"] == "to blue" &&
               q["export_policy"] == "statics-only";
      },
      30s))
      << h.ReadLog("rtrmgr");
  h.Kill(rtrmgr, SIGTERM);
  EXPECT_TRUE(ProcessHarness::WaitFor([&] { return h.Exited(rtrmgr); }, 15s));
}

// The Finder killed under BGP: the sessions stay up, no speaker or RIB is restarted, and the
// route blue learnt from red stays in blue's RIB past the settle time (a RIB that took the
// Finder's restart for its BGP's death would withdraw it); a network added to red afterwards
// still reaches blue's RIB over BGP.
TEST(RtrmgrBgpTest, FinderRestartKeepsSessionsAndBgpRoutes) {
  ProcessHarness h;
  if (!std::filesystem::exists(h.bin("strata-bgp"))) {
    GTEST_SKIP() << "strata-bgp is not built in " << h.bin("");
  }
  std::ofstream(h.run_dir() + "/bgp.conf") << TwoVrBgpConfig(7);
  const pid_t rtrmgr = h.Start({"strata-rtrmgr", "-c", h.run_dir() + "/bgp.conf", "--no-kernel",
                                "--log-dir", h.run_dir() + "/logs", "--restart-backoff-ms", "100"},
                               "rtrmgr");
  ASSERT_GT(rtrmgr, 0);
  auto json = [&](const std::string& cmd) {
    auto r = h.Run({"strata-sh", "-c", cmd + " --json"});
    return r.exit_code == 0 ? nlohmann::json::parse(r.out, nullptr, false) : nlohmann::json();
  };
  // Whether blue's RIB has the prefix; nullopt when the shell got no answer.
  auto blue_query = [&](const std::string& prefix) -> std::optional<bool> {
    auto j = json("show route vr blue");
    if (!j.is_object() || !j.contains("routes")) return std::nullopt;
    for (const auto& r : j["routes"]) {
      if (r["prefix"] == prefix) return true;
    }
    return false;
  };
  auto blue_has = [&](const std::string& prefix) { return blue_query(prefix).value_or(false); };
  auto session = [&] {
    auto j = json("show bgp neighbor 127.0.0.3 vr red");
    return j.is_object() && j.contains("peers") && !j["peers"].empty() ? j["peers"][0]
                                                                       : nlohmann::json();
  };
  auto established = [&] {
    auto p = session();
    return p.is_object() && p["state"] == "Established";
  };
  auto pids = [&] {
    std::map<std::string, int> out;
    auto j = json("show processes");
    if (!j.is_object() || !j.contains("processes")) return out;
    for (const auto& q : j["processes"]) out[q["instance"]] = q["pid"].get<int>();
    return out;
  };
  ASSERT_TRUE(ProcessHarness::WaitFor(established, 30s)) << h.ReadLog("rtrmgr");
  // Red originates a network whose next hop blue can resolve.
  auto r = h.Run({"strata-sh", "-c",
                  "configure; set interfaces interface lo description loopback; "
                  "set virtual-router red interface lo; "
                  "set virtual-router red bgp network 10.77.0.0/16 next-hop 127.0.0.2; "
                  "set virtual-router red bgp peer 127.0.0.3 export accept-all; "
                  "set virtual-router blue static route 127.0.0.0/8 next-hop 127.0.0.1; commit"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return blue_has("10.77.0.0/16"); }, 20s));
  auto before = pids();
  ASSERT_GT(before["finder"], 0);
  ASSERT_EQ(::kill(before["finder"], SIGKILL), 0);
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] {
        auto now = pids();
        return now["finder"] > 0 && now["finder"] != before["finder"];
      },
      20s))
      << h.ReadLog("rtrmgr");
  // Right after the restart the shell may get no answer (rib.blue registers again with the new
  // Finder): ask until it answers; then the route must be there, never withdrawn.
  std::optional<bool> kept;
  ASSERT_TRUE(
      ProcessHarness::WaitFor([&] { return (kept = blue_query("10.77.0.0/16")).has_value(); }, 10s))
      << h.ReadLog("rtrmgr");
  EXPECT_TRUE(*kept);
  r = h.Run({"strata-sh", "-c",
             "configure; set virtual-router red bgp network 10.78.0.0/16 next-hop 127.0.0.2; "
             "commit"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(ProcessHarness::WaitFor([&] { return blue_has("10.78.0.0/16"); }, 10s));
  std::this_thread::sleep_for(11s);  // past the Routers' settle time
  EXPECT_TRUE(established());
  EXPECT_EQ(session()["established_transitions"], 1) << "the session never flapped";
  EXPECT_TRUE(blue_has("10.77.0.0/16"));
  EXPECT_TRUE(blue_has("10.78.0.0/16"));
  auto after = pids();
  for (const auto& [instance, pid] : before) {
    if (instance != "finder") {
      EXPECT_EQ(after[instance], pid) << instance;
    }
  }
  h.Kill(rtrmgr, SIGTERM);
  EXPECT_TRUE(ProcessHarness::WaitFor([&] { return h.Exited(rtrmgr); }, 15s));
}

TEST(RtrmgrCheckTest, CheckPrintsErrorsWithPositions) {
  ProcessHarness h;
  const std::string bad = h.run_dir() + "/bad.conf";
  std::ofstream(bad)
      << "virtual-router red {\n    static {\n        route 192.0.2.0/24 { metric 1; }\n"
         "    }\n}\n";
  auto r = h.Run({"strata-rtrmgr", "--check", bad});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find(bad + ":3:9:"), std::string::npos) << r.err;
  const std::string good = h.run_dir() + "/good.conf";
  std::ofstream(good) << kConfig;
  r = h.Run({"strata-rtrmgr", "--check", good});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace strata::testing
