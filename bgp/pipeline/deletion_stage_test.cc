// DeletionStage: background withdrawal in slices, re-adds of held prefixes, and flapping peers.
#include "bgp/pipeline/deletion_stage.h"

#include <gtest/gtest.h>

#include <list>

#include "testing/bgp/pipeline_test_util.h"
#include "testing/bgp/recording_stage.h"

namespace strata::bgp {
namespace {

using test_util::P;
using test_util::Peer;
using test_util::Route;

std::string Pfx(int i) {
  return "10." + std::to_string(i / 256) + "." + std::to_string(i % 256) + ".0/24";
}

// PeerIn -> [DeletionStage]* -> RecordingStage, with the owner's unplumbing as in BgpPipeline.
class DeletionStageTest : public ::testing::Test {
 protected:
  DeletionStageTest() : rec(&in) { in.set_next(&rec); }

  void Announce(int from, int to, int session) {
    for (int i = from; i < to; ++i) {
      in.announce(Route(Pfx(i), {.path = {65001, static_cast<uint32_t>(session)}}, peer));
    }
  }
  void GoDown() {
    auto stage = std::make_unique<DeletionStage>(
        "1", in.take_routes(), &in, scheduler, 10, [this](DeletionStage* done) {
          Unplumb(done->parent(), done);
          stages.remove_if([done](const auto& s) { return s.get() == done; });
        });
    PlumbAfter(&in, stage.get());
    stages.push_back(std::move(stage));
  }
  void Check() {
    EXPECT_TRUE(rec.violations().empty()) << rec.violations().front();
    EXPECT_TRUE(rec.CheckLookups().ok()) << rec.CheckLookups().ToString();
  }

  TaskScheduler scheduler;
  PeerRef peer = Peer(1, 65001, false, "10.0.0.1");
  PeerIn in{1};
  RecordingStage rec;
  std::list<std::unique_ptr<DeletionStage>> stages;
};

TEST_F(DeletionStageTest, WithdrawsInSlicesAndUnplumbs) {
  Announce(0, 35, 1);
  GoDown();
  EXPECT_EQ(in.size(), 0u);
  EXPECT_EQ(rec.current().size(), 35u);  // nothing sent yet
  Check();                               // lookups still answer from the held routes
  EXPECT_TRUE(scheduler.run_slice());
  EXPECT_EQ(rec.current().size(), 25u);
  EXPECT_EQ(stages.front()->remaining(), 25u);
  Check();
  scheduler.run_until_idle();
  EXPECT_TRUE(rec.current().empty());
  EXPECT_TRUE(stages.empty());
  EXPECT_EQ(in.next(), &rec);
  EXPECT_EQ(rec.parent(), &in);
  Check();
}

// The pipeline holds deletes while the fanout's readers are behind: a held slice
// withdraws nothing and stays scheduled; lookups keep answering the held routes.
TEST_F(DeletionStageTest, ThrottledSlicesWithdrawNothing) {
  Announce(0, 25, 1);
  GoDown();
  bool hold = true;
  stages.back()->set_throttle([&hold] { return hold; });
  EXPECT_TRUE(scheduler.run_slice());
  EXPECT_TRUE(scheduler.run_slice());
  EXPECT_EQ(rec.current().size(), 25u);
  EXPECT_EQ(stages.back()->held_slices(), 2u);
  Check();
  hold = false;
  EXPECT_TRUE(scheduler.run_slice());
  EXPECT_EQ(rec.current().size(), 15u);
  hold = true;
  EXPECT_TRUE(scheduler.run_slice());
  EXPECT_EQ(rec.current().size(), 15u);
  hold = false;
  scheduler.run_until_idle();
  EXPECT_TRUE(rec.current().empty());
  EXPECT_TRUE(stages.empty());
  Check();
}

TEST_F(DeletionStageTest, AddOfHeldPrefixSendsDeleteFirst) {
  Announce(0, 20, 1);
  GoDown();
  rec.clear_events();
  in.announce(Route(Pfx(19), {.path = {65001, 2}}, peer));
  ASSERT_EQ(rec.EventStrings(), (std::vector<std::string>{"-10.0.19.0/24 p1", "+10.0.19.0/24 p1"}));
  EXPECT_EQ(rec.events()[0].route->path().as_path->segments()[0].asns.back(), 1u);
  EXPECT_EQ(stages.front()->remaining(), 19u);
  Check();
  scheduler.run_until_idle();
  EXPECT_EQ(rec.current().size(), 1u);  // the new route stays
  Check();
}

TEST_F(DeletionStageTest, ThreeFlapsWhileSlicesPending) {
  Announce(0, 50, 1);
  GoDown();
  scheduler.run_slice();  // 10 of the first session's routes gone
  Announce(20, 45, 2);    // flushes 20..44 from the first stage
  GoDown();
  Check();
  Announce(40, 60, 3);
  GoDown();
  Announce(0, 5, 4);
  GoDown();  // four deletion stages stacked, one per flap
  EXPECT_EQ(stages.size(), 4u);
  Check();
  Announce(30, 33, 5);  // the peer is back once more, with routes held two stages down
  while (scheduler.run_slice()) Check();
  EXPECT_TRUE(stages.empty());
  EXPECT_EQ(in.next(), &rec);
  std::vector<std::string> left;
  for (const auto& [p, r] : rec.current()) left.push_back(p.ToString());
  EXPECT_EQ(left, (std::vector<std::string>{"10.0.30.0/24", "10.0.31.0/24", "10.0.32.0/24"}));
  Check();
}

}  // namespace
}  // namespace strata::bgp
