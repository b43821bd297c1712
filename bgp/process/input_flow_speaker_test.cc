// Input flow control between two speakers: b's sessions stop reading while its fanout holds
// more than its high-water mark of changes, and every route still arrives.
#include "testing/bgp/bgp_speaker_test_fixture.h"

namespace strata::bgp::speaker_test {
namespace {

TEST_F(BgpSpeakerTest, SessionsPauseWhileTheFanoutIsFullAndEveryRouteArrives) {
  const uint16_t port = kPort + 70;
  for (const char* vr : {"a", "b"}) {
    env_.StartRib(vr);
    AddLoopbackIgp(vr);
  }
  StartBgp("a");
  BgpProcess& b = SpeakerPairTest::StartBgp("b", [](BgpProcess::Options& o) {
    o.input_high_water = 40;
    o.input_low_water = 10;
  });
  // a has the routes before the session comes up, so b gets them in a few full UPDATEs.
  ConfigureSide("a", port);
  constexpr int kRoutes = 1200;
  for (int i = 0; i < kRoutes; ++i) {
    ASSERT_TRUE(
        Network("a", "10." + std::to_string(i / 256) + "." + std::to_string(i % 256) + ".0/24")
            .ok());
  }
  ConfigureSide("b", port);
  ASSERT_TRUE(env_.RunUntil([&] { return PairEstablished(); }, 10s));
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b", "ebgp").size() == kRoutes; }, 20s))
      << RibTable("b", "ebgp").size();
  EXPECT_GT(b.speaker().input_pauses(), 0u);
  EXPECT_FALSE(b.speaker().input_paused());
  bpb::GetStatsReply stats;
  ASSERT_TRUE(Bgp("b", "get_stats", bpb::GetStatsRequest(), &stats).ok());
  EXPECT_EQ(stats.input_pauses(), b.speaker().input_pauses());
  EXPECT_FALSE(stats.input_paused());
  EXPECT_EQ(stats.fanout_queue(), 0u);
  EXPECT_EQ(PeerState("b", Addr("a")), "Established");
}

// A read's UPDATEs go through the pipeline and on to the RIB and the peers in the same turn of
// the loop (BgpSpeaker::input_done): the slice the read made due runs at its end, and the slice
// that was posted for it does not run a second one. Every route and withdrawal still arrives.
TEST_F(BgpSpeakerTest, TheSliceAReadMadeDueRunsAtItsEnd) {
  Pair(kPort + 71);
  constexpr int kRoutes = 250;
  for (int i = 0; i < kRoutes; ++i) {
    ASSERT_TRUE(Network("a", "10.7." + std::to_string(i) + ".0/24").ok());
    if (i % 50 == 0) env_.Run(5ms);  // several reads on b's side
  }
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b", "ebgp").size() == kRoutes; }, 20s))
      << RibTable("b", "ebgp").size();
  const uint64_t after_input = procs_.at("b")->speaker().slices_after_input();
  EXPECT_GT(after_input, 0u);
  for (int i = 0; i < kRoutes; ++i) {
    ASSERT_TRUE(Network("a", "10.7." + std::to_string(i) + ".0/24", false).ok());
  }
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b", "ebgp").empty(); }, 20s));
  EXPECT_GT(procs_.at("b")->speaker().slices_after_input(), after_input);
  EXPECT_TRUE(Best("b").empty());
  EXPECT_EQ(procs_.at("b")->speaker().background_tasks(), 0u);
}

}  // namespace
}  // namespace strata::bgp::speaker_test
