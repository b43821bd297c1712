// Strata's graceful restart (RFC 4724) as the restarting speaker, with BIRD as helper:
//
//   BIRD (AS 65001, 10.200.1.1, `graceful restart on`) --link 1-- Strata (AS 65000, .2)
//
// strata-bgp is SIGKILLed (no NOTIFICATION) and started again with the same configuration.
// Meanwhile the route learned from BIRD stays in Strata's RIB, marked stale (strata-rib keeps
// the tables strata-bgp registered with graceful restart), and BIRD keeps Strata's route (its
// protocol shows "Neighbor graceful restart active"; BIRD 2.0.12's `show route all` does not
// mark stale routes, so the protocol state is what is checked). After the restart strata-bgp finds
// its stale routes, sends OPEN with the R and F bits, waits for BIRD's End-of-RIB, sends its
// own and tells the RIB it is done: the stale marks go and both routes are still there.
// The same with FRR in its default graceful restart mode (helper only): FRR keeps Strata's route
// with its path marked stale in `show bgp ... json` until Strata's End-of-RIB.
// The other way round, Strata as the helper (RestartingPeer*): BIRD (killed, then started again
// with bird -R) or FRR (bgpd killed and started again, `bgp graceful-restart preserve-fw-state`)
// restarts while a third speaker (BIRD, link 2) learns the peer's routes through Strata. While
// the peer is away its routes stay in Strata's RIB and at the third speaker, counted stale in
// list_peers; when it is back with one route fewer, its End-of-RIB ends the restart and the
// route it did not send again is withdrawn from the RIB and the third speaker. A peer that does
// not come back within the restart time it advertised (3 s) loses its routes.
// Strata runs without strata-fea, so the check is on the RIB, not the kernel (the kernel and
// traffic through Strata: graceful_restart_forwarding_test.cc).
// Binaries: $STRATA_BIN_DIR (strata-bgp from $STRATA_BGP_BIN when set).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/frr_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;

class GracefulRestartInteropTest : public InteropTest {
 protected:
  void SetUp() override {
    InteropTest::SetUp();
    if (IsSkipped()) return;
    RequireBinary("/usr/sbin/bird");
    if (IsSkipped()) return;
    bird_ns_ = &AddNs("b");
    strata_ns_ = &AddNs("s");
    link_ = &AddLink(*bird_ns_, *strata_ns_, 1);
  }
  std::string BirdProtocol(BirdSpeaker& bird) {
    return bird.Birdc({"show", "protocols", "all", "nb0"}).output;
  }

  // The restarting peer (`peer`, on link 1: 10.1.0.0/24 and 10.3.0.0/24 originated), Strata
  // (AS 65000) and a third speaker, BIRD AS 65003 on link 2, all Established and converged.
  StrataSpeaker& StartHelperTopology(BgpSpeaker& peer) {
    third_ns_ = &AddNs("t");
    link2_ = &AddLink(*third_ns_, *strata_ns_, 2);
    third_ = &AddSpeaker<BirdSpeaker>(
        *third_ns_, SpeakerConfig{.name = "bird-third",
                                  .local_as = 65003,
                                  .router_id = "10.255.0.3",
                                  .neighbors = {Neighbor{.address = link2_->b_v4(),
                                                         .remote_as = 65000,
                                                         .local_address = link2_->a_v4()}}});
    EXPECT_OK(peer.Start());
    EXPECT_OK(third_->Start());
    auto& strata = AddSpeaker<StrataSpeaker>(
        *strata_ns_,
        SpeakerConfig{.name = "strata",
                      .local_as = 65000,
                      .router_id = "10.255.0.10",
                      .neighbors = {Neighbor{.address = link_->a_v4(),
                                             .remote_as = peer.config().local_as,
                                             .local_address = link_->b_v4()},
                                    Neighbor{.address = link2_->a_v4(),
                                             .remote_as = 65003,
                                             .local_address = link2_->b_v4()}}},
        StrataBinariesFromEnv());
    EXPECT_OK(strata.Start());
    EXPECT_TRUE(strata.WaitEstablished(link_->a_v4())) << strata.Logs() << peer.Logs();
    EXPECT_TRUE(strata.WaitEstablished(link2_->a_v4())) << strata.Logs();
    for (const char* prefix : {"10.1.0.0/24", "10.3.0.0/24"}) {
      EXPECT_TRUE(PollUntil([&] { return strata.RibRouteFor(prefix).has_value(); }, 20s));
      EXPECT_TRUE(third_->WaitForRoute(prefix).has_value()) << prefix;
    }
    const auto status = strata.PeerStatus(link_->a_v4());
    EXPECT_EQ(status.value("graceful_restart", false), true) << status.dump();
    EXPECT_EQ(status.value("peer_restart_time", 0u),
              peer.config().neighbors[0].graceful_restart_time)
        << status.dump();
    return strata;
  }
  uint64_t transitions_before_restart_ = 0;  // established_transitions when the peer went
  // list_peers' stale_routes of the restarting peer (a uint64: a string in proto3 JSON).
  uint64_t StaleRoutes(StrataSpeaker& strata) {
    return StrataSpeaker::Counter(strata.PeerStatus(link_->a_v4()), "stale_routes");
  }
  bool PeerRestarting(StrataSpeaker& strata) {
    return strata.PeerStatus(link_->a_v4()).value("peer_restarting", false);
  }
  // The peer is gone without a NOTIFICATION: Strata helps, its routes stay (stale) in the RIB
  // and at the third speaker.
  void ExpectHelping(StrataSpeaker& strata) {
    ASSERT_TRUE(PollUntil([&] { return PeerRestarting(strata); }, 20s))
        << strata.PeerStatus(link_->a_v4()).dump();
    // Counted here, not assumed to be 1: FRR resets a session that came up before its graceful
    // restart configuration was applied ("reset this peer to take effect"), on a loaded machine.
    transitions_before_restart_ =
        strata.PeerStatus(link_->a_v4()).value("established_transitions", 0u);
    EXPECT_EQ(StaleRoutes(strata), 2u);
    for (const char* prefix : {"10.1.0.0/24", "10.3.0.0/24"}) {
      EXPECT_TRUE(strata.RibRouteFor(prefix).has_value()) << prefix;
      EXPECT_TRUE(third_->FindRoute(prefix).has_value()) << prefix;
    }
  }
  // The peer is back with 10.1.0.0/24 only: its End-of-RIB ends the restart, 10.3.0.0/24 goes.
  void ExpectSweptAfterEndOfRib(StrataSpeaker& strata) {
    ASSERT_TRUE(strata.WaitEstablished(link_->a_v4())) << strata.Logs();
    ASSERT_TRUE(PollUntil([&] { return !PeerRestarting(strata) && StaleRoutes(strata) == 0; }, 30s))
        << strata.PeerStatus(link_->a_v4()).dump() << strata.Logs();
    EXPECT_TRUE(PollUntil([&] { return !strata.RibRouteFor("10.3.0.0/24").has_value(); }, 10s));
    EXPECT_TRUE(strata.RibRouteFor("10.1.0.0/24").has_value());
    EXPECT_TRUE(third_->WaitForRouteGone("10.3.0.0/24")) << third_->Logs();
    EXPECT_TRUE(third_->FindRoute("10.1.0.0/24").has_value());
    // One more session: the restarted peer's.
    EXPECT_EQ(strata.PeerStatus(link_->a_v4()).value("established_transitions", 0u),
              transitions_before_restart_ + 1);
    // Swept by the End-of-RIB, not flushed at the OPEN (as for a peer whose F bit is clear):
    // the routes stayed for the whole restart. Only strata-bgp's log tells the two apart.
    std::ifstream log(strata.dir() + "/bgp.log");
    const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("End-of-RIB: withdrawing 1 stale IPv4 routes"), std::string::npos);
    EXPECT_EQ(text.find("forwarding not kept: withdrawing 2 stale IPv4"), std::string::npos);
  }
  // The peer stays away longer than its 3 s restart time: its routes are withdrawn.
  void ExpectWithdrawnAfterRestartTime(StrataSpeaker& strata) {
    const auto gone = [&] {
      return !strata.RibRouteFor("10.1.0.0/24") && !strata.RibRouteFor("10.3.0.0/24");
    };
    ASSERT_TRUE(PollUntil(gone, 15s)) << strata.PeerStatus(link_->a_v4()).dump();
    EXPECT_FALSE(PeerRestarting(strata));
    EXPECT_EQ(StaleRoutes(strata), 0u);
    EXPECT_TRUE(third_->WaitForRouteGone("10.1.0.0/24"));
    EXPECT_TRUE(third_->WaitForRouteGone("10.3.0.0/24"));
  }
  SpeakerConfig PeerConfig(const std::string& name, uint32_t as, uint32_t restart_time) const {
    return SpeakerConfig{.name = name,
                         .local_as = as,
                         .router_id = "10.255.0.1",
                         .neighbors = {Neighbor{.address = link_->b_v4(),
                                                .remote_as = 65000,
                                                .local_address = link_->a_v4(),
                                                .graceful_restart = true,
                                                .graceful_restart_time = restart_time}},
                         .routes = {{.prefix = "10.1.0.0/24"}, {.prefix = "10.3.0.0/24"}}};
  }

  NetNs* bird_ns_ = nullptr;
  NetNs* strata_ns_ = nullptr;
  VethLink* link_ = nullptr;
  NetNs* third_ns_ = nullptr;
  VethLink* link2_ = nullptr;
  BirdSpeaker* third_ = nullptr;
};

TEST_F(GracefulRestartInteropTest, StrataRestartsWhileBirdHelps) {
  auto& bird = AddSpeaker<BirdSpeaker>(
      *bird_ns_, SpeakerConfig{.name = "bird",
                               .local_as = 65001,
                               .router_id = "10.255.0.1",
                               .neighbors = {Neighbor{.address = link_->b_v4(),
                                                      .remote_as = 65000,
                                                      .local_address = link_->a_v4(),
                                                      .graceful_restart = true}},
                               .routes = {{.prefix = "10.1.0.0/24"}}});
  ASSERT_OK(bird.Start());
  auto& strata = AddSpeaker<StrataSpeaker>(
      *strata_ns_,
      SpeakerConfig{
          .name = "strata",
          .local_as = 65000,
          .router_id = "10.255.0.10",
          .neighbors = {Neighbor{
              .address = link_->a_v4(), .remote_as = 65001, .local_address = link_->b_v4()}},
          .routes = {{.prefix = "10.9.0.0/24"}}},
      StrataBinariesFromEnv());
  ASSERT_OK(strata.Start());
  ASSERT_TRUE(strata.WaitEstablished(link_->a_v4()));
  ASSERT_TRUE(bird.WaitForRoute("10.9.0.0/24").has_value());
  ASSERT_TRUE(PollUntil([&] { return strata.RibRouteFor("10.1.0.0/24").has_value(); }, 20s));
  const auto peer = strata.PeerStatus(link_->a_v4());
  EXPECT_EQ(peer.value("graceful_restart", false), true) << peer.dump();
  EXPECT_EQ(peer.value("peer_restart_time", 0u), 120u) << peer.dump();  // BIRD's default

  strata.KillBgp();
  // BIRD sees the connection go without a NOTIFICATION and keeps Strata's route as stale.
  ASSERT_TRUE(PollUntil(
      [&] { return BirdProtocol(bird).find("graceful restart active") != std::string::npos; }, 20s))
      << BirdProtocol(bird);
  auto kept = bird.ReceivedRoutes();
  ASSERT_OK(kept.status());
  EXPECT_TRUE(std::any_of(kept->begin(), kept->end(),
                          [](const Route& r) { return r.prefix == "10.9.0.0/24"; }));
  // Strata's RIB keeps BIRD's route, stale.
  ASSERT_TRUE(PollUntil(
      [&] {
        auto r = strata.RibRouteFor("10.1.0.0/24");
        return r && r->stale;
      },
      10s));

  ASSERT_OK(strata.RestartBgp());
  ASSERT_TRUE(strata.WaitEstablished(link_->a_v4()));
  // Converged: BIRD's route fresh in the RIB, the restart over, BIRD's helper done.
  ASSERT_TRUE(PollUntil(
      [&] {
        auto r = strata.RibRouteFor("10.1.0.0/24");
        auto stats = strata.Call(strata.bgp_target() + "get_stats");
        return r && !r->stale && stats.ok() && !stats->value("graceful_restart_restarting", false);
      },
      30s))
      << strata.Logs();
  ASSERT_TRUE(PollUntil(
      [&] { return BirdProtocol(bird).find("graceful restart active") == std::string::npos; }, 20s))
      << BirdProtocol(bird);
  EXPECT_TRUE(bird.WaitForRoute("10.9.0.0/24").has_value());
  EXPECT_EQ(strata.PeerStatus(link_->a_v4()).value("established_transitions", 0u), 1u);
}

TEST_F(GracefulRestartInteropTest, StrataRestartsWhileFrrHelps) {
  RequireBinary("/usr/lib/frr/bgpd");
  if (IsSkipped()) return;
  auto& frr = AddSpeaker<FrrSpeaker>(
      *bird_ns_, SpeakerConfig{.name = "frr",
                               .local_as = 65002,
                               .router_id = "10.255.0.2",
                               .neighbors = {Neighbor{.address = link_->b_v4(),
                                                      .remote_as = 65000,
                                                      .local_address = link_->a_v4()}},
                               .routes = {{.prefix = "10.2.0.0/24"}}});
  ASSERT_OK(frr.Start());
  auto& strata = AddSpeaker<StrataSpeaker>(
      *strata_ns_,
      SpeakerConfig{
          .name = "strata",
          .local_as = 65000,
          .router_id = "10.255.0.10",
          .neighbors = {Neighbor{
              .address = link_->a_v4(), .remote_as = 65002, .local_address = link_->b_v4()}},
          .routes = {{.prefix = "10.9.0.0/24"}}},
      StrataBinariesFromEnv());
  ASSERT_OK(strata.Start());
  ASSERT_TRUE(strata.WaitEstablished(link_->a_v4()));
  ASSERT_TRUE(frr.WaitForRoute("10.9.0.0/24").has_value());
  ASSERT_TRUE(PollUntil([&] { return strata.RibRouteFor("10.2.0.0/24").has_value(); }, 20s));
  EXPECT_EQ(strata.PeerStatus(link_->a_v4()).value("graceful_restart", false), true);
  // FRR's path for Strata's route: `"stale":true` while Strata is away.
  auto frr_path = [&] {
    return RunCommand({"vtysh", "--vty_socket", frr.dir(), "-d", "bgpd", "-c",
                       "show bgp ipv4 unicast 10.9.0.0/24 json"},
                      5s)
        .output;
  };
  EXPECT_EQ(frr_path().find("\"stale\":true"), std::string::npos) << frr_path();

  strata.KillBgp();
  ASSERT_TRUE(
      PollUntil([&] { return frr_path().find("\"stale\":true") != std::string::npos; }, 20s))
      << frr_path();
  ASSERT_TRUE(PollUntil(
      [&] {
        auto r = strata.RibRouteFor("10.2.0.0/24");
        return r && r->stale;
      },
      10s));

  ASSERT_OK(strata.RestartBgp());
  ASSERT_TRUE(strata.WaitEstablished(link_->a_v4()));
  ASSERT_TRUE(PollUntil(
      [&] {
        auto r = strata.RibRouteFor("10.2.0.0/24");
        return r && !r->stale;
      },
      30s))
      << strata.Logs();
  ASSERT_TRUE(PollUntil(
      [&] {
        const std::string p = frr_path();
        return p.find("10.9.0.0/24") != std::string::npos &&
               p.find("\"stale\":true") == std::string::npos;
      },
      20s))
      << frr_path();
}

TEST_F(GracefulRestartInteropTest, RestartingPeerBirdKeepsRoutesUntilEndOfRib) {
  auto& bird = AddSpeaker<BirdSpeaker>(*bird_ns_, PeerConfig("bird", 65001, 30));
  auto& strata = StartHelperTopology(bird);
  ASSERT_FALSE(HasFailure()) << AllLogs();

  bird.Kill();
  ExpectHelping(strata);
  ASSERT_FALSE(HasFailure());
  ASSERT_OK(bird.RestartGracefully({{.prefix = "10.1.0.0/24"}}));
  ExpectSweptAfterEndOfRib(strata);
}

TEST_F(GracefulRestartInteropTest, RestartingPeerBirdThatStaysAwayLosesItsRoutes) {
  auto& bird = AddSpeaker<BirdSpeaker>(*bird_ns_, PeerConfig("bird", 65001, 3));
  auto& strata = StartHelperTopology(bird);
  ASSERT_FALSE(HasFailure()) << AllLogs();
  bird.Kill();
  ExpectHelping(strata);
  ExpectWithdrawnAfterRestartTime(strata);
}

TEST_F(GracefulRestartInteropTest, RestartingPeerFrrKeepsRoutesUntilEndOfRib) {
  RequireBinary("/usr/lib/frr/bgpd");
  if (IsSkipped()) return;
  auto& frr = AddSpeaker<FrrSpeaker>(*bird_ns_, PeerConfig("frr", 65002, 30));
  auto& strata = StartHelperTopology(frr);
  ASSERT_FALSE(HasFailure()) << AllLogs();

  frr.KillBgpd();
  ExpectHelping(strata);
  ASSERT_FALSE(HasFailure());
  ASSERT_OK(frr.RestartBgpd({{.prefix = "10.1.0.0/24"}}));
  ExpectSweptAfterEndOfRib(strata);
}

TEST_F(GracefulRestartInteropTest, RestartingPeerFrrThatStaysAwayLosesItsRoutes) {
  RequireBinary("/usr/lib/frr/bgpd");
  if (IsSkipped()) return;
  auto& frr = AddSpeaker<FrrSpeaker>(*bird_ns_, PeerConfig("frr", 65002, 3));
  auto& strata = StartHelperTopology(frr);
  ASSERT_FALSE(HasFailure()) << AllLogs();
  frr.KillBgpd();
  ExpectHelping(strata);
  ExpectWithdrawnAfterRestartTime(strata);
}

}  // namespace
}  // namespace strata::interop
