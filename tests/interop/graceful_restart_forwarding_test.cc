// Graceful restart keeps forwarding: traffic through Strata's namespace keeps flowing while
// strata-bgp is SIGKILLed and restarted.
//
//   H1 10.200.3.1 --link 3-- BIRD (AS 65001) --link 1-- Strata (AS 65000) --link 2-- H2 10.200.2.2
//                     .3.2          .1.1             .1.2                .2.1
//
// Strata is a whole router: strata-rtrmgr with a configuration (VR "gr", kernel table 100, one
// eBGP peer, `network 10.200.2.0/24`) starts strata-finder, -fea (kernel programming on), -rib
// and -bgp in its namespace. BIRD (`graceful restart on`) originates H1's subnet 10.200.3.0/24;
// Strata installs it in kernel table 100 (proto 201), which the namespace's only policy rule
// besides the defaults looks up: nothing else routes 10.200.3.0/24 there. BIRD does not program
// its kernel, so its namespace gets a static route back to H2's subnet.
//
// H2 pings H1 every 100 ms throughout (interop_ping, ping_main.cc). strata-bgp alone is SIGKILLed;
// the rtrmgr restarts it after its back-off (12 s here) and replays its configuration. While it is
// down: the kernel route stays, the RIB keeps BIRD's route marked stale, BIRD keeps Strata's route
// (graceful restart active) and the pings go on. After the restart: session Established again,
// End-of-RIB both ways (no stale route in the RIB, BIRD's helper done), the kernel route still
// there and never deleted meanwhile (`ip monitor route`), and at most one ping lost over the whole
// run. Binaries: $STRATA_BIN_DIR (the build's bin folder when unset).
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <set>
#include <thread>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_router.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

constexpr const char* kH1Subnet = "10.200.3.0/24";
constexpr const char* kH2Subnet = "10.200.2.0/24";
// Also originated by BIRD, which stops while strata-bgp is down: swept after the restart.
constexpr const char* kGoneSubnet = "10.200.4.0/24";

// Strata's router; the @NAMES@ are filled in by RouterConfig().
constexpr const char* kRouterConfig = R"(
interfaces {
    interface @TO_BIRD@ { description "to BIRD"; }
    interface @TO_H2@ { description "to H2"; }
}
policy {
    policy-statement accept-all {
        term all { then { action accept; } }
    }
}
virtual-router gr {
    table-id 100;
    interface @TO_BIRD@;
    interface @TO_H2@;
    bgp {
        local-as 65000;
        router-id 10.255.0.10;
        network @H2_SUBNET@;
        peer @BIRD@ {
            as 65001;
            local-address @LOCAL@;
            hold-time 9;
            import accept-all;
            export accept-all;
        }
    }
}
)";

class GracefulRestartForwardingTest : public InteropTest {
 protected:
  void SetUp() override {
    InteropTest::SetUp();
    if (IsSkipped()) return;
    RequireBinary("/usr/sbin/bird");
    RequireBinary(INTEROP_PING_BIN);
    if (IsSkipped()) return;
    bins_ = StrataBinariesFromEnv();
    bin_dir_ = std::filesystem::path(bins_.finder).parent_path().string();
    for (const char* b : {"strata-rtrmgr", "strata-fea", "strata-rib", "strata-bgp"}) {
      RequireBinary(bin_dir_ + "/" + b);
    }
    if (IsSkipped()) return;
    h1_ = &AddNs("h1");
    bird_ns_ = &AddNs("b");
    strata_ns_ = &AddNs("s");
    h2_ = &AddNs("h2");
    bird_link_ = &AddLink(*bird_ns_, *strata_ns_, 1);  // BIRD .1, Strata .2
    h2_link_ = &AddLink(*strata_ns_, *h2_, 2);         // Strata .1, H2 .2
    h1_link_ = &AddLink(*h1_, *bird_ns_, 3);           // H1 .1, BIRD .2
    for (const auto& [ns, cmd] : std::vector<std::pair<NetNs*, std::string>>{
             {h1_, "ip route add default via 10.200.3.2"},
             {h2_, "ip route add default via 10.200.2.1"},
             {bird_ns_, "sysctl -qw net.ipv4.ip_forward=1"},
             {bird_ns_, std::string("ip route add ") + kH2Subnet + " via 10.200.1.2"},
             {strata_ns_, "sysctl -qw net.ipv4.ip_forward=1"},
             {strata_ns_, "ip rule add pref 1000 lookup 100"}}) {
      const auto r = Sh(*ns, cmd);
      ASSERT_TRUE(r.ok()) << cmd << ": " << r.output;
    }
    const std::string strata_dir = dir() + "/strata";
    std::filesystem::create_directories(strata_dir);
    router_ = std::make_unique<StrataRouter>(*strata_ns_, strata_dir, bin_dir_);
  }
  void TearDown() override {
    ping_.Stop();
    monitor_.Stop();
    if (router_) {
      router_->Stop();  // the rtrmgr stops its processes in order
      if (HasFailure()) std::cerr << router_->Logs("gr");
    }
    InteropTest::TearDown();
  }

  static CommandResult Sh(const NetNs& ns, const std::string& cmd) {
    return ns.Exec({"sh", "-c", cmd});
  }
  std::string BirdProtocol(BirdSpeaker& bird) {
    return bird.Birdc({"show", "protocols", "all", "nb0"}).output;
  }

  std::string RouterConfig() const {
    std::string c = kRouterConfig;
    for (const auto& [key, value] :
         std::vector<std::pair<std::string, std::string>>{{"@TO_BIRD@", bird_link_->b_ifname()},
                                                          {"@TO_H2@", h2_link_->a_ifname()},
                                                          {"@H2_SUBNET@", kH2Subnet},
                                                          {"@BIRD@", bird_link_->a_v4()},
                                                          {"@LOCAL@", bird_link_->b_v4()}}) {
      for (size_t at; (at = c.find(key)) != std::string::npos;) c.replace(at, key.size(), value);
    }
    return c;
  }
  Status StartRouter() { return router_->Start(RouterConfig(), {"--restart-backoff-ms", "12000"}); }
  json Call(const std::string& xrl) { return router_->Call(xrl); }
  // The pid of strata-bgp as the rtrmgr reports it (0: not running).
  int BgpPid() {
    const json j = Call("finder://rtrmgr/rtrmgr/1.0/list_processes");
    if (!j.is_object()) return 0;
    for (const auto& p : j.value("processes", json::array())) {
      if (p.value("instance", "") == "bgp.gr") return p.value("pid", 0);
    }
    return 0;
  }
  bool Established() {
    const json j = Call("finder://bgp.gr/bgp/1.0/list_peers");
    if (!j.is_object()) return false;
    for (const auto& p : j.value("peers", json::array())) {
      if (p.value("peer", "") == bird_link_->a_v4()) return p.value("state", "") == "Established";
    }
    return false;
  }
  // The RIB's route for `prefix` (null when none).
  json RibRoute(const std::string& prefix) {
    const json j = Call("finder://rib.gr/rib/1.0/list_routes");
    if (!j.is_object()) return nullptr;
    for (const auto& r : j.value("routes", json::array())) {
      if (r.value("prefix", "") == prefix) return r;
    }
    return nullptr;
  }
  // Strata's kernel route to `prefix`: "10.200.3.0/24 via 10.200.1.1 ..." or "".
  std::string KernelRoute(const std::string& prefix = kH1Subnet) {
    return Sh(*strata_ns_, "ip route show table 100 proto 201 " + prefix).output;
  }
  bool KernelRouteViaBird() {
    const std::string r = KernelRoute();
    return r.find(kH1Subnet) != std::string::npos &&
           r.find("via " + bird_link_->a_v4()) != std::string::npos;
  }

  // Continuous ping H2 -> H1, one every 100 ms; its output in ping.log.
  Status StartPing() {
    return ping_.Start(h2_->Wrap({INTEROP_PING_BIN, h1_link_->a_v4(), "100"}), dir() + "/ping.log");
  }
  // `ip monitor route` in Strata's namespace: every kernel route change, in monitor.log.
  Status StartRouteMonitor() {
    return monitor_.Start(strata_ns_->Wrap({"ip", "monitor", "route"}), dir() + "/monitor.log");
  }
  // The monitor's lines about `prefix` ("Deleted 10.200.3.0/24 ..." for a deletion).
  std::vector<std::string> KernelChanges(const std::string& prefix) const {
    std::ifstream f(dir() + "/monitor.log");
    std::vector<std::string> out;
    std::string line;
    while (std::getline(f, line)) {
      if (line.find(prefix + " ") != std::string::npos) out.push_back(line);
    }
    return out;
  }
  // The sequence numbers of the echo replies received so far.
  std::set<int> PingReplies() const {
    std::ifstream f(dir() + "/ping.log");
    std::set<int> seqs;
    static const std::regex reply(R"(bytes from .* icmp_seq=(\d+) )");
    std::string line;
    std::smatch m;
    while (std::getline(f, line)) {
      if (std::regex_search(line, m, reply)) seqs.insert(std::stoi(m[1]));
    }
    return seqs;
  }
  // Replies received from `after` replies on (waits for at least `n` more).
  bool WaitMoreReplies(size_t after, size_t n, std::chrono::milliseconds limit) {
    return PollUntil([&] { return PingReplies().size() >= after + n; }, limit);
  }

  StrataBinaries bins_;
  std::string bin_dir_;
  std::unique_ptr<StrataRouter> router_;
  NetNs* h1_ = nullptr;
  NetNs* bird_ns_ = nullptr;
  NetNs* strata_ns_ = nullptr;
  NetNs* h2_ = nullptr;
  VethLink* bird_link_ = nullptr;
  VethLink* h2_link_ = nullptr;
  VethLink* h1_link_ = nullptr;
  Daemon ping_;
  Daemon monitor_;
};

TEST_F(GracefulRestartForwardingTest, PingsFlowWhileStrataBgpRestarts) {
  auto& bird = AddSpeaker<BirdSpeaker>(
      *bird_ns_, SpeakerConfig{.name = "bird",
                               .local_as = 65001,
                               .router_id = "10.255.0.1",
                               .neighbors = {Neighbor{.address = bird_link_->b_v4(),
                                                      .remote_as = 65000,
                                                      .local_address = bird_link_->a_v4(),
                                                      .graceful_restart = true}},
                               .routes = {{.prefix = kH1Subnet}, {.prefix = kGoneSubnet}}});
  ASSERT_OK(bird.Start());
  ASSERT_OK(StartRouter());

  // Converged: the session up, H1's subnet in kernel table 100, H2's subnet at BIRD.
  ASSERT_TRUE(PollUntil([&] { return Established(); }, 40s));
  ASSERT_TRUE(PollUntil([&] { return KernelRouteViaBird(); }, 20s)) << KernelRoute();
  ASSERT_TRUE(PollUntil([&] { return !KernelRoute(kGoneSubnet).empty(); }, 10s));
  ASSERT_TRUE(bird.WaitForRoute(kH2Subnet).has_value());
  EXPECT_EQ(Sh(*strata_ns_, std::string("ip route show table main ") + kH1Subnet).output, "");

  ASSERT_OK(StartPing());
  ASSERT_OK(StartRouteMonitor());
  ASSERT_TRUE(WaitMoreReplies(0, 10, 10s)) << "no traffic H2 -> H1 before the restart";

  const int old_pid = BgpPid();
  ASSERT_GT(old_pid, 0);
  const size_t before_kill = PingReplies().size();
  ASSERT_EQ(::kill(old_pid, SIGKILL), 0);

  // strata-bgp down (the rtrmgr restarts it only after 12 s): BIRD helps, the RIB keeps BIRD's
  // route stale, the kernel keeps it, traffic flows.
  ASSERT_TRUE(PollUntil(
      [&] { return BirdProtocol(bird).find("graceful restart active") != std::string::npos; }, 5s))
      << BirdProtocol(bird);
  EXPECT_TRUE(bird.FindRoute(kH2Subnet).has_value());
  ASSERT_TRUE(PollUntil(
      [&] {
        const json r = RibRoute(kH1Subnet);
        return r.is_object() && r.value("stale", false);
      },
      5s));
  EXPECT_TRUE(KernelRouteViaBird()) << KernelRoute();
  // BIRD drops one of its routes meanwhile: Strata keeps it (stale) until the restart is over.
  ASSERT_OK(bird.Withdraw(kGoneSubnet));  // BIRD stops originating it; the session stays
  EXPECT_TRUE(WaitMoreReplies(before_kill, 20, 4s)) << "traffic stopped while strata-bgp was down";
  EXPECT_TRUE(RibRoute(kGoneSubnet).value("stale", false));
  EXPECT_NE(KernelRoute(kGoneSubnet), "");
  EXPECT_EQ(BgpPid(), 0) << "restarted too early for the checks above";
  EXPECT_TRUE(KernelRouteViaBird()) << KernelRoute();

  // The rtrmgr restarts strata-bgp; it re-establishes, both End-of-RIBs end the restart.
  ASSERT_TRUE(PollUntil(
      [&] {
        const int p = BgpPid();
        return p > 0 && p != old_pid;
      },
      20s));
  ASSERT_TRUE(PollUntil([&] { return Established(); }, 30s));
  ASSERT_TRUE(PollUntil(
      [&] {
        const json r = RibRoute(kH1Subnet);
        const json stats = Call("finder://bgp.gr/bgp/1.0/get_stats");
        return r.is_object() && !r.value("stale", false) && stats.is_object() &&
               !stats.value("graceful_restart_restarting", false);
      },
      30s));
  ASSERT_TRUE(PollUntil(
      [&] { return BirdProtocol(bird).find("graceful restart active") == std::string::npos; }, 20s))
      << BirdProtocol(bird);
  EXPECT_TRUE(bird.WaitForRoute(kH2Subnet).has_value());
  EXPECT_TRUE(KernelRouteViaBird()) << KernelRoute();
  // What BIRD no longer sends was swept at the end of the restart, from the RIB and the kernel.
  // (strata-bgp's graceful_restart_done reaches the RIB just after its last deferred changes).
  EXPECT_TRUE(PollUntil([&] { return RibRoute(kGoneSubnet).is_null(); }, 5s))
      << RibRoute(kGoneSubnet).dump();
  EXPECT_TRUE(PollUntil([&] { return KernelRoute(kGoneSubnet).empty(); }, 5s))
      << KernelRoute(kGoneSubnet);

  // The kernel route to H1 was never deleted, not even for a moment (a delete + add).
  EXPECT_TRUE(monitor_.Running()) << "ip monitor route died";
  for (const auto& change : KernelChanges(kH1Subnet)) {
    EXPECT_EQ(change.rfind("Deleted", 0), std::string::npos) << change;
  }
  // (The monitor did see the sweep.)
  const auto gone = KernelChanges(kGoneSubnet);
  EXPECT_TRUE(std::any_of(gone.begin(), gone.end(),
                          [](const std::string& c) { return c.rfind("Deleted", 0) == 0; }));

  // Traffic after the restart, and nothing lost on the way.
  const size_t after_restart = PingReplies().size();
  EXPECT_TRUE(WaitMoreReplies(after_restart, 10, 5s));
  ping_.Stop();
  const std::set<int> seqs = PingReplies();
  ASSERT_FALSE(seqs.empty());
  const size_t span = static_cast<size_t>(*seqs.rbegin() - *seqs.begin() + 1);
  EXPECT_LE(span - seqs.size(), 1u) << span - seqs.size() << " of " << span << " pings lost";
}

}  // namespace
}  // namespace strata::interop
