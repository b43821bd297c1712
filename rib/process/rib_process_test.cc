// Integration: strata-finder, strata-rib and strata-test-target as real processes, driven with
// strata-call as an operator script would ($STRATA_BIN_DIR, set by strata_test).
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

using namespace std::chrono_literals;

std::string BinDir() {
  const char* d = std::getenv("STRATA_BIN_DIR");
  return d ? d : "";
}

class RibProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(BinDir().empty()) << "STRATA_BIN_DIR is not set";
    char tmpl[] = "/tmp/strata-rib-it-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    ::setenv("STRATA_RUN_DIR", dir_.c_str(), 1);
    ::unsetenv("STRATA_FINDER");
    Spawn("strata-finder", {});
    ASSERT_TRUE(WaitFor([&] { return std::filesystem::exists(dir_ + "/finder.sock"); }));
    Spawn("strata-rib", {"--vr", "red", "--restart-timeout", "60"});
    ASSERT_TRUE(WaitFor([&] { return Call("rib/1.0/get_stats?").rc == 0; }));
  }
  void TearDown() override {
    for (auto it = pids_.rbegin(); it != pids_.rend(); ++it) {
      ::kill(*it, SIGTERM);
      ::waitpid(*it, nullptr, 0);
    }
    std::filesystem::remove_all(dir_);
  }

  pid_t Spawn(const std::string& binary, std::vector<std::string> args) {
    const std::string path = BinDir() + "/" + binary;
    std::vector<char*> argv{const_cast<char*>(path.c_str())};
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    EXPECT_EQ(::posix_spawn(&pid, path.c_str(), nullptr, nullptr, argv.data(), environ), 0);
    pids_.push_back(pid);
    return pid;
  }

  struct Result {
    int rc = -1;
    std::string out;
  };
  // strata-call on rib.red (or `target`); the XRL's arguments follow '?'.
  Result Call(const std::string& method_and_args, const std::string& target = "rib.red") {
    const std::string cmd =
        BinDir() + "/strata-call 'finder://" + target + "/" + method_and_args + "' 2>/dev/null";
    Result r;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int status = ::pclose(p);
    r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
  }

  template <typename Pred>
  bool WaitFor(Pred done, std::chrono::milliseconds limit = 5000ms) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!done()) {
      if (std::chrono::steady_clock::now() > end) return false;
      std::this_thread::sleep_for(20ms);
    }
    return true;
  }

  // A protocol process owning table `protocol`, with three routes.
  pid_t StartProtocol(bool graceful) {
    const pid_t pid = Spawn("strata-test-target", {"-n", "proto1"});
    EXPECT_TRUE(WaitFor([&] { return Call("test/1.0/ping?", "proto1").rc == 0; }));
    EXPECT_EQ(Call("rib/1.0/add_origin_table?protocol:txt=ospf&kind:txt=PROTOCOL_KIND_IGP&"
                   "owner:txt=proto1&graceful_restart:bool=" +
                   std::string(graceful ? "true" : "false"))
                  .rc,
              0);
    EXPECT_EQ(Call("rib/1.0/add_routes?protocol:txt=ospf&"
                   "routes.0.prefix:ipv4net=10.0.0.0/8&routes.0.nexthop:ipv4=192.0.2.1&"
                   "routes.1.prefix:ipv4net=10.1.0.0/16&routes.1.nexthop:ipv4=192.0.2.2&"
                   "routes.2.prefix:ipv6net=2001:db8::/32&routes.2.nexthop:ipv6=fe80::1")
                  .rc,
              0);
    return pid;
  }
  size_t Count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  }

  std::string dir_;
  std::vector<pid_t> pids_;
};

TEST_F(RibProcessTest, ScriptedSessionAndErrorExitCodes) {
  auto added = Call(
      "rib/1.0/add_origin_table?protocol:txt=rip&kind:txt=PROTOCOL_KIND_IGP&admin_distance:u32=99");
  ASSERT_EQ(added.rc, 0) << added.out;
  EXPECT_NE(added.out.find("admin_distance:u32=99"), std::string::npos);
  ASSERT_EQ(Call("rib/1.0/add_routes?protocol:txt=rip&routes.0.prefix:ipv4net=10.0.0.0/8&"
                 "routes.0.nexthop:ipv4=192.0.2.1&routes.0.metric:u32=3")
                .rc,
            0);
  auto found = Call("rib/1.0/lookup_route?addr:ipv4=10.9.9.9");
  ASSERT_EQ(found.rc, 0);
  EXPECT_NE(found.out.find("found:bool=true"), std::string::npos) << found.out;
  EXPECT_NE(found.out.find("route.protocol:txt=rip"), std::string::npos) << found.out;
  EXPECT_NE(found.out.find("route.metric:u32=3"), std::string::npos) << found.out;
  auto interest = Call("rib/1.0/register_interest?client:txt=bgp.red&addr:ipv4=10.1.1.1");
  ASSERT_EQ(interest.rc, 0);
  EXPECT_NE(interest.out.find("valid:ipv4net=10.0.0.0/8"), std::string::npos) << interest.out;
  auto listed = Call("rib/1.0/list_routes?");
  ASSERT_EQ(listed.rc, 0);
  EXPECT_EQ(Count(listed.out, ":ipv4net="), 1u) << listed.out;

  // Errors: exit code = status code. INVALID_ARGUMENT 3, NOT_FOUND 5, ALREADY_EXISTS 6.
  EXPECT_EQ(Call("rib/1.0/add_routes?protocol:txt=nope&routes.0.prefix:ipv4net=11.0.0.0/8&"
                 "routes.0.nexthop:ipv4=192.0.2.1")
                .rc,
            5);
  EXPECT_EQ(Call("rib/1.0/add_routes?protocol:txt=rip&routes.0.prefix:ipv4net=11.0.0.0/8&"
                 "routes.0.nexthop:ipv6=::1")
                .rc,
            3);
  EXPECT_EQ(Call("rib/1.0/add_routes?protocol:txt=rip&routes.0.prefix:ipv4net=11.0.0.1/8&"
                 "routes.0.nexthop:ipv4=192.0.2.1")
                .rc,
            3);
  EXPECT_EQ(Call("rib/1.0/add_routes?protocol:txt=rip&routes.0.prefix:ipv4net=10.0.0.0/8&"
                 "routes.0.nexthop:ipv4=192.0.2.1")
                .rc,
            6);
  EXPECT_EQ(Call("rib/1.0/delete_routes?protocol:txt=rip&prefixes:list<ipv4net>=12.0.0.0/8").rc, 5);
  EXPECT_EQ(Count(Call("rib/1.0/list_routes?").out, ":ipv4net="), 1u);
  EXPECT_EQ(Call("rib/1.0/delete_routes?protocol:txt=rip&prefixes:list<ipv4net>=10.0.0.0/8").rc, 0);
  EXPECT_NE(Call("rib/1.0/lookup_route?addr:ipv4=10.9.9.9").out.find("found:bool=false"),
            std::string::npos);
}

TEST_F(RibProcessTest, KilledProtocolsRoutesGoWithinASecond) {
  const pid_t proto = StartProtocol(false);
  ASSERT_EQ(Count(Call("rib/1.0/list_routes?protocol:txt=ospf").out, "prefix:ipv"), 3u);
  ASSERT_EQ(::kill(proto, SIGKILL), 0);
  ::waitpid(proto, nullptr, 0);
  const auto killed = std::chrono::steady_clock::now();
  EXPECT_TRUE(WaitFor(
      [&] {
        auto r = Call("rib/1.0/list_routes?protocol:txt=ospf");
        return r.rc == 0 && r.out.find("routes.") == std::string::npos;
      },
      1000ms));
  std::printf("routes gone %lld ms after SIGKILL\n",
              static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                         std::chrono::steady_clock::now() - killed)
                                         .count()));
}

TEST_F(RibProcessTest, GracefulRestartKeepsKilledProtocolsRoutesStale) {
  const pid_t proto = StartProtocol(true);
  ASSERT_EQ(::kill(proto, SIGKILL), 0);
  ::waitpid(proto, nullptr, 0);
  ASSERT_TRUE(WaitFor([&] {
    return Count(Call("rib/1.0/list_routes?protocol:txt=ospf").out, "stale:bool=true") == 3;
  }));
  std::this_thread::sleep_for(500ms);
  auto r = Call("rib/1.0/list_routes?protocol:txt=ospf");
  EXPECT_EQ(Count(r.out, "stale:bool=true"), 3u) << r.out;
  EXPECT_EQ(Count(Call("rib/1.0/lookup_route?addr:ipv4=10.1.2.3").out, "found:bool=true"), 1u);
  // The restarted protocol re-announces one route and is done: the others are swept.
  Spawn("strata-test-target", {"-n", "proto1"});
  ASSERT_TRUE(WaitFor([&] { return Call("test/1.0/ping?", "proto1").rc == 0; }));
  ASSERT_EQ(Call("rib/1.0/add_origin_table?protocol:txt=ospf&kind:txt=PROTOCOL_KIND_IGP&"
                 "owner:txt=proto1&graceful_restart:bool=true")
                .rc,
            0);
  ASSERT_EQ(Call("rib/1.0/add_routes?protocol:txt=ospf&routes.0.prefix:ipv4net=10.1.0.0/16&"
                 "routes.0.nexthop:ipv4=192.0.2.2")
                .rc,
            0);
  ASSERT_EQ(Call("rib/1.0/graceful_restart_done?protocol:txt=ospf").rc, 0);
  EXPECT_TRUE(WaitFor([&] {
    auto l = Call("rib/1.0/list_routes?protocol:txt=ospf");
    return Count(l.out, "prefix:ipv") == 1 && Count(l.out, "stale:bool=false") == 1;
  }));
}

// The owner's restart timer (1 s here) would sweep mid-restart; the returning owner says it
// defers its selection 2 s, so the RIB keeps the stale routes until it says it is done.
TEST_F(RibProcessTest, ReturningOwnerControlsTheEndOfItsRestart) {
  const std::string table =
      "rib/1.0/add_origin_table?protocol:txt=ospf&kind:txt=PROTOCOL_KIND_IGP&owner:txt=proto1&"
      "graceful_restart:bool=true&restart_time_s:u32=1";
  const pid_t proto = Spawn("strata-test-target", {"-n", "proto1"});
  ASSERT_TRUE(WaitFor([&] { return Call("test/1.0/ping?", "proto1").rc == 0; }));
  ASSERT_EQ(Call(table).rc, 0);
  ASSERT_EQ(Call("rib/1.0/add_routes?protocol:txt=ospf&"
                 "routes.0.prefix:ipv4net=10.0.0.0/8&routes.0.nexthop:ipv4=192.0.2.1&"
                 "routes.1.prefix:ipv4net=10.1.0.0/16&routes.1.nexthop:ipv4=192.0.2.2")
                .rc,
            0);
  ASSERT_EQ(::kill(proto, SIGKILL), 0);
  ::waitpid(proto, nullptr, 0);
  ASSERT_TRUE(WaitFor([&] {
    return Count(Call("rib/1.0/list_routes?protocol:txt=ospf").out, "stale:bool=true") == 2;
  }));
  const auto died = std::chrono::steady_clock::now();
  Spawn("strata-test-target", {"-n", "proto1"});
  ASSERT_TRUE(WaitFor([&] { return Call("test/1.0/ping?", "proto1").rc == 0; }));
  ASSERT_EQ(Call(table + "&selection_deferral_s:u32=2").rc, 0);
  auto stats = Call("rib/1.0/get_stats?");
  EXPECT_NE(stats.out.find("restarting:bool=true"), std::string::npos) << stats.out;
  std::this_thread::sleep_until(died + 1500ms);  // past the owner's 1 s restart time
  auto r = Call("rib/1.0/list_routes?protocol:txt=ospf");
  EXPECT_EQ(Count(r.out, "stale:bool=true"), 2u) << r.out;
  EXPECT_EQ(Count(Call("rib/1.0/lookup_route?addr:ipv4=10.0.0.1").out, "found:bool=true"), 1u);
  ASSERT_EQ(Call("rib/1.0/add_routes?protocol:txt=ospf&routes.0.prefix:ipv4net=10.1.0.0/16&"
                 "routes.0.nexthop:ipv4=192.0.2.2")
                .rc,
            0);
  auto done = Call("rib/1.0/graceful_restart_done?protocol:txt=ospf");
  ASSERT_EQ(done.rc, 0);
  EXPECT_NE(done.out.find("swept:u64=1"), std::string::npos) << done.out;
  r = Call("rib/1.0/list_routes?protocol:txt=ospf");
  EXPECT_EQ(Count(r.out, "prefix:ipv"), 1u) << r.out;
  EXPECT_EQ(Count(r.out, "stale:bool=false"), 1u) << r.out;
  EXPECT_NE(Call("rib/1.0/get_stats?").out.find("restarting:bool=false"), std::string::npos);
}

}  // namespace

// With a real strata-fea (--no-kernel): one static route whose next hop is on no interface of
// the VR travels in the same batch as good ones; the FEA refuses it by name and the good ones
// reach the FEA's FIB at once, without waiting for a re-offer.
TEST_F(RibProcessTest, RefusedStaticRouteDoesNotHoldBackTheRestOfItsBatch) {
  Spawn("strata-fea", {"--no-kernel"});
  ASSERT_TRUE(WaitFor([&] {
    auto vrs = Call("fea/1.0/list_vrs?", "fea");
    return vrs.rc == 0 && vrs.out.find("vr:txt=red") != std::string::npos;
  }));
  // lo (127.0.0.1/8) joins the VR: 127.0.0.2..4 are on one of its interfaces, 192.0.2.1 is not.
  ASSERT_EQ(Call("fea/1.0/bind_interface?interface:txt=lo&vr:txt=red", "fea").rc, 0);
  ASSERT_TRUE(WaitFor([&] {
    return Call("rib/1.0/lookup_route?addr:ipv4=127.0.0.2").out.find("found:bool=true") !=
           std::string::npos;
  }));
  ASSERT_EQ(Call("rib/1.0/add_origin_table?protocol:txt=static&kind:txt=PROTOCOL_KIND_IGP").rc, 0);
  ASSERT_EQ(Call("rib/1.0/add_routes?protocol:txt=static&"
                 "routes.0.prefix:ipv4net=10.1.0.0/16&routes.0.nexthop:ipv4=127.0.0.2&"
                 "routes.1.prefix:ipv4net=10.2.0.0/16&routes.1.nexthop:ipv4=192.0.2.1&"
                 "routes.2.prefix:ipv4net=10.3.0.0/16&routes.2.nexthop:ipv4=127.0.0.3&"
                 "routes.3.prefix:ipv4net=10.4.0.0/16&routes.3.nexthop:ipv4=127.0.0.4")
                .rc,
            0);
  Result fib;
  EXPECT_TRUE(WaitFor(
      [&] {
        fib = Call("fea/1.0/list_routes?vr:txt=red", "fea");
        return Count(fib.out, "/16") == 3;
      },
      3000ms))
      << fib.out;
  EXPECT_NE(fib.out.find("10.1.0.0/16"), std::string::npos) << fib.out;
  EXPECT_NE(fib.out.find("10.3.0.0/16"), std::string::npos) << fib.out;
  EXPECT_NE(fib.out.find("10.4.0.0/16"), std::string::npos) << fib.out;
  EXPECT_EQ(fib.out.find("10.2.0.0/16"), std::string::npos) << fib.out;
  auto stats = Call("rib/1.0/get_stats?");
  EXPECT_NE(stats.out.find("fea_routes_refused:u64=1"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("fea_refused_waiting:u64=1"), std::string::npos) << stats.out;
}
