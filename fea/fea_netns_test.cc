// strata-fea against a real kernel, in a private network namespace: interfaces, per-VR kernel
// tables, foreign routes left alone, restart with reconciliation, interface events.
// Needs root and `ip netns`; skipped otherwise. The namespace is deleted in TearDown.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>
#include <thread>

#include "libipc/interfaces/fea.strata.h"
#include "libipc/interfaces/fea_client.strata.h"
#include "libipc/router.h"

extern char** environ;

namespace strata::fea {
namespace {

using namespace std::chrono_literals;
namespace fcpb = strata::fea_client::v1;

struct Result {
  int rc = -1;
  std::string out;
};

Result Sh(const std::string& cmd) {
  Result r;
  FILE* f = ::popen((cmd + " 2>&1").c_str(), "r");
  if (f == nullptr) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) r.out.append(buf.data(), n);
  const int status = ::pclose(f);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Records interface events sent to it.
class Recorder : public fcpb::FeaClientHandler {
 public:
  void InterfaceEvent(const fcpb::InterfaceEventRequest& req,
                      ipc::Responder<fcpb::InterfaceEventReply> reply) override {
    events.push_back(req);
    reply(fcpb::InterfaceEventReply());
  }
  std::vector<fcpb::InterfaceEventRequest> events;
};

class FeaNetnsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    ns_ = "strata-fea-test-" + std::to_string(::getpid());
    if (Sh("ip netns add " + ns_).rc != 0) GTEST_SKIP() << "ip netns unavailable";
    created_ = true;
    // Linux 5.3+: the FEA installs routes through nexthop objects; older kernels spell out.
    objects_ = Sh("ip -n " + ns_ + " nexthop show").rc == 0;
    const char* bin = std::getenv("STRATA_BIN_DIR");
    ASSERT_NE(bin, nullptr);
    bin_ = bin;
    char tmpl[] = "/tmp/strata-fea-netns-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    for (const char* c :
         {"link set lo up", "link add va0 type veth peer name vb0",
          "link add va1 type veth peer name vb1", "addr add 10.0.0.1/24 dev va0",
          "addr add 10.0.1.1/24 dev va1", "addr add 2001:db8:a::1/64 dev va0 nodad",
          "link set va0 up", "link set vb0 up", "link set va1 up", "link set vb1 up"}) {
      ASSERT_EQ(Sh("ip -n " + ns_ + " " + std::string(c)).rc, 0) << c;
      // The peers (vb*) carry no addresses: the gateways must not be local addresses.
    }
    finder_ = Spawn({bin_ + "/strata-finder"});
    ASSERT_TRUE(WaitFor([&] { return std::filesystem::exists(dir_ + "/finder.sock"); }));
    StartFea();
  }

  void TearDown() override {
    router_.reset();
    for (pid_t p : {fea_, finder_}) {
      if (p > 0) {
        ::kill(p, SIGKILL);
        ::waitpid(p, nullptr, 0);
      }
    }
    if (created_) (void)Sh("ip netns del " + ns_);
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  pid_t Spawn(std::vector<std::string> argv) {
    std::vector<std::string> full = {
        "/usr/sbin/ip",         "netns", "exec", ns_, "env", "STRATA_RUN_DIR=" + dir_,
        "STRATA_LOG_LEVEL=warn"};
    full.insert(full.end(), argv.begin(), argv.end());
    std::vector<char*> args;
    for (auto& a : full) args.push_back(a.data());
    args.push_back(nullptr);
    pid_t pid = -1;
    EXPECT_EQ(::posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ), 0);
    return pid;
  }

  void StartFea(std::vector<std::string> flags = {}) {
    std::vector<std::string> argv = {bin_ + "/strata-fea", "--grace-ms", "60000"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    fea_ = Spawn(argv);
    ASSERT_TRUE(WaitFor([&] { return Call("finder://fea/fea/1.0/list_vrs").rc == 0; }));
  }

  template <typename Pred>
  bool WaitFor(Pred p, std::chrono::milliseconds limit = 5000ms) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!p()) {
      if (std::chrono::steady_clock::now() > end) return false;
      if (io_)
        io_->run_for(20ms);
      else
        std::this_thread::sleep_for(20ms);
    }
    return true;
  }

  Result Call(const std::string& xrl) {
    return Sh("ip netns exec " + ns_ + " env STRATA_RUN_DIR=" + dir_ + " " + bin_ +
              "/strata-call '" + xrl + "'");
  }
  // apply_routes of one IPv4 route through one gateway.
  Result AddRoute(const std::string& vr, const std::string& prefix, const std::string& via) {
    return Call("finder://fea/fea/1.0/apply_routes?vr:txt=" + vr +
                "&changes.0.op:txt=OP_ADD&changes.0.prefix:ipv4net=" + prefix +
                "&changes.0.nexthops.0.address:ipv4=" + via);
  }
  Result Ip(const std::string& args) { return Sh("ip -n " + ns_ + " " + args); }
  // `ip route show table T` (`-6` for IPv6) without the "nhid N " of routes through nexthop
  // objects, so that the same text matches with and without them.
  std::string Table(int t, const char* family = "-4") {
    return std::regex_replace(
        Ip(std::string(family) + " route show table " + std::to_string(t)).out,
        std::regex("nhid [0-9]+ "), "");
  }
  // The nhid of the route for `prefix` in table `t` ("" when it has none).
  std::string Nhid(int t, const std::string& prefix) {
    std::smatch m;
    const std::string out = Ip("route show table " + std::to_string(t) + " " + prefix).out;
    return std::regex_search(out, m, std::regex("nhid ([0-9]+) ")) ? m[1].str() : "";
  }
  // Strata's nexthop objects, one line each ("id N via GW dev D scope link proto 201").
  std::vector<std::string> Objects() {
    std::vector<std::string> out;
    std::istringstream in(Ip("nexthop show proto 201").out);
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with("id ")) out.push_back(line);
    }
    return out;
  }

  void SetUpVrs() {
    for (const char* x : {"finder://fea/fea/1.0/add_vr?vr:txt=red&table_id:u32=100",
                          "finder://fea/fea/1.0/add_vr?vr:txt=blue&table_id:u32=101",
                          "finder://fea/fea/1.0/bind_interface?interface:txt=va0&vr:txt=red",
                          "finder://fea/fea/1.0/bind_interface?interface:txt=va1&vr:txt=blue"}) {
      Result r = Call(x);
      ASSERT_EQ(r.rc, 0) << x << ": " << r.out;
    }
  }

  std::string ns_;
  bool created_ = false;
  bool objects_ = false;  // the kernel has nexthop objects
  std::string bin_;
  std::string dir_;
  pid_t finder_ = -1;
  pid_t fea_ = -1;
  std::unique_ptr<boost::asio::io_context> io_;
  std::unique_ptr<ipc::Router> router_;
};

constexpr const char* kRed1 =
    "finder://fea/fea/1.0/apply_routes?vr:txt=red"
    "&changes.0.op:txt=OP_ADD&changes.0.prefix:ipv4net=192.0.2.0/24"
    "&changes.0.nexthops.0.address:ipv4=10.0.0.2";
constexpr const char* kRed2 =
    "finder://fea/fea/1.0/apply_routes?vr:txt=red"
    "&changes.0.op:txt=OP_ADD&changes.0.prefix:ipv4net=198.51.100.0/24"
    "&changes.0.nexthops.0.address:ipv4=10.0.0.2"
    "&changes.1.op:txt=OP_ADD&changes.1.prefix:ipv6net=2001:db8:100::/48"
    "&changes.1.nexthops.0.address:ipv6=2001:db8:a::2"
    "&changes.2.op:txt=OP_ADD&changes.2.prefix:ipv4net=100.64.0.0/10"
    "&changes.2.nexthops.0.address:ipv4=10.0.0.2&changes.2.nexthops.1.address:ipv4=10.0.0.3"
    "&changes.2.nexthops.1.weight:u32=2";

TEST_F(FeaNetnsTest, ProgramsTablesReconcilesAfterRestartAndReportsLinks) {
  SetUpVrs();
  Result r = Call(kRed1);
  ASSERT_EQ(r.rc, 0) << r.out;
  ASSERT_EQ(Call(kRed2).rc, 0);
  r = AddRoute("blue", "203.0.113.0/24", "10.0.1.2");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(Table(100).find("192.0.2.0/24 via 10.0.0.2 dev va0 proto 201 metric 20"),
            std::string::npos)
      << Table(100);
  EXPECT_NE(Table(100).find("198.51.100.0/24 via 10.0.0.2 dev va0 proto 201"), std::string::npos);
  EXPECT_NE(Table(100, "-6").find("2001:db8:100::/48 via 2001:db8:a::2"), std::string::npos);
  EXPECT_NE(Table(101).find("203.0.113.0/24 via 10.0.1.2 dev va1 proto 201"), std::string::npos);
  EXPECT_NE(Table(100).find("nexthop via 10.0.0.3 dev va0 weight 2"), std::string::npos)
      << Table(100);
  EXPECT_EQ(Table(101).find("192.0.2.0"), std::string::npos);
  // One nexthop object per gateway and device, shared by the routes through it, across tables;
  // the ECMP route spells its next hops out.
  const std::string via_2 = Nhid(100, "192.0.2.0/24");
  EXPECT_EQ(via_2.empty(), !objects_) << Ip("route show table 100").out;
  EXPECT_EQ(Nhid(100, "198.51.100.0/24"), via_2);
  EXPECT_EQ(Nhid(100, "100.64.0.0/10"), "");
  EXPECT_EQ(Objects().size(), objects_ ? 3u : 0u) << Ip("nexthop show").out;
  if (objects_) {
    EXPECT_NE(Ip("nexthop show id " + via_2).out.find("via 10.0.0.2 dev va0"), std::string::npos);
  }

  // Bad input: an error, nothing applied.
  EXPECT_EQ(
      Call("finder://fea/fea/1.0/apply_routes?vr:txt=green&changes.0.op:txt=OP_ADD"
           "&changes.0.prefix:ipv4net=192.0.2.0/24&changes.0.nexthops.0.address:ipv4=10.0.0.2")
          .rc,
      5);
  EXPECT_EQ(
      Call("finder://fea/fea/1.0/apply_routes?vr:txt=red&changes.0.op:txt=OP_ADD"
           "&changes.0.prefix:ipv4net=10.50.0.0/16&changes.0.nexthops.0.address:ipv4=10.0.1.2")
          .rc,
      3);
  EXPECT_EQ(Table(100).find("10.50.0.0"), std::string::npos);

  // Foreign routes in the same table, one on the same prefix.
  ASSERT_EQ(Ip("route add 192.0.2.0/24 via 10.0.0.2 proto static table 100").rc, 0);
  ASSERT_EQ(Ip("route add 10.99.0.0/16 via 10.0.0.2 proto static table 100").rc, 0);

  // Crash and restart: the RIB re-sends only 192.0.2.0/24.
  ::kill(fea_, SIGKILL);
  ::waitpid(fea_, nullptr, 0);
  fea_ = -1;
  StartFea();
  SetUpVrs();
  EXPECT_NE(Table(100).find("198.51.100.0/24"), std::string::npos) << "kept during grace";
  ASSERT_EQ(Call("finder://fea/fea/1.0/begin_resync?vr:txt=red").rc, 0);
  ASSERT_EQ(Call(kRed1).rc, 0);
  r = Call("finder://fea/fea/1.0/end_resync?vr:txt=red");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("removed:u32=3"), std::string::npos) << r.out;
  const std::string t100 = Table(100);
  EXPECT_NE(t100.find("192.0.2.0/24 via 10.0.0.2 dev va0 proto 201 metric 20"), std::string::npos)
      << t100;
  EXPECT_NE(t100.find("192.0.2.0/24 via 10.0.0.2 dev va0 proto static"), std::string::npos) << t100;
  EXPECT_NE(t100.find("10.99.0.0/16 via 10.0.0.2 dev va0 proto static"), std::string::npos);
  EXPECT_EQ(t100.find("198.51.100.0"), std::string::npos) << t100;
  EXPECT_EQ(t100.find("100.64.0.0"), std::string::npos) << t100;
  EXPECT_EQ(Table(100, "-6").find("2001:db8:100::"), std::string::npos);
  EXPECT_NE(Table(101).find("203.0.113.0/24"), std::string::npos) << "blue still in grace";
  r = Call("finder://fea/fea/1.0/list_routes?vr:txt=red");
  EXPECT_NE(r.out.find("in_kernel:bool=true"), std::string::npos) << r.out;
  // The restarted FEA adopted its objects (same id, no second copy); the IPv6 gateway's went
  // with the last route through it.
  EXPECT_EQ(Nhid(100, "192.0.2.0/24"), via_2);
  EXPECT_EQ(Objects().size(), objects_ ? 2u : 0u) << Ip("nexthop show").out;
  EXPECT_EQ(Ip("-6 nexthop show proto 201").out.find("2001:db8:a::2"), std::string::npos);

  // An interface watcher in this process hears va0 go down and up.
  io_ = std::make_unique<boost::asio::io_context>(1);
  ipc::RouterOptions opts;
  opts.finder_path = dir_ + "/finder.sock";
  router_ = std::make_unique<ipc::Router>(*io_, opts);
  Recorder recorder;
  const std::string me = "fea-watch-" + std::to_string(::getpid());
  router_->AddTarget("fea_watch_test", me, false).Serve(recorder);
  std::optional<Status> started;
  router_->Start([&](const Status& s) { started = s; });
  ASSERT_TRUE(WaitFor([&] { return started.has_value(); }));
  ASSERT_TRUE(started->ok()) << started->ToString();
  v1::WatchInterfacesRequest wreq;
  wreq.set_watcher(me);
  wreq.set_vr("red");
  std::optional<Status> watched;
  v1::FeaClient(*router_, "fea")
      .WatchInterfaces(wreq,
                       [&](const Status& s, const v1::WatchInterfacesReply&) { watched = s; });
  ASSERT_TRUE(WaitFor([&] { return watched.has_value() && !recorder.events.empty(); }));
  ASSERT_TRUE(watched->ok()) << watched->ToString();
  EXPECT_EQ(recorder.events[0].interface().name(), "va0");
  EXPECT_TRUE(recorder.events[0].interface().up());
  EXPECT_EQ(recorder.events[0].interface().vr(), "red");
  auto last_up = [&](bool up) {
    return !recorder.events.empty() && recorder.events.back().interface().name() == "va0" &&
           recorder.events.back().interface().up() == up;
  };
  ASSERT_EQ(Ip("link set va0 down").rc, 0);
  EXPECT_TRUE(WaitFor([&] { return last_up(false); }));
  ASSERT_EQ(Ip("link set va0 up").rc, 0);
  EXPECT_TRUE(WaitFor([&] { return last_up(true); }));
  // The kernel flushed red's routes through va0, and the nexthop objects on va0, when it went
  // down; the FEA puts them back, the object under its old id.
  EXPECT_TRUE(WaitFor([&] {
    return Table(100).find("192.0.2.0/24 via 10.0.0.2 dev va0 proto 201") != std::string::npos;
  })) << Table(100);
  EXPECT_EQ(Nhid(100, "192.0.2.0/24"), via_2);
  EXPECT_EQ(Objects().size(), objects_ ? 2u : 0u) << Ip("nexthop show").out;
  // va0 loses its carrier (its peer goes down): the kernel drops the objects on it and the
  // routes through them. When the carrier comes back the FEA reconciles and they return.
  ASSERT_EQ(Ip("link set vb0 down").rc, 0);
  if (objects_) {
    EXPECT_TRUE(WaitFor([&] { return Table(100).find("192.0.2.0/24 via") == std::string::npos; }))
        << Table(100);
  }
  // Meanwhile no object can be made on va0: a new route spells its gateway out (linkdown).
  r = AddRoute("red", "198.51.100.0/24", "10.0.0.2");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(Table(100).find("198.51.100.0/24 via 10.0.0.2 dev va0 proto 201 metric 20 linkdown"),
            std::string::npos)
      << Table(100);
  EXPECT_EQ(Nhid(100, "198.51.100.0/24"), "");
  ASSERT_EQ(Ip("link set vb0 up").rc, 0);
  EXPECT_TRUE(WaitFor([&] {
    return Table(100).find("192.0.2.0/24 via 10.0.0.2 dev va0 proto 201") != std::string::npos;
  })) << Table(100);
  // A new object: the old one's id was forgotten when it could not be made again.
  EXPECT_EQ(Nhid(100, "192.0.2.0/24").empty(), !objects_);
  EXPECT_NE(Table(100).find("198.51.100.0/24 via 10.0.0.2 dev va0 proto 201"), std::string::npos)
      << Table(100);
  // The last route through a gateway takes its object with it.
  r = Call(
      "finder://fea/fea/1.0/apply_routes?vr:txt=red&changes.0.op:txt=OP_DELETE"
      "&changes.0.prefix:ipv4net=192.0.2.0/24&changes.1.op:txt=OP_DELETE"
      "&changes.1.prefix:ipv4net=198.51.100.0/24");
  ASSERT_EQ(r.rc, 0) << r.out;
  if (objects_) {
    EXPECT_EQ(Ip("nexthop show id " + via_2).rc, 2) << Ip("nexthop show").out;
  }
  EXPECT_EQ(Objects().size(), objects_ ? 1u : 0u) << Ip("nexthop show").out;
}

// With net.ipv4.nexthop_compat_mode 0 the kernel's route dumps name the object and not the
// gateway: a restarted FEA reads the gateway from the objects it adopted, so the routes the RIB
// sends again match the kernel's and stay as they are (no route message at all).
TEST_F(FeaNetnsTest, AdoptsRoutesWhoseDumpsNameOnlyTheirObject) {
  if (!objects_) GTEST_SKIP() << "the kernel has no nexthop objects";
  ASSERT_EQ(Sh("ip netns exec " + ns_ + " sysctl -qw net.ipv4.nexthop_compat_mode=0").rc, 0);
  SetUpVrs();
  ASSERT_EQ(Call(kRed1).rc, 0);
  const std::string id = Nhid(100, "192.0.2.0/24");
  ASSERT_FALSE(id.empty());
  EXPECT_EQ(Table(100).find(" via "), std::string::npos) << "compat mode 0: " << Table(100);
  ::kill(fea_, SIGKILL);
  ::waitpid(fea_, nullptr, 0);
  fea_ = -1;
  StartFea();
  SetUpVrs();
  ASSERT_EQ(Call("finder://fea/fea/1.0/begin_resync?vr:txt=red").rc, 0);
  ASSERT_EQ(Call(kRed1).rc, 0);
  Result r = Call("finder://fea/fea/1.0/end_resync?vr:txt=red");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("removed:u32=0"), std::string::npos) << r.out;
  r = Call("finder://fea/fea/1.0/get_stats");
  EXPECT_NE(r.out.find("kernel_ops:u64=0"), std::string::npos) << r.out;
  EXPECT_EQ(Nhid(100, "192.0.2.0/24"), id);
  EXPECT_EQ(Objects().size(), 1u) << Ip("nexthop show").out;
}

// --no-nexthop-objects: every route spells its gateway out, as on a kernel without objects.
TEST_F(FeaNetnsTest, WithoutNexthopObjectsRoutesSpellTheirGatewaysOut) {
  ::kill(fea_, SIGKILL);
  ::waitpid(fea_, nullptr, 0);
  fea_ = -1;
  StartFea({"--no-nexthop-objects"});
  SetUpVrs();
  ASSERT_EQ(Call(kRed1).rc, 0);
  ASSERT_EQ(Call(kRed2).rc, 0);
  EXPECT_NE(Table(100).find("192.0.2.0/24 via 10.0.0.2 dev va0 proto 201 metric 20"),
            std::string::npos)
      << Table(100);
  EXPECT_EQ(Nhid(100, "192.0.2.0/24"), "");
  EXPECT_TRUE(Objects().empty()) << Ip("nexthop show").out;
}

}  // namespace
}  // namespace strata::fea
