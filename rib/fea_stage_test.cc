#include "rib/fea_stage.h"

#include <gtest/gtest.h>

#include "rib/origin_table.h"
#include "rib/rib_test_util.h"

namespace strata::rib {
namespace {

using testing::A;
using testing::FakeFea;
using testing::P;
using testing::Route;

std::string Ops(const FeaBatch& b) {
  std::string s;
  for (const FeaChange& c : b.changes) {
    s += std::string(FeaOpName(c.op)) + " " + c.prefix.ToString() + ";";
  }
  return s;
}

class FeaStageTest : public ::testing::Test {
 protected:
  FeaStageTest()
      : table_("static", ProtocolKind::kIgp, 1, sched_),
        out_(&table_, fea_, sched_, FeaStage::Options{.max_batch = 3, .max_queue = 5}) {
    table_.set_next(&out_);
  }
  void Add(int i) {
    ASSERT_TRUE(table_.add(Route("10.0." + std::to_string(i) + ".0/24", "192.0.2.1")).ok());
  }
  TaskScheduler sched_;
  FakeFea fea_;
  OriginTable table_;
  FeaStage out_;
};

TEST_F(FeaStageTest, CoalescesAndBatches) {
  Add(1);
  ASSERT_TRUE(table_.replace(Route("10.0.1.0/24", "192.0.2.2")).ok());  // still an add
  Add(2);
  ASSERT_TRUE(table_.remove(P("10.0.2.0/24")).ok());  // cancels out
  out_.flush();
  ASSERT_EQ(fea_.batches.size(), 1u);
  EXPECT_EQ(Ops(fea_.batches[0]), "add 10.0.1.0/24;");
  EXPECT_EQ(fea_.table[P("10.0.1.0/24")]->nexthop, A("192.0.2.2"));
  ASSERT_TRUE(table_.replace(Route("10.0.1.0/24", "192.0.2.3")).ok());  // delete + add
  Add(3);
  Add(4);  // a full batch of three flushes by itself
  EXPECT_EQ(fea_.batches.size(), 2u);
  EXPECT_EQ(Ops(fea_.batches[1]), "replace 10.0.1.0/24;add 10.0.3.0/24;add 10.0.4.0/24;");
  EXPECT_TRUE(fea_.errors.empty());
  EXPECT_EQ(out_.queued(), 0u);
}

TEST_F(FeaStageTest, KeepsQueueWhileConsumerIsUnreachable) {
  fea_.up = false;
  Add(1);
  Add(2);
  out_.flush();
  EXPECT_EQ(out_.queued(), 2u);
  EXPECT_GE(out_.send_failures(), 1u);
  fea_.up = true;
  out_.flush();
  EXPECT_EQ(out_.queued(), 0u);
  EXPECT_EQ(fea_.table.size(), 2u);
  EXPECT_EQ(out_.sync_state(), FeaStage::SyncState::kInSync);
}

TEST_F(FeaStageTest, OverflowThenResyncWithFullTable) {
  fea_.up = false;
  for (int i = 0; i < 7; ++i) Add(i);  // more than max_queue
  EXPECT_EQ(out_.overflows(), 1u);
  EXPECT_EQ(out_.sync_state(), FeaStage::SyncState::kNeedResync);
  EXPECT_EQ(out_.queued(), 0u);
  fea_.up = true;
  out_.flush();
  EXPECT_EQ(out_.sync_state(), FeaStage::SyncState::kResyncing);
  sched_.run_slice();                                 // first dump batch: 10.0.0/24 .. 10.0.2/24
  ASSERT_TRUE(table_.remove(P("10.0.1.0/24")).ok());  // dumped already: queued
  ASSERT_TRUE(table_.remove(P("10.0.5.0/24")).ok());  // not yet: the dump skips it
  sched_.run_until_idle();
  EXPECT_EQ(out_.sync_state(), FeaStage::SyncState::kInSync);
  EXPECT_TRUE(fea_.batches.front().resync_start);
  EXPECT_TRUE(fea_.batches.back().resync_end);
  EXPECT_TRUE(fea_.errors.empty()) << fea_.errors.front();
  EXPECT_EQ(fea_.table.size(), 5u);
  EXPECT_FALSE(fea_.table.contains(P("10.0.1.0/24")));
}

TEST_F(FeaStageTest, ReconnectResendsEverything) {
  Add(1);
  Add(2);
  out_.flush();
  fea_.table.clear();  // the FEA restarted
  out_.consumer_reconnected();
  sched_.run_until_idle();
  EXPECT_EQ(out_.resyncs(), 1u);
  EXPECT_EQ(fea_.table.size(), 2u);
  EXPECT_TRUE(fea_.errors.empty());
}

TEST(FeaStageRefusalTest, RefusedConsumerIsNotRetriedPerRouteButOnTheNextFlush) {
  TaskScheduler sched;
  FakeFea fea;
  OriginTable table("static", ProtocolKind::kIgp, 1, sched);
  FeaStage out(&table, fea, sched, FeaStage::Options{.max_batch = 10, .max_queue = 1000});
  table.set_next(&out);
  fea.up = false;
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(
        table
            .add(Route("10." + std::to_string(i / 256) + "." + std::to_string(i % 256) + ".0/24",
                       "192.0.2.1"))
            .ok());
  }
  // One refused attempt when the first batch filled, not one per route after it.
  EXPECT_EQ(fea.attempts, 1u);
  EXPECT_EQ(out.queued(), 500u);
  out.flush();  // the owner's flush tries again (refused once more)
  EXPECT_EQ(fea.attempts, 2u);
  fea.up = true;
  out.flush();
  EXPECT_EQ(out.queued(), 0u);
  EXPECT_EQ(fea.table.size(), 500u);
  EXPECT_EQ(fea.batches.size(), 50u);
  // Accepted again: full batches go at once without waiting for a flush.
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(table.add(Route("11.0." + std::to_string(i) + ".0/24", "192.0.2.1")).ok());
  }
  EXPECT_EQ(fea.table.size(), 510u);
  EXPECT_TRUE(fea.errors.empty());
}

}  // namespace
}  // namespace strata::rib
