// Session safety of Strata against real daemons:
//
//   BIRD (AS 65001) --link 1-- Strata (AS 65010) --link 2-- FRR (AS 65003)
//
// TCP MD5 signatures (RFC 2385): with the same key on both ends the sessions come up and carry
// routes; with a wrong key on Strata's side they go down and stay down; the right key brings
// them back. Maximum prefixes: FRR sends more routes than Strata allows; Strata tears the
// session down with Cease / Maximum Number of Prefixes Reached (FRR sees the NOTIFICATION) and
// lets it come back after the restart time.
// Keys are set at run time: BIRD's generated config gets a `password` line and is reloaded with
// `birdc configure`, FRR gets `neighbor X password` through vtysh, Strata change_peer.
// Binaries: $STRATA_BIN_DIR (strata-bgp from $STRATA_BGP_BIN when set).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/frr_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;

constexpr uint32_t kBirdAs = 65001;
constexpr uint32_t kStrataAs = 65010;
constexpr uint32_t kFrrAs = 65003;

class SessionSafetyInteropTest : public InteropTest {
 protected:
  void SetUp() override {
    InteropTest::SetUp();
    if (IsSkipped()) return;
    RequireBinary("/usr/sbin/bird");
    RequireBinary("/usr/lib/frr/bgpd");
    if (IsSkipped()) return;
    left_ = &AddNs("l");
    mid_ = &AddNs("s");
    right_ = &AddNs("r");
    l1_ = &AddLink(*left_, *mid_, 1);
    l2_ = &AddLink(*mid_, *right_, 2);
  }
  Neighbor Peer(const std::string& addr, uint32_t as, const std::string& local) const {
    return Neighbor{.address = addr, .remote_as = as, .local_address = local};
  }
  BirdSpeaker& AddBird(std::vector<Route> routes) {
    return AddSpeaker<BirdSpeaker>(
        *left_, SpeakerConfig{.name = "bird",
                              .local_as = kBirdAs,
                              .router_id = "10.255.0.1",
                              .neighbors = {Peer(l1_->b_v4(), kStrataAs, l1_->a_v4())},
                              .routes = std::move(routes)});
  }
  FrrSpeaker& AddFrr(std::vector<Route> routes) {
    return AddSpeaker<FrrSpeaker>(
        *right_, SpeakerConfig{.name = "frr",
                               .local_as = kFrrAs,
                               .router_id = "10.255.0.3",
                               .neighbors = {Peer(l2_->a_v4(), kStrataAs, l2_->b_v4())},
                               .routes = std::move(routes)});
  }
  StrataSpeaker& AddStrata() {
    SpeakerConfig c{.name = "strata",
                    .local_as = kStrataAs,
                    .router_id = "10.255.0.10",
                    .neighbors = {Peer(BirdAddr(), kBirdAs, l1_->b_v4()),
                                  Peer(FrrAddr(), kFrrAs, l2_->a_v4())}};
    return AddSpeaker<StrataSpeaker>(*mid_, c, StrataBinariesFromEnv());
  }
  std::string BirdAddr() const { return l1_->a_v4(); }
  std::string FrrAddr() const { return l2_->b_v4(); }
  std::string StrataLeft() const { return l1_->b_v4(); }
  std::string StrataRight() const { return l2_->a_v4(); }

  // Strata's settings for a neighbour as StrataSpeaker's add_peer has them, plus `extra`.
  Status ChangeStrataPeer(StrataSpeaker& s, const std::string& peer, uint32_t as,
                          const std::string& local, const std::string& extra) {
    const std::string xrl = s.bgp_target() + "change_peer?peer:ipv4=" + peer +
                            "&peer_as:u32=" + std::to_string(as) + "&local_address:ipv4=" + local +
                            "&hold_time:u32=9&connect_retry:u32=1" +
                            "&ipv4_unicast:bool=true&ipv6_unicast:bool=false" +
                            "&ebgp_requires_policy:bool=false" + extra;
    auto r = s.Call(xrl);
    return r.ok() ? Status::Ok() : r.status();
  }
  // BIRD: a password in every protocol of its generated config, then a reload.
  Status SetBirdPassword(BirdSpeaker& bird, const std::string& key) {
    const std::string path = bird.dir() + "/bird.conf";
    std::ifstream in(path);
    if (!in) return Internal("cannot read " + path);
    std::ostringstream out;
    std::string line;
    while (std::getline(in, line)) {
      if (line.find("password") != std::string::npos) continue;
      out << line << "\n";
      if (line.rfind("  neighbor ", 0) == 0) out << "  password \"" << key << "\";\n";
    }
    in.close();
    std::ofstream(path) << out.str();
    const auto r = RunCommand({"birdc", "-s", bird.dir() + "/bird.ctl", "configure"}, 10s);
    if (!r.ok() || r.output.find("error") != std::string::npos) {
      return Internal("birdc configure: " + r.output);
    }
    return Status::Ok();
  }
  Status Vtysh(FrrSpeaker& frr, const std::vector<std::string>& commands) {
    std::vector<std::string> argv = {"vtysh", "--vty_socket", frr.dir(), "-d", "bgpd"};
    for (const auto& c : commands) {
      argv.push_back("-c");
      argv.push_back(c);
    }
    const auto r = RunCommand(argv, 10s);
    return r.ok() ? Status::Ok() : Internal("vtysh: " + r.output);
  }
  Status SetFrrPassword(FrrSpeaker& frr, const std::string& key) {
    return Vtysh(frr, {"configure terminal", "router bgp " + std::to_string(kFrrAs),
                       "neighbor " + StrataRight() + " password " + key});
  }
  // True while neither side of either session is Established for all of `d`.
  bool StaysDown(StrataSpeaker& s, BirdSpeaker& bird, FrrSpeaker& frr,
                 std::chrono::milliseconds d) {
    return !PollUntil(
        [&] {
          return s.Established(BirdAddr()) || s.Established(FrrAddr()) ||
                 bird.Established(StrataLeft()) || frr.Established(StrataRight());
        },
        d);
  }

  NetNs* left_ = nullptr;
  NetNs* mid_ = nullptr;
  NetNs* right_ = nullptr;
  VethLink* l1_ = nullptr;
  VethLink* l2_ = nullptr;
};

TEST_F(SessionSafetyInteropTest, Md5SessionsWithBirdAndFrrNeedTheRightKey) {
  auto& bird = AddBird({{.prefix = "10.1.0.0/24"}});
  auto& frr = AddFrr({{.prefix = "10.3.0.0/24"}});
  auto& strata = AddStrata();
  // The keys are on the daemons before Strata starts: Strata's first sessions have none.
  ASSERT_OK(bird.Start());
  ASSERT_OK(frr.Start());
  ASSERT_OK(SetBirdPassword(bird, "bird-md5-key"));
  ASSERT_OK(SetFrrPassword(frr, "frr-md5-key"));
  ASSERT_OK(strata.Start());
  EXPECT_TRUE(StaysDown(strata, bird, frr, 6s)) << AllLogs();

  // The right keys: both sessions come up and carry routes both ways.
  ASSERT_OK(ChangeStrataPeer(strata, BirdAddr(), kBirdAs, StrataLeft(),
                             "&md5_password:txt=bird-md5-key"));
  ASSERT_OK(
      ChangeStrataPeer(strata, FrrAddr(), kFrrAs, StrataRight(), "&md5_password:txt=frr-md5-key"));
  ASSERT_TRUE(bird.WaitEstablished(StrataLeft(), 30s));
  ASSERT_TRUE(frr.WaitEstablished(StrataRight(), 30s));
  ASSERT_TRUE(frr.WaitForRoute("10.1.0.0/24").has_value());
  ASSERT_TRUE(bird.WaitForRoute("10.3.0.0/24").has_value());
  EXPECT_TRUE(strata.Established(BirdAddr()));
  EXPECT_TRUE(strata.Established(FrrAddr()));

  // A wrong key on Strata's side: the sessions go and stay down, the routes go.
  ASSERT_OK(
      ChangeStrataPeer(strata, BirdAddr(), kBirdAs, StrataLeft(), "&md5_password:txt=wrong-key"));
  ASSERT_OK(
      ChangeStrataPeer(strata, FrrAddr(), kFrrAs, StrataRight(), "&md5_password:txt=wrong-key"));
  ASSERT_TRUE(PollUntil(
      [&] { return !bird.Established(StrataLeft()) && !frr.Established(StrataRight()); }, 30s));
  ASSERT_TRUE(frr.WaitForRouteGone("10.1.0.0/24", 20s));
  EXPECT_TRUE(StaysDown(strata, bird, frr, 12s)) << AllLogs();

  // The right keys again.
  ASSERT_OK(ChangeStrataPeer(strata, BirdAddr(), kBirdAs, StrataLeft(),
                             "&md5_password:txt=bird-md5-key"));
  ASSERT_OK(
      ChangeStrataPeer(strata, FrrAddr(), kFrrAs, StrataRight(), "&md5_password:txt=frr-md5-key"));
  ASSERT_TRUE(bird.WaitEstablished(StrataLeft(), 30s));
  ASSERT_TRUE(frr.WaitEstablished(StrataRight(), 30s));
  ASSERT_TRUE(frr.WaitForRoute("10.1.0.0/24").has_value());
}

TEST_F(SessionSafetyInteropTest, PeerOverItsPrefixLimitIsTornDownAndComesBack) {
  auto& bird = AddBird({{.prefix = "10.1.0.0/24"}});
  auto& frr =
      AddFrr({{.prefix = "10.3.0.0/24"}, {.prefix = "10.4.0.0/24"}, {.prefix = "10.5.0.0/24"}});
  auto& strata = AddStrata();
  ASSERT_OK(bird.Start());
  ASSERT_OK(frr.Start());
  ASSERT_OK(strata.Start());
  ASSERT_TRUE(bird.WaitForRoute("10.4.0.0/24").has_value());
  ASSERT_TRUE(frr.WaitForRoute("10.1.0.0/24").has_value());

  // At most two prefixes from FRR, back after 5 s. FRR sends four: its three and BIRD's route
  // back (FRR does no sender-side loop detection); Strata counts its Adj-RIB-In, loops included.
  ASSERT_OK(ChangeStrataPeer(strata, FrrAddr(), kFrrAs, StrataRight(),
                             "&max_prefixes:u32=2&max_prefixes_restart:u32=5"));
  ASSERT_TRUE(PollUntil(
      [&] { return strata.PeerStatus(FrrAddr()).value("max_prefixes_exceeded", false); }, 30s))
      << AllLogs();
  ASSERT_TRUE(PollUntil([&] { return !frr.Established(StrataRight()); }, 10s));
  ASSERT_TRUE(bird.WaitForRouteGone("10.4.0.0/24", 20s));
  // FRR logged the NOTIFICATION it got.
  EXPECT_TRUE(PollUntil(
      [&] {
        const auto r = RunCommand({"vtysh", "--vty_socket", frr.dir(), "-d", "bgpd", "-c",
                                   "show bgp neighbors " + StrataRight() + " json"},
                                  10s);
        return r.ok() && r.output.find("Maximum Number of Prefixes Reached") != std::string::npos;
      },
      10s))
      << AllLogs();

  // FRR drops to two prefixes; after the restart time the session is back with it (the peer
  // was Established once before the teardown; change_peer kept its session).
  ASSERT_OK(frr.Withdraw("10.4.0.0/24"));
  ASSERT_OK(frr.Withdraw("10.5.0.0/24"));
  ASSERT_TRUE(PollUntil(
      [&] {
        return strata.Established(FrrAddr()) &&
               strata.PeerStatus(FrrAddr()).value("established_transitions", 0u) >= 2u;
      },
      40s))
      << AllLogs();
  EXPECT_FALSE(strata.PeerStatus(FrrAddr()).value("max_prefixes_exceeded", true));
  ASSERT_TRUE(bird.WaitForRoute("10.3.0.0/24").has_value());
  EXPECT_TRUE(bird.FindRoute("10.4.0.0/24") == std::nullopt);
  EXPECT_TRUE(bird.FindRoute("10.5.0.0/24") == std::nullopt);
}

}  // namespace
}  // namespace strata::interop
