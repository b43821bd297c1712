// Long-lived graceful restart (RFC 9494) with BIRD, Strata as helper:
//
//   BIRD (AS 65001, 10.200.1.1, GR restart time 1 s, LLGR stale time 4 s) --link 1-- Strata
//   (AS 65000, .2, long-lived-stale-time 60)
//
// Both negotiate LLGR (BIRD 2's `long lived graceful restart on`). BIRD is SIGKILLed (no
// NOTIFICATION): Strata keeps its route through the 1 s restart time, then marked LLGR_STALE
// (65535:6) for BIRD's 4 s long-lived stale time (smaller than Strata's 60 s), and withdraws it
// from its RIB when that ends.
// Binaries: $STRATA_BIN_DIR (strata-bgp from $STRATA_BGP_BIN when set).
#include <gtest/gtest.h>

#include <algorithm>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;

class LlgrInteropTest : public InteropTest {
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
  NetNs* bird_ns_ = nullptr;
  NetNs* strata_ns_ = nullptr;
  VethLink* link_ = nullptr;
};

TEST_F(LlgrInteropTest, StrataKeepsBirdsRoutesLlgrStaleThenWithdrawsThem) {
  auto& bird = AddSpeaker<BirdSpeaker>(
      *bird_ns_, SpeakerConfig{.name = "bird",
                               .local_as = 65001,
                               .router_id = "10.255.0.1",
                               .neighbors = {Neighbor{.address = link_->b_v4(),
                                                      .remote_as = 65000,
                                                      .local_address = link_->a_v4(),
                                                      .graceful_restart = true,
                                                      .graceful_restart_time = 1,
                                                      .long_lived_stale_time = 4}},
                               .routes = {{.prefix = "10.1.0.0/24"}}});
  ASSERT_OK(bird.Start());
  auto& strata =
      AddSpeaker<StrataSpeaker>(*strata_ns_,
                                SpeakerConfig{.name = "strata",
                                              .local_as = 65000,
                                              .router_id = "10.255.0.10",
                                              .neighbors = {Neighbor{.address = link_->a_v4(),
                                                                     .remote_as = 65001,
                                                                     .local_address = link_->b_v4(),
                                                                     .long_lived_stale_time = 60}}},
                                StrataBinariesFromEnv());
  ASSERT_OK(strata.Start());
  ASSERT_TRUE(strata.WaitEstablished(link_->a_v4()));
  ASSERT_TRUE(PollUntil([&] { return strata.RibRouteFor("10.1.0.0/24").has_value(); }, 20s));
  auto peer = strata.PeerStatus(link_->a_v4());
  EXPECT_EQ(peer.value("long_lived_graceful_restart", false), true) << peer.dump();
  EXPECT_EQ(peer.value("peer_restart_time", 0u), 1u) << peer.dump();

  bird.Kill();
  // After BIRD's 1 s restart time: kept, LLGR-stale, still in the RIB.
  ASSERT_TRUE(PollUntil(
      [&] {
        return StrataSpeaker::Counter(strata.PeerStatus(link_->a_v4()), "llgr_stale_routes") == 1;
      },
      10s))
      << strata.PeerStatus(link_->a_v4()).dump() << strata.Logs();
  auto routes = strata.ReceivedRoutes();
  ASSERT_OK(routes.status());
  ASSERT_EQ(routes->size(), 1u);
  EXPECT_EQ(routes->front().prefix, "10.1.0.0/24");
  EXPECT_NE(
      std::find(routes->front().communities.begin(), routes->front().communities.end(), "65535:6"),
      routes->front().communities.end());
  EXPECT_TRUE(strata.RibRouteFor("10.1.0.0/24").has_value());
  peer = strata.PeerStatus(link_->a_v4());
  // list_peers prints every field (an unset one as 0): a timer runs, with at most 4 s left.
  EXPECT_GE(StrataSpeaker::Counter(peer, "llgr_time_left"), 1u) << peer.dump();
  EXPECT_LE(StrataSpeaker::Counter(peer, "llgr_time_left"), 4u) << peer.dump();

  // BIRD's 4 s long-lived stale time ends: withdrawn.
  ASSERT_TRUE(PollUntil([&] { return !strata.RibRouteFor("10.1.0.0/24").has_value(); }, 15s))
      << strata.Logs();
  peer = strata.PeerStatus(link_->a_v4());
  EXPECT_EQ(StrataSpeaker::Counter(peer, "llgr_stale_routes"), 0u) << peer.dump();
  EXPECT_EQ(StrataSpeaker::Counter(peer, "stale_routes"), 0u) << peer.dump();
  EXPECT_EQ(StrataSpeaker::Counter(peer, "llgr_time_left"), 0u) << peer.dump();  // no timer runs
}

}  // namespace
}  // namespace strata::interop
