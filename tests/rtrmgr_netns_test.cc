// strata-rtrmgr running a whole router against a real kernel, in a network namespace the test
// creates and deletes: live changes (the VR's interfaces, its kernel table) reach the FEA and
// the kernel tables; static routes of every kind show in `ip route show table N` as configured.
// Needs root and `ip netns`; skipped otherwise.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

#include "common/json.h"
#include "fea/netlink/route_monitor.h"
#include "testing/interop/command.h"
#include "testing/process_harness.h"

namespace strata::testing {
namespace {

using namespace std::chrono_literals;

// `cmd` through sh -c, its output and error output together.
interop::CommandResult Shell(const std::string& cmd) {
  return interop::RunCommand({"sh", "-c", cmd});
}

// va0 (10.0.0.1/24) is bound to VR red, whose static route's next hop 10.0.5.2 is on no
// interface of the VR yet: the FEA refuses that route.
constexpr const char* kConfig = R"(
interfaces {
    interface va0 { description "veth"; }
}
virtual-router red {
    table-id 100;
    interface va0;
    static {
        route 192.0.2.0/24 { next-hop 10.0.5.2; }
    }
}
)";

class RtrmgrNetnsTest : public ::testing::Test {
 protected:
  virtual std::string Config() const { return kConfig; }
  // `ip` commands run after va0 (10.0.0.1/24) is up.
  virtual std::vector<std::string> MoreLinks() const { return {}; }

  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    ns_ = "strata-rtr-test-" + std::to_string(::getpid());
    if (Shell("ip netns add " + ns_).exit_code != 0) GTEST_SKIP() << "ip netns unavailable";
    created_ = true;
    std::vector<std::string> links = {"link set lo up", "link add va0 type veth peer name vb0",
                                      "addr add 10.0.0.1/24 dev va0", "link set va0 up",
                                      "link set vb0 up"};
    for (const std::string& c : MoreLinks()) links.push_back(c);
    for (const std::string& c : links) ASSERT_EQ(Ip(c).exit_code, 0) << c;
    conf_ = h_.run_dir() + "/router.conf";
    std::ofstream(conf_) << Config();
    rtrmgr_ = h_.Start({"/usr/sbin/ip", "netns", "exec", ns_, h_.bin("strata-rtrmgr"), "-c", conf_,
                        "--state-dir", h_.run_dir() + "/state", "--log-dir", h_.run_dir() + "/logs",
                        "--restart-backoff-ms", "100"},
                       "rtrmgr");
    ASSERT_GT(rtrmgr_, 0);
    // The RIB's connected route; not the FIB's: the FEA rejects a batch whole, and the batch
    // may hold the refused static route too (see the tests).
    ASSERT_TRUE(ProcessHarness::WaitFor([&] { return RibHas("10.0.0.0/24"); }, 20s))
        << h_.ReadLog("rtrmgr") << Diagnostics();
  }
  void TearDown() override {
    if (rtrmgr_ > 0 && !h_.Exited(rtrmgr_)) {
      h_.Kill(rtrmgr_, SIGTERM);
      ProcessHarness::WaitFor([&] { return h_.Exited(rtrmgr_); }, 10s);
    }
    if (created_) Shell("ip netns del " + ns_);
  }

  // What the shell and the processes' logs say, for a failure message.
  std::string Diagnostics() {
    auto fib = h_.Run({"strata-sh", "-c", "show fib vr red --json"});
    auto ifs = h_.Run({"strata-sh", "-c", "show interfaces --json"});
    std::string out = "\nshow fib: " + fib.out + fib.err + "\nshow interfaces: " + ifs.out +
                      ifs.err + "\nip addr: " + Ip("addr").output;
    for (const char* log : {"fea", "rib.red"}) {
      std::ifstream f(h_.run_dir() + "/logs/" + log + ".log");
      out += std::string("\n--- ") + log + ":\n" +
             std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
    return out;
  }
  interop::CommandResult Ip(const std::string& args) { return Shell("ip -n " + ns_ + " " + args); }
  nlohmann::json ShJson(const std::string& cmd) {
    auto r = h_.Run({"strata-sh", "-c", cmd + " --json"});
    if (r.exit_code != 0) return nullptr;
    return nlohmann::json::parse(r.out, nullptr, false);
  }
  bool RibHas(const std::string& prefix) {
    auto j = ShJson("show route vr red");
    if (!j.is_object() || !j.contains("routes")) return false;
    for (const auto& r : j["routes"]) {
      if (r["prefix"] == prefix) return true;
    }
    return false;
  }
  bool FibHas(const std::string& addr, const std::string& prefix) {
    auto j = ShJson("show fib vr red " + addr);
    return j.is_object() && j.value("found", false) && j["prefix"] == prefix;
  }
  std::string KernelTable(const std::string& table) {
    return Ip("route show table " + table + " proto 201").output;
  }

  ProcessHarness h_;
  std::string ns_;
  bool created_ = false;
  std::string conf_;
  pid_t rtrmgr_ = 0;
};

TEST_F(RtrmgrNetnsTest, RefusedRouteIsRetriedWhenTheVrGainsAnAddress) {
  std::this_thread::sleep_for(300ms);  // let the refused static settle
  ASSERT_FALSE(FibHas("192.0.2.1", "192.0.2.0/24"));
  ASSERT_EQ(KernelTable("100").find("192.0.2.0/24"), std::string::npos);

  // An address on va0, already bound to red, puts the next hop on an interface of the VR.
  ASSERT_EQ(Ip("addr add 10.0.5.1/24 dev va0").exit_code, 0);
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return FibHas("192.0.2.1", "192.0.2.0/24"); }, 10s))
      << Diagnostics();
  EXPECT_TRUE(FibHas("10.0.0.9", "10.0.0.0/24"));
  EXPECT_TRUE(ProcessHarness::WaitFor(
      [&] { return KernelTable("100").find("192.0.2.0/24") != std::string::npos; }, 5s))
      << KernelTable("100");
}

TEST_F(RtrmgrNetnsTest, TableIdChangeMovesTheVrsKernelRoutesLive) {
  // The FEA's routes of the VR report the kernel table they go to.
  auto vr_table = [&] {
    auto j = ShJson("show fib vr red");
    return j.is_object() ? j.value("table_id", -1) : -1;
  };
  ASSERT_EQ(vr_table(), 100) << h_.Run({"strata-sh", "-c", "show fib vr red --json"}).out;
  // The static's next hop on va0 first: then every route of the VR is accepted. (Until then
  // the FEA may have rejected a batch holding the connected route with the refused static: a
  // batch is applied whole or not at all.)
  ASSERT_EQ(Ip("addr add 10.0.5.1/24 dev va0").exit_code, 0);
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] { return FibHas("10.0.0.9", "10.0.0.0/24") && FibHas("192.0.2.1", "192.0.2.0/24"); },
      10s))
      << Diagnostics();
  ASSERT_NE(KernelTable("100").find("10.0.0.0/24"), std::string::npos) << KernelTable("100");
  const pid_t rib = [&] {
    auto j = ShJson("show processes");
    for (const auto& p : j["processes"]) {
      if (p["instance"] == "rib.red") return p["pid"].get<int>();
    }
    return 0;
  }();
  ASSERT_GT(rib, 0);

  auto r = h_.Run({"strata-sh", "-c", "configure; set virtual-router red table-id 200; commit"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(vr_table(), 200) << h_.Run({"strata-sh", "-c", "show fib vr red --json"}).out;
  EXPECT_NE(KernelTable("200").find("10.0.0.0/24"), std::string::npos) << KernelTable("200");
  EXPECT_EQ(KernelTable("100").find("10.0.0.0/24"), std::string::npos) << KernelTable("100");
  // The RIB's later batches land in the new table: a new static route.
  r = h_.Run({"strata-sh", "-c",
              "configure; set virtual-router red static route 198.51.100.0/24 next-hop 10.0.0.2; "
              "commit"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(ProcessHarness::WaitFor(
      [&] { return KernelTable("200").find("198.51.100.0/24") != std::string::npos; }, 5s))
      << KernelTable("200");
  EXPECT_EQ(KernelTable("100").find("198.51.100.0/24"), std::string::npos);

  // A failing commit: the move (the FEA's first step) is done, then the FEA refuses to bind an
  // interface the kernel does not have (nothing the validator can know) and the move is undone.
  r = h_.Run({"strata-sh", "-c",
              "configure; set virtual-router red table-id 300; set interfaces interface nosuch0; "
              "set virtual-router red interface nosuch0; commit"});
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.err.find("virtual-router red interface nosuch0: fea: no interface named 'nosuch0'"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("commit failed"), std::string::npos) << r.err;
  EXPECT_EQ(vr_table(), 200);
  EXPECT_NE(KernelTable("200").find("10.0.0.0/24"), std::string::npos) << KernelTable("200");
  EXPECT_NE(KernelTable("200").find("198.51.100.0/24"), std::string::npos) << KernelTable("200");
  EXPECT_EQ(KernelTable("300").find("10.0.0.0/24"), std::string::npos) << KernelTable("300");

  // The RIB lived through it all.
  auto j = ShJson("show processes");
  for (const auto& p : j["processes"]) {
    if (p["instance"] == "rib.red") {
      EXPECT_EQ(p["pid"].get<int>(), rib);
    }
  }
}

// Static routes of every kind in VR red, on va0 (10.0.0.1/24) and vc0 (10.0.1.1/24).
constexpr const char* kStaticConfig = R"(
interfaces {
    interface va0;
    interface vc0;
}
virtual-router red {
    table-id 100;
    interface va0;
    interface vc0;
    static {
        route 10.10.0.0/16 {
            next-hop 10.0.0.2 { weight 3; }
            next-hop 10.0.1.2;
        }
        route 10.11.0.0/16 { blackhole; }
        route 10.12.0.0/16 { reject; }
        route 10.13.0.0/16 { reject prohibit; }
        route 10.14.0.0/16 { interface vc0; }
        route 10.15.0.0/16 { next-hop 10.0.0.2; }
        route 0.0.0.0/0 { next-hop 10.0.1.2; distance 250; }
    }
}
)";

class StaticRoutesNetnsTest : public RtrmgrNetnsTest {
 protected:
  std::string Config() const override { return kStaticConfig; }
  std::vector<std::string> MoreLinks() const override {
    return {"link add vc0 type veth peer name vd0", "addr add 10.0.1.1/24 dev vc0",
            "link set vc0 up", "link set vd0 up"};
  }
  // The kernel table's line for `prefix` with the lines after it that belong to it (ECMP's
  // "nexthop" lines), or "".
  std::string KernelRoute(const std::string& prefix) {
    const std::string table = KernelTable("100");
    std::string out;
    bool in = false;
    size_t start = 0;
    while (start < table.size()) {
      size_t end = table.find('\n', start);
      if (end == std::string::npos) end = table.size();
      const std::string line = table.substr(start, end - start);
      start = end + 1;
      const bool cont = !line.empty() && (line[0] == '\t' || line[0] == ' ');
      if (!cont) {
        // "blackhole 10.11.0.0/16 ...", "10.10.0.0/16 ...", "default via ...".
        const size_t word = line.find(' ');
        const std::string first = line.substr(0, word);
        const std::string second = word == std::string::npos
                                       ? ""
                                       : line.substr(word + 1, line.find(' ', word + 1) - word - 1);
        in = first == prefix || second == prefix;
      }
      if (in) out += line + "\n";
    }
    return out;
  }
  bool KernelRouteHas(const std::string& prefix, const std::string& text) {
    return KernelRoute(prefix).find(text) != std::string::npos;
  }
  interop::CommandResult Call(const std::string& xrl) {
    auto r = h_.Run({"strata-call", xrl});
    interop::CommandResult out;
    out.exit_code = r.exit_code;
    out.output = r.out + r.err;
    return out;
  }
};

TEST_F(StaticRoutesNetnsTest, EveryKindReachesTheKernelTableAsConfigured) {
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] {
        return KernelRouteHas("10.10.0.0/16", "weight 3") &&
               KernelRouteHas("default", "10.0.1.2") && KernelRouteHas("10.15.0.0/16", "va0");
      },
      15s))
      << KernelTable("100") << Diagnostics();
  const std::string ecmp = KernelRoute("10.10.0.0/16");
  EXPECT_NE(ecmp.find("nexthop via 10.0.0.2 dev va0 weight 3"), std::string::npos) << ecmp;
  EXPECT_NE(ecmp.find("nexthop via 10.0.1.2 dev vc0 weight 1"), std::string::npos) << ecmp;
  EXPECT_NE(KernelTable("100").find("blackhole 10.11.0.0/16"), std::string::npos);
  EXPECT_NE(KernelTable("100").find("unreachable 10.12.0.0/16"), std::string::npos);
  EXPECT_NE(KernelTable("100").find("prohibit 10.13.0.0/16"), std::string::npos);
  EXPECT_NE(KernelTable("100").find("10.14.0.0/16 dev vc0"), std::string::npos)
      << KernelTable("100");
  EXPECT_NE(KernelRoute("10.14.0.0/16").find("scope link"), std::string::npos);
  EXPECT_EQ(KernelRoute("10.14.0.0/16").find(" via "), std::string::npos);

  // strata-sh shows them as configured.
  auto sh = h_.Run({"strata-sh", "-c", "show route vr red"});
  ASSERT_EQ(sh.exit_code, 0) << sh.err;
  for (const char* want : {"10.0.0.2 (weight 3), 10.0.1.2", "blackhole", "unreachable", "prohibit",
                           "via vc0", "250/1"}) {
    EXPECT_NE(sh.out.find(want), std::string::npos) << want << "\n" << sh.out;
  }
}

// A floating static default (distance 250) behind an eBGP default (20): the eBGP route wins the
// kernel; when it goes, the static takes over; live edits and the RIB's death follow.
TEST_F(StaticRoutesNetnsTest, FloatingStaticTakesOverAndLiveChangesApply) {
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return KernelRouteHas("default", "10.0.1.2"); }, 15s))
      << KernelTable("100") << Diagnostics();
  // A BGP default route, as strata-bgp gives it to the RIB (the ebgp table).
  auto r = Call(
      "finder://rib.red/rib/1.0/add_routes?protocol:txt=ebgp&routes.0.prefix:ipv4net=0.0.0.0/0&"
      "routes.0.nexthop:ipv4=10.0.0.2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(ProcessHarness::WaitFor([&] { return KernelRouteHas("default", "10.0.0.2"); }, 5s))
      << KernelTable("100");
  EXPECT_FALSE(KernelRouteHas("default", "10.0.1.2"));
  r = Call(
      "finder://rib.red/rib/1.0/delete_routes?protocol:txt=ebgp&prefixes:list<ipv4net>=0.0.0.0/0");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(ProcessHarness::WaitFor([&] { return KernelRouteHas("default", "10.0.1.2"); }, 5s))
      << KernelTable("100");

  // Live: a weight changed, a blackhole made a prohibit, a next hop added to a single one.
  auto sh = h_.Run({"strata-sh", "-c",
                    "configure; set virtual-router red static route 10.10.0.0/16 next-hop 10.0.1.2 "
                    "weight 5; delete virtual-router red static route 10.11.0.0/16 blackhole; "
                    "set virtual-router red static route 10.11.0.0/16 reject prohibit; "
                    "set virtual-router red static route 10.15.0.0/16 next-hop 10.0.1.2; commit"});
  ASSERT_EQ(sh.exit_code, 0) << sh.out << sh.err;
  EXPECT_TRUE(ProcessHarness::WaitFor(
      [&] {
        return KernelRouteHas("10.10.0.0/16", "10.0.1.2 dev vc0 weight 5") &&
               KernelRouteHas("10.11.0.0/16", "prohibit") &&
               KernelRouteHas("10.15.0.0/16", "nexthop via 10.0.1.2");
      },
      5s))
      << KernelTable("100");
  // A contradiction is refused at commit, with its place and reason.
  sh = h_.Run({"strata-sh", "-c",
               "configure; set virtual-router red static route 10.12.0.0/16 next-hop 10.0.0.2; "
               "commit"});
  EXPECT_NE(sh.exit_code, 0);
  EXPECT_NE((sh.out + sh.err).find("a route that drops forwards nowhere"), std::string::npos)
      << sh.out << sh.err;

  // The RIB killed: the kernel keeps every route while it restarts and resyncs (a netlink
  // watch on the table sees no delete).
  const std::string before = KernelTable("100");
  fea::netlink::RouteMonitor::Options mo;
  mo.netns = ns_;
  mo.table = 100;
  auto monitor = fea::netlink::RouteMonitor::Start(mo);
  ASSERT_TRUE(monitor.ok()) << monitor.status().ToString();
  int rib = 0;
  const nlohmann::json procs = ShJson("show processes");
  for (const auto& p : procs["processes"]) {
    if (p["instance"] == "rib.red") rib = p["pid"].get<int>();
  }
  ASSERT_GT(rib, 0);
  ASSERT_EQ(::kill(rib, SIGKILL), 0);
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] {
        const nlohmann::json now = ShJson("show processes");
        if (!now.is_object()) return false;
        for (const auto& p : now["processes"]) {
          if (p["instance"] == "rib.red" && p["pid"].get<int>() != rib && RibHas("10.13.0.0/16")) {
            return true;
          }
        }
        return false;
      },
      20s))
      << Diagnostics();
  EXPECT_TRUE(ProcessHarness::WaitFor([&] { return KernelTable("100") == before; }, 5s))
      << before << "\n--- now:\n"
      << KernelTable("100");
  for (const auto& [prefix, tally] : (*monitor)->tallies()) {
    EXPECT_EQ(tally.deletes, 0u) << prefix.ToString() << " left the kernel";
  }
  (*monitor)->Stop();
}

}  // namespace
}  // namespace strata::testing
