#include "rib/merge_stage.h"

#include <gtest/gtest.h>

#include "rib/origin_table.h"
#include "testing/rib/recording_stage.h"
#include "testing/rib/rib_test_util.h"

namespace strata::rib {
namespace {

using test_util::A;
using test_util::P;
using test_util::Route;
using Strings = std::vector<std::string>;

class MergeStageTest : public ::testing::Test {
 protected:
  MergeStageTest()
      : ospf_("ospf", ProtocolKind::kIgp, 110, sched_, 3),
        rip_("rip", ProtocolKind::kIgp, 120, sched_, 3),
        merge_("merge", &ospf_, &rip_),
        rec_(&merge_) {
    ospf_.set_next(&merge_);
    rip_.set_next(&merge_);
    merge_.set_next(&rec_);
  }
  TaskScheduler sched_;
  OriginTable ospf_;
  OriginTable rip_;
  MergeStage merge_;
  RecordingStage rec_;
};

TEST_F(MergeStageTest, LowerAdminDistanceWinsAndLoserIsRevealedOnDelete) {
  ASSERT_TRUE(rip_.add(Route("10.0.0.0/8", "192.0.2.2")).ok());
  ASSERT_TRUE(ospf_.add(Route("10.0.0.0/8", "192.0.2.1")).ok());
  ASSERT_TRUE(rip_.remove(P("10.0.0.0/8")).ok());  // the loser goes: nothing downstream
  ASSERT_TRUE(rip_.add(Route("10.0.0.0/8", "192.0.2.2")).ok());
  ASSERT_TRUE(ospf_.remove(P("10.0.0.0/8")).ok());
  EXPECT_EQ(rec_.EventStrings(), (Strings{"+10.0.0.0/8 rip", "-10.0.0.0/8 rip", "+10.0.0.0/8 ospf",
                                          "-10.0.0.0/8 ospf", "+10.0.0.0/8 rip"}));
  EXPECT_TRUE(rec_.violations().empty());
  EXPECT_TRUE(rec_.CheckLookups().ok());
}

TEST_F(MergeStageTest, EqualDistanceTieBrokenByMetric) {
  rip_.set_admin_distance(110);
  ASSERT_TRUE(ospf_.add(Route("10.0.0.0/8", "192.0.2.1", 20)).ok());
  ASSERT_TRUE(rip_.add(Route("10.0.0.0/8", "192.0.2.2", 10)).ok());
  EXPECT_EQ(merge_.lookup_route(P("10.0.0.0/8"))->protocol(), "rip");
  ASSERT_TRUE(rip_.replace(Route("10.0.0.0/8", "192.0.2.2", 30)).ok());
  EXPECT_EQ(rec_.current(P("10.0.0.0/8"))->protocol(), "ospf");
  EXPECT_TRUE(rec_.violations().empty());
  EXPECT_TRUE(rec_.CheckLookups().ok());
}

TEST(MergeStageTieTest, FullTieIsWonByParentAWhicheverArrivesFirst) {
  // Two tables of one protocol name (a removed table still withdrawing, and its successor).
  TaskScheduler sched;
  OriginTable old_table("ebgp2", ProtocolKind::kEgp, 30, sched);
  OriginTable new_table("ebgp2", ProtocolKind::kEgp, 30, sched);
  MergeStage merge("merge", &old_table, &new_table);
  RecordingStage rec(&merge);
  old_table.set_next(&merge);
  new_table.set_next(&merge);
  merge.set_next(&rec);
  ASSERT_TRUE(old_table.add(Route("10.0.0.0/8", "192.0.2.1")).ok());
  ASSERT_TRUE(new_table.add(Route("10.0.0.0/8", "192.0.2.2")).ok());  // ties: a keeps it
  ASSERT_TRUE(old_table.remove(P("10.0.0.0/8")).ok());                // b's is revealed
  ASSERT_EQ(rec.current(P("10.0.0.0/8")), new_table.find(P("10.0.0.0/8")));
  ASSERT_TRUE(new_table.add(Route("11.0.0.0/8", "192.0.2.2")).ok());
  ASSERT_TRUE(old_table.add(Route("11.0.0.0/8", "192.0.2.1")).ok());  // a takes over the tie
  EXPECT_EQ(rec.current(P("11.0.0.0/8")), old_table.find(P("11.0.0.0/8")));
  ASSERT_TRUE(new_table.remove(P("11.0.0.0/8")).ok());  // the loser: no change
  EXPECT_EQ(rec.current(P("11.0.0.0/8")), old_table.find(P("11.0.0.0/8")));
  ASSERT_TRUE(old_table.remove(P("11.0.0.0/8")).ok());
  EXPECT_EQ(rec.current(P("11.0.0.0/8")), nullptr);
  EXPECT_EQ(rec.events().size(), 7u);
  EXPECT_TRUE(rec.violations().empty());
  EXPECT_TRUE(rec.CheckLookups().ok());
}

TEST_F(MergeStageTest, LookupsCombineBothParents) {
  ASSERT_TRUE(ospf_.add(Route("10.0.0.0/8", "192.0.2.1")).ok());
  ASSERT_TRUE(rip_.add(Route("10.1.0.0/16", "192.0.2.2")).ok());
  EXPECT_EQ(merge_.lookup_best(A("10.1.2.3"))->protocol(), "rip");
  EXPECT_EQ(merge_.lookup_best(A("10.2.2.3"))->protocol(), "ospf");
  RouteRange r = merge_.lookup_range(A("10.2.2.3"));
  EXPECT_EQ(r.route->prefix, P("10.0.0.0/8"));
  EXPECT_EQ(r.valid, P("10.2.0.0/15"));  // 10.1.0.0/16 overlays 10.0.0.0/15
}

TEST_F(MergeStageTest, AdminDistanceChangeReMergesInSlices) {
  for (int i = 0; i < 20; ++i) {
    const std::string p = "10.0." + std::to_string(i) + ".0/24";
    ASSERT_TRUE(ospf_.add(Route(p, "192.0.2.1")).ok());
    ASSERT_TRUE(rip_.add(Route(p, "192.0.2.2")).ok());
  }
  rip_.set_admin_distance(100);
  while (sched_.run_slice()) ASSERT_TRUE(rec_.CheckLookups().ok());
  EXPECT_EQ(sched_.slices_run(), 7u);  // 20 routes, 3 per slice
  for (const auto& [p, r] : rec_.current()) EXPECT_EQ(r->protocol(), "rip");
  EXPECT_EQ(rec_.current().size(), 20u);
  EXPECT_TRUE(rec_.violations().empty());
}

}  // namespace
}  // namespace strata::rib
