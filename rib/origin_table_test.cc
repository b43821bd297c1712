#include "rib/origin_table.h"

#include <gtest/gtest.h>

#include "testing/rib/recording_stage.h"
#include "testing/rib/rib_test_util.h"

namespace strata::rib {
namespace {

using test_util::A;
using test_util::P;
using test_util::Route;
using Strings = std::vector<std::string>;

class OriginTableTest : public ::testing::Test {
 protected:
  OriginTableTest() : table_("static", ProtocolKind::kIgp, 1, sched_, 2), rec_(&table_) {
    table_.set_next(&rec_);
  }
  TaskScheduler sched_;
  OriginTable table_;
  RecordingStage rec_;
};

TEST_F(OriginTableTest, AddReplaceDeleteGoDownstreamStamped) {
  ASSERT_TRUE(table_.add(Route("10.0.0.0/8", "192.0.2.1", 5)).ok());
  ASSERT_TRUE(table_.replace(Route("10.0.0.0/8", "192.0.2.2", 5)).ok());
  ASSERT_TRUE(table_.remove(P("10.0.0.0/8")).ok());
  EXPECT_EQ(rec_.EventStrings(), (Strings{"+10.0.0.0/8 static", "-10.0.0.0/8 static",
                                          "+10.0.0.0/8 static", "-10.0.0.0/8 static"}));
  const RibRoute& r = *rec_.events()[2].route;
  EXPECT_EQ(r.nexthop(), A("192.0.2.2"));
  EXPECT_EQ(r.admin_distance(), 1u);
  EXPECT_EQ(r.kind(), ProtocolKind::kIgp);
  EXPECT_TRUE(rec_.violations().empty());
  EXPECT_TRUE(rec_.CheckLookups().ok());
}

TEST_F(OriginTableTest, BadRequestsAreErrorValues) {
  EXPECT_EQ(table_.remove(P("10.0.0.0/8")).code(), StatusCode::kNotFound);
  EXPECT_EQ(table_.replace(Route("10.0.0.0/8", "192.0.2.1")).code(), StatusCode::kNotFound);
  EXPECT_EQ(table_.add(Route("10.0.0.0/8", "2001:db8::1")).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(table_.add(Route("10.0.0.0/8", "192.0.2.1")).ok());
  EXPECT_EQ(table_.add(Route("10.0.0.0/8", "192.0.2.1")).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(rec_.events().size(), 1u);
}

TEST_F(OriginTableTest, DeleteAllRunsInSlicesAndStaysConsistent) {
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(table_.add(Route("10.0." + std::to_string(i) + ".0/24", "192.0.2.1")).ok());
  }
  rec_.clear_events();
  table_.delete_all_routes();
  EXPECT_EQ(table_.size(), 0u);
  EXPECT_EQ(table_.deletion_stages(), 1u);
  EXPECT_TRUE(rec_.events().empty());  // nothing withdrawn yet; lookups still see the routes
  EXPECT_TRUE(rec_.CheckLookups().ok());
  sched_.run_slice();  // two routes per slice
  EXPECT_EQ(rec_.events().size(), 2u);
  // The protocol is back at once: a re-add of a held prefix first withdraws the held route.
  ASSERT_TRUE(table_.add(Route("10.0.9.0/24", "192.0.2.9")).ok());
  EXPECT_EQ(rec_.EventStrings().back(), "+10.0.9.0/24 static");
  // It flaps again: a second deletion stage is stacked above the first.
  table_.delete_all_routes();
  EXPECT_EQ(table_.deletion_stages(), 2u);
  EXPECT_TRUE(rec_.CheckLookups().ok());
  while (sched_.run_slice()) ASSERT_TRUE(rec_.CheckLookups().ok());
  EXPECT_EQ(table_.deletion_stages(), 0u);
  EXPECT_EQ(table_.next(), &rec_);  // unplumbed again
  EXPECT_EQ(rec_.parent(), &table_);
  EXPECT_TRUE(rec_.current().empty());
  EXPECT_TRUE(rec_.violations().empty());
}

TEST_F(OriginTableTest, AdminDistanceChangeRestampsInSlices) {
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(table_.add(Route("10.0." + std::to_string(i) + ".0/24", "192.0.2.1")).ok());
  }
  table_.set_admin_distance(7);
  ASSERT_TRUE(table_.add(Route("10.1.0.0/16", "192.0.2.1")).ok());
  EXPECT_EQ(table_.find(P("10.1.0.0/16"))->admin_distance(), 7u);  // new routes at once
  EXPECT_EQ(table_.find(P("10.0.4.0/24"))->admin_distance(), 1u);  // old ones in slices
  ASSERT_TRUE(table_.remove(P("10.0.3.0/24")).ok());               // under the background walk
  sched_.run_slice();
  EXPECT_TRUE(table_.busy());
  EXPECT_TRUE(rec_.CheckLookups().ok());
  sched_.run_until_idle();
  for (const auto& [p, r] : rec_.current()) EXPECT_EQ(r->admin_distance(), 7u) << p.ToString();
  EXPECT_EQ(rec_.current().size(), 5u);
  EXPECT_TRUE(rec_.violations().empty());
}

TEST_F(OriginTableTest, GracefulRestartSweepsRoutesNotAnnouncedAgain) {
  ASSERT_TRUE(table_.add(Route("10.0.0.0/24", "192.0.2.1")).ok());
  ASSERT_TRUE(table_.add(Route("10.0.1.0/24", "192.0.2.1")).ok());
  ASSERT_TRUE(table_.add(Route("10.0.2.0/24", "192.0.2.1")).ok());
  table_.mark_stale();
  EXPECT_EQ(table_.stale_count(), 3u);
  ASSERT_TRUE(table_.add(Route("10.0.1.0/24", "192.0.2.7")).ok());  // refreshed, not an error
  EXPECT_EQ(table_.add(Route("10.0.1.0/24", "192.0.2.7")).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(table_.sweep_stale(), 2u);
  sched_.run_until_idle();
  EXPECT_EQ(table_.size(), 1u);
  EXPECT_EQ(table_.stale_count(), 0u);
  ASSERT_EQ(rec_.current().size(), 1u);
  EXPECT_EQ(rec_.current(P("10.0.1.0/24"))->nexthop(), A("192.0.2.7"));
  EXPECT_TRUE(rec_.violations().empty());
}

}  // namespace
}  // namespace strata::rib
