// strata-rtrmgr running a whole router against a real kernel, in a network namespace the test
// creates and deletes: live changes (the VR's interfaces, its kernel table) reach the FEA and
// the kernel tables.
// Needs root and `ip netns`; skipped otherwise.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>

#include "common/json.h"
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
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    ns_ = "strata-rtr-test-" + std::to_string(::getpid());
    if (Shell("ip netns add " + ns_).exit_code != 0) GTEST_SKIP() << "ip netns unavailable";
    created_ = true;
    for (const char* c : {"link set lo up", "link add va0 type veth peer name vb0",
                          "addr add 10.0.0.1/24 dev va0", "link set va0 up", "link set vb0 up"}) {
      ASSERT_EQ(Ip(c).exit_code, 0) << c;
    }
    conf_ = h_.run_dir() + "/router.conf";
    std::ofstream(conf_) << kConfig;
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

}  // namespace
}  // namespace strata::testing
