// VRF-lite end to end: a router namespace between hosts, two VRs with the same addresses on
// their own interfaces, run by strata-rtrmgr from a configuration, against the real kernel.
//
//   h1r (10.0.1.2) --- r-h1r [VR red, table 100, VRF device red ] r-h2r --- h2r (10.0.2.2,
//                                                                            lo 192.0.2.1)
//   h1b (10.0.1.2) --- r-h1b [VR blue, table 101, VRF device blue] r-h2b --- h2b (10.0.2.2,
//                                                                            lo 198.51.100.1)
//
// Each VR has a static route to its H2's loopback. Pings from each H1 reach its own VR's H2
// and never the other's; `ip route show vrf NAME` lists the VR's routes; a VR deleted by a
// commit takes its VRF device along and comes back with forwarding when configured again;
// strata-fea killed with SIGKILL and restarted adopts the devices while pings go on.
// On a kernel without VRF devices (CONFIG_NET_VRF off) the FEA steers each VR's interfaces with
// `ip rule iif IF lookup TABLE` instead: the same pings must pass, the device checks become rule
// checks. Needs root and `ip netns`; skipped otherwise. Every namespace is deleted at the end.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "common/json.h"
#include "testing/interop/command.h"
#include "testing/process_harness.h"

namespace strata::testing {
namespace {

using namespace std::chrono_literals;

interop::CommandResult Shell(const std::string& cmd) {
  return interop::RunCommand({"sh", "-c", cmd}, 20s);
}

constexpr const char* kRed = R"(
virtual-router red {
    table-id 100;
    interface r-h1r;
    interface r-h2r;
    static {
        route 192.0.2.1/32 { next-hop 10.0.2.2; }
    }
}
)";
constexpr const char* kBlue = R"(
virtual-router blue {
    table-id 101;
    interface r-h1b;
    interface r-h2b;
    static {
        route 198.51.100.1/32 { next-hop 10.0.2.2; }
    }
}
)";
constexpr const char* kInterfaces = R"(
interfaces {
    interface r-h1r;
    interface r-h2r;
    interface r-h1b;
    interface r-h2b;
}
)";

class VrfNetnsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    const std::string tag = std::to_string(::getpid());
    router_ = "vrf-r-" + tag;
    for (const char* h : {"h1r", "h2r", "h1b", "h2b"})
      hosts_[h] = std::string("vrf-") + h + "-" + tag;
    if (Shell("ip netns add " + router_).exit_code != 0) GTEST_SKIP() << "ip netns unavailable";
    made_.push_back(router_);
    for (const auto& [h, ns] : hosts_) {
      ASSERT_EQ(Shell("ip netns add " + ns).exit_code, 0);
      made_.push_back(ns);
      // Router side r-<h>, host side eth0.
      for (const std::string& c :
           {"ip -n " + router_ + " link add r-" + h + " type veth peer name eth0 netns " + ns,
            "ip -n " + ns + " link set lo up", "ip -n " + ns + " link set eth0 up",
            "ip -n " + router_ + " link set r-" + h + " up"}) {
        ASSERT_EQ(Shell(c).exit_code, 0) << c;
      }
      const bool h1 = h[1] == '1';
      const std::string subnet = h1 ? "10.0.1." : "10.0.2.";
      ASSERT_EQ(Shell("ip -n " + ns + " addr add " + subnet + "2/24 dev eth0").exit_code, 0);
      ASSERT_EQ(Shell("ip -n " + ns + " route add default via " + subnet + "1").exit_code, 0);
      ASSERT_EQ(Shell("ip -n " + router_ + " addr add " + subnet + "1/24 dev r-" + h).exit_code, 0);
    }
    ASSERT_EQ(Shell("ip -n " + hosts_["h2r"] + " addr add 192.0.2.1/32 dev lo").exit_code, 0);
    ASSERT_EQ(Shell("ip -n " + hosts_["h2b"] + " addr add 198.51.100.1/32 dev lo").exit_code, 0);
    ASSERT_EQ(Shell("ip netns exec " + router_ + " sysctl -qw net.ipv4.ip_forward=1").exit_code, 0);
    vrf_ = Ip("link add vrfprobe type vrf table 4000").exit_code == 0;
    if (vrf_) Ip("link del vrfprobe");
    conf_ = h_.run_dir() + "/router.conf";
    std::ofstream(conf_) << kInterfaces << kRed << kBlue;
    rtrmgr_ = h_.Start({"/usr/sbin/ip", "netns", "exec", router_, h_.bin("strata-rtrmgr"), "-c",
                        conf_, "--state-dir", h_.run_dir() + "/state", "--log-dir",
                        h_.run_dir() + "/logs", "--restart-backoff-ms", "100"},
                       "rtrmgr");
    ASSERT_GT(rtrmgr_, 0);
  }
  void TearDown() override {
    if (ping_ > 0) h_.Kill(ping_, SIGKILL);
    if (rtrmgr_ > 0 && !h_.Exited(rtrmgr_)) {
      h_.Kill(rtrmgr_, SIGTERM);
      ProcessHarness::WaitFor([&] { return h_.Exited(rtrmgr_); }, 10s);
    }
    if (HasFailure()) std::cerr << Diagnostics();
    for (const std::string& ns : made_) Shell("ip netns del " + ns);
  }

  interop::CommandResult Ip(const std::string& args) {
    return Shell("ip -n " + router_ + " " + args);
  }
  // Echo replies to `count` pings from host `h` to `addr`, 100 ms apart.
  int Replies(const std::string& h, const std::string& addr, int count = 3) {
    const auto r = Shell("timeout " + std::to_string(count * 0.1 + 0.5) + " ip netns exec " +
                         hosts_[h] + " " + PING_BIN + " " + addr + " 100");
    int n = 0;
    for (size_t at = 0; (at = r.output.find("bytes from", at)) != std::string::npos; ++at) ++n;
    return n;
  }
  bool Reaches(const std::string& h, const std::string& addr) {
    return ProcessHarness::WaitFor([&] { return Replies(h, addr, 2) > 0; }, 15s);
  }
  // The VR's kernel table (`ip route show vrf NAME`, or by its id without VRF devices).
  std::string VrfRoutes(const std::string& vrf) {
    if (vrf_) return Ip("route show vrf " + vrf).output;
    return Ip(std::string("route show table ") + (vrf == "red" ? "100" : "101")).output;
  }
  // Whether `routes` (ip route output) has a line for `dst` holding `rest` (after a nexthop
  // object's "nhid N", if any).
  static bool HasRoute(const std::string& routes, const std::string& dst, const std::string& rest) {
    std::istringstream in(routes);
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with(dst + " ") && line.find(rest) != std::string::npos) return true;
    }
    return false;
  }
  // Whether `iface` is steered to VR `vrf`: its VRF device's slave, or its rule to the table.
  bool InVr(const std::string& iface, const std::string& vrf) {
    if (vrf_) return Master(iface) == vrf;
    const std::string rule = "iif " + iface + " lookup " + (vrf == "red" ? "100" : "101");
    return Ip("rule show").output.find(rule) != std::string::npos;
  }
  std::string Master(const std::string& iface) {
    const std::string out = Ip("-o link show " + iface).output;
    std::smatch m;
    static const std::regex master(R"( master (\S+) )");
    return std::regex_search(out, m, master) ? m[1].str() : "";
  }
  std::string Diagnostics() {
    std::string out = "\nip -d link: " + Ip("-d link show").output +
                      "\nvrf red: " + VrfRoutes("red") + "\nvrf blue: " + VrfRoutes("blue");
    for (const char* log : {"fea", "rib.red", "rib.blue", "rtrmgr"}) {
      std::ifstream f(h_.run_dir() + "/logs/" + log + ".log");
      std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
      if (text.size() > 6000) text = text.substr(text.size() - 6000);
      out += std::string("\n--- ") + log + ":\n" + text;
    }
    return out + h_.ReadLog("rtrmgr");
  }
  RunResult Sh(const std::string& cmd) { return h_.Run({"strata-sh", "-c", cmd}); }
  // The FEA's VRs as JSON text (compact).
  std::string ListVrs() {
    auto r = h_.Run({"strata-call", "--json", "finder://fea/fea/1.0/list_vrs"});
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    return j.is_discarded() ? r.out + r.err : j.dump();
  }
  pid_t FeaPid() {
    auto r = Sh("show processes --json");
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    if (!j.is_object()) return 0;
    for (const auto& p : j.value("processes", nlohmann::json::array())) {
      if (p.value("instance", "") == "fea") return p.value("pid", 0);
    }
    return 0;
  }

  ProcessHarness h_;
  std::string router_;
  std::map<std::string, std::string> hosts_;
  std::vector<std::string> made_;
  std::string conf_;
  pid_t rtrmgr_ = 0;
  pid_t ping_ = 0;
  bool vrf_ = false;  // the kernel has VRF devices
};

TEST_F(VrfNetnsTest, EachVrForwardsWithItsOwnTable) {
  // Each H1 reaches its own H2 (the same address in both VRs) and its VR's loopback route.
  ASSERT_TRUE(Reaches("h1r", "192.0.2.1"));
  ASSERT_TRUE(Reaches("h1b", "198.51.100.1"));
  EXPECT_GT(Replies("h1r", "10.0.2.2"), 0);
  EXPECT_GT(Replies("h1b", "10.0.2.2"), 0);
  // Never the other VR's.
  EXPECT_EQ(Replies("h1r", "198.51.100.1"), 0);
  EXPECT_EQ(Replies("h1b", "192.0.2.1"), 0);

  // The devices, bound to the tables, marked as Strata's, with the interfaces enslaved (or the
  // interfaces' rules).
  if (vrf_) {
    const std::string links = Ip("-d link show type vrf").output;
    EXPECT_NE(links.find("vrf table 100"), std::string::npos) << links;
    EXPECT_NE(links.find("vrf table 101"), std::string::npos) << links;
    EXPECT_NE(links.find("alias strata vr red"), std::string::npos) << links;
    EXPECT_NE(ListVrs().find("\"vrf_device\":\"red\""), std::string::npos) << ListVrs();
  }
  EXPECT_TRUE(InVr("r-h1r", "red"));
  EXPECT_TRUE(InVr("r-h2r", "red"));
  EXPECT_TRUE(InVr("r-h1b", "blue"));
  EXPECT_FALSE(InVr("r-h1b", "red"));
  // The VR's routes in its VRF: the static (Strata's protocol), the connected subnets (the
  // kernel's, moved there by the enslaving, and the RIB's), the guard.
  const std::string red = VrfRoutes("red");
  EXPECT_TRUE(HasRoute(red, "192.0.2.1", "via 10.0.2.2 dev r-h2r proto 201")) << red;
  EXPECT_NE(red.find("10.0.1.0/24 dev r-h1r proto 201"), std::string::npos) << red;
  if (vrf_) {
    EXPECT_NE(red.find("10.0.1.0/24 dev r-h1r proto kernel"), std::string::npos) << red;
    // Nothing of the VRs is left in the main table.
    EXPECT_EQ(Ip("route show table main").output.find("10.0.1.0/24"), std::string::npos);
  }
  EXPECT_NE(red.find("unreachable default proto 201 metric 4278198272"), std::string::npos) << red;
  EXPECT_EQ(red.find("198.51.100.1"), std::string::npos) << red;
  const std::string blue = VrfRoutes("blue");
  EXPECT_TRUE(HasRoute(blue, "198.51.100.1", "via 10.0.2.2 dev r-h2b proto 201")) << blue;
}

TEST_F(VrfNetnsTest, VrDeletedAndConfiguredAgain) {
  ASSERT_TRUE(Reaches("h1b", "198.51.100.1"));
  ASSERT_TRUE(Reaches("h1r", "192.0.2.1"));
  auto r = Sh("configure; delete virtual-router blue; commit");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  if (vrf_) {
    EXPECT_TRUE(ProcessHarness::WaitFor([&] { return Ip("link show blue").exit_code != 0; }, 5s));
    EXPECT_EQ(Master("r-h1b"), "");
    EXPECT_EQ(Master("r-h2b"), "");
  }
  EXPECT_FALSE(InVr("r-h1b", "blue"));
  EXPECT_FALSE(InVr("r-h2b", "blue"));
  EXPECT_EQ(Replies("h1b", "198.51.100.1"), 0);
  EXPECT_GT(Replies("h1r", "192.0.2.1"), 0);  // red untouched

  std::ofstream(h_.run_dir() + "/blue.conf") << kInterfaces << kRed << kBlue;
  r = Sh("configure; load " + h_.run_dir() + "/blue.conf; commit");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(Reaches("h1b", "198.51.100.1"));
  EXPECT_TRUE(InVr("r-h1b", "blue"));
  EXPECT_TRUE(HasRoute(VrfRoutes("blue"), "198.51.100.1", "via 10.0.2.2 dev r-h2b"))
      << VrfRoutes("blue");
  EXPECT_EQ(Replies("h1b", "192.0.2.1"), 0);
}

TEST_F(VrfNetnsTest, FeaKilledAndRestartedAdoptsWithoutDisturbingForwarding) {
  ASSERT_TRUE(Reaches("h1r", "192.0.2.1"));
  const std::string before = Ip("-o link show red").output;
  const pid_t fea = FeaPid();
  ASSERT_GT(fea, 0);
  ping_ = h_.Start({"/usr/sbin/ip", "netns", "exec", hosts_["h1r"], PING_BIN, "192.0.2.1", "50"},
                   "ping");
  std::this_thread::sleep_for(500ms);
  ::kill(fea, SIGKILL);
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return FeaPid() > 0 && FeaPid() != fea; }, 15s));
  // The restarted FEA has the VR back (the rtrmgr replayed the configuration), adopted.
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] { return ListVrs().find("\"vr\":\"red\"") != std::string::npos; }, 15s));
  std::this_thread::sleep_for(1500ms);
  h_.Kill(ping_, SIGINT);
  ping_ = 0;
  // One device all along: same ifindex, never deleted.
  if (vrf_) {
    EXPECT_EQ(Ip("-o link show red").output.substr(0, 12), before.substr(0, 12));
  }
  std::set<int> seqs;
  static const std::regex reply(R"(icmp_seq=(\d+) )");
  for (const std::string& line : [&] {
         std::vector<std::string> v;
         std::ifstream f(h_.run_dir() + "/ping.out");
         for (std::string l; std::getline(f, l);) v.push_back(l);
         return v;
       }()) {
    std::smatch m;
    if (std::regex_search(line, m, reply)) seqs.insert(std::stoi(m[1]));
  }
  ASSERT_GT(seqs.size(), 20u) << h_.ReadLog("ping");
  const int span = *seqs.rbegin() - *seqs.begin() + 1;
  EXPECT_LE(span - static_cast<int>(seqs.size()), 1) << "pings lost across the FEA restart";
  EXPECT_TRUE(InVr("r-h1r", "red"));
}

}  // namespace
}  // namespace strata::testing
