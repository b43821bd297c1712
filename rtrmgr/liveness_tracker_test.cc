#include "rtrmgr/liveness_tracker.h"

#include <gtest/gtest.h>

namespace strata::rtrmgr {
namespace {

using namespace std::chrono_literals;
using Strings = std::vector<std::string>;

class LivenessTrackerTest : public ::testing::Test {
 protected:
  LivenessTracker::TimePoint at(std::chrono::milliseconds ms) const { return t0_ + ms; }
  const LivenessTracker::TimePoint t0_{};
  LivenessTracker tracker_{{.interval = 1000ms, .timeout = 3000ms}};
};

TEST_F(LivenessTrackerTest, PingsEveryIntervalWhileAnswered) {
  tracker_.Watch("rib.red", at(0ms));
  EXPECT_EQ(tracker_.DuePings(at(999ms)), Strings{});
  EXPECT_EQ(tracker_.NextDeadline(at(0ms)), at(1000ms));
  EXPECT_EQ(tracker_.DuePings(at(1000ms)), Strings{"rib.red"});
  EXPECT_EQ(tracker_.DuePings(at(1500ms)), Strings{}) << "one ping outstanding at most";
  EXPECT_EQ(tracker_.NextDeadline(at(1500ms)), at(4000ms)) << "its timeout";
  tracker_.Answered("rib.red", at(1200ms));
  EXPECT_EQ(tracker_.NextDeadline(at(1200ms)), at(2200ms));
  EXPECT_EQ(tracker_.DuePings(at(2200ms)), Strings{"rib.red"});
  tracker_.Answered("rib.red", at(2300ms));
  EXPECT_EQ(tracker_.Hung(at(60000ms)), Strings{}) << "no ping outstanding";
}

TEST_F(LivenessTrackerTest, UnansweredForTheTimeoutIsHungAndNoLongerWatched) {
  tracker_.Watch("bgp.red", at(0ms));
  ASSERT_EQ(tracker_.DuePings(at(1000ms)), Strings{"bgp.red"});
  EXPECT_EQ(tracker_.Hung(at(3999ms)), Strings{});
  EXPECT_EQ(tracker_.Hung(at(4000ms)), Strings{"bgp.red"});
  EXPECT_FALSE(tracker_.watched("bgp.red"));
  EXPECT_EQ(tracker_.NextDeadline(at(4000ms)), std::nullopt);
  // Registered again after its restart: watched afresh.
  tracker_.Watch("bgp.red", at(5000ms));
  EXPECT_EQ(tracker_.DuePings(at(6000ms)), Strings{"bgp.red"});
}

TEST_F(LivenessTrackerTest, AnErrorAnswerIsNotAHang) {
  tracker_.Watch("fea", at(0ms));
  ASSERT_EQ(tracker_.DuePings(at(1000ms)), Strings{"fea"});
  tracker_.Answered("fea", at(1001ms));  // e.g. UNAVAILABLE: it died; the supervisor sees that
  EXPECT_EQ(tracker_.Hung(at(9000ms)), Strings{});
}

TEST_F(LivenessTrackerTest, WhileTheFinderIsHungOnlyTheFinderIs) {
  tracker_.Watch("finder", at(0ms));
  tracker_.Watch("rib.red", at(0ms));
  ASSERT_EQ(tracker_.DuePings(at(1000ms)), (Strings{"finder", "rib.red"}));
  // Neither answers: the RIB's ping may be waiting for the Finder's resolution.
  EXPECT_EQ(tracker_.Hung(at(4000ms)), Strings{"finder"});
  EXPECT_TRUE(tracker_.watched("rib.red"));
  // The RIB's ping is asked again later, and unanswered with the Finder gone counts.
  EXPECT_EQ(tracker_.DuePings(at(4999ms)), Strings{});
  ASSERT_EQ(tracker_.DuePings(at(5000ms)), Strings{"rib.red"});
  EXPECT_EQ(tracker_.Hung(at(8000ms)), Strings{"rib.red"});
}

TEST_F(LivenessTrackerTest, AProcessIsHungOnceTheFinderAnsweredAfterItsPing) {
  tracker_.Watch("finder", at(0ms));
  tracker_.Watch("rib.red", at(500ms));
  ASSERT_EQ(tracker_.DuePings(at(1000ms)), Strings{"finder"});
  tracker_.Answered("finder", at(1010ms));
  ASSERT_EQ(tracker_.DuePings(at(1500ms)), Strings{"rib.red"});
  // Overdue at 4500, but the Finder has not answered since: not proven, and no busy deadline.
  EXPECT_EQ(tracker_.Hung(at(4500ms)), Strings{});
  EXPECT_EQ(tracker_.NextDeadline(at(4500ms)), at(2010ms)) << "the Finder's next ping";
  ASSERT_EQ(tracker_.DuePings(at(4500ms)), Strings{"finder"});
  tracker_.Answered("finder", at(4510ms));
  EXPECT_EQ(tracker_.Hung(at(4510ms)), Strings{"rib.red"});
}

}  // namespace
}  // namespace strata::rtrmgr
