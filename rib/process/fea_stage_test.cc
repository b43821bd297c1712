#include "rib/fea_stage.h"

#include <gtest/gtest.h>

#include <boost/asio/post.hpp>
#include <chrono>
#include <memory>
#include <optional>

#include "libipc/run_until.h"
#include "rib/origin_table.h"
#include "rib/process/fea_client_consumer.h"
#include "rib/process/proto_convert.h"
#include "testing/finder/test_finder.h"
#include "testing/rib/fake_fea.h"
#include "testing/rib/rib_test_util.h"

namespace strata::rib {
namespace {

using test_util::A;
using test_util::FakeFea;
using test_util::P;
using test_util::Route;

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
  EXPECT_EQ(fea_.table[P("10.0.1.0/24")]->nexthop(), A("192.0.2.2"));
  ASSERT_TRUE(table_.replace(Route("10.0.1.0/24", "192.0.2.3")).ok());  // delete + add
  Add(3);
  Add(4);  // a full batch of three flushes by itself
  EXPECT_EQ(fea_.batches.size(), 2u);
  EXPECT_EQ(Ops(fea_.batches[1]), "replace 10.0.1.0/24;add 10.0.3.0/24;add 10.0.4.0/24;");
  EXPECT_TRUE(fea_.errors.empty());
  EXPECT_EQ(out_.queued(), 0u);
}

TEST_F(FeaStageTest, AReplaceIsNeverSplitAcrossBatches) {
  Add(1);
  out_.flush();
  ASSERT_EQ(fea_.batches.size(), 1u);
  Add(2);
  Add(3);
  // The delete half of this replace is the third change queued: a full batch, but the batch
  // waits for the add half (a batch between them would delete a route that stays).
  ASSERT_TRUE(table_.replace(Route("10.0.1.0/24", "192.0.2.9")).ok());
  ASSERT_EQ(fea_.batches.size(), 2u);
  EXPECT_EQ(Ops(fea_.batches[1]), "add 10.0.2.0/24;add 10.0.3.0/24;replace 10.0.1.0/24;");
  EXPECT_EQ(fea_.table[P("10.0.1.0/24")]->nexthop(), A("192.0.2.9"));
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

TEST_F(FeaStageTest, ARefusedDumpWaitsForTheConsumerNotForTheNextFlush) {
  fea_.up = false;
  for (int i = 0; i < 7; ++i) Add(i);  // more than max_queue: a resync is due
  fea_.up = true;
  out_.flush();  // the dump starts
  ASSERT_EQ(sched_.pending(), 1u);
  fea_.up = false;  // the consumer is busy: it refuses the first dump batch
  EXPECT_FALSE(sched_.run_slice());
  const size_t attempts = fea_.attempts;
  // The RIB process flushes after every slice: no new dump task per flush, no new attempt.
  for (int i = 0; i < 3; ++i) {
    out_.flush();
    EXPECT_EQ(sched_.pending(), 0u);
    EXPECT_FALSE(sched_.run_slice());
  }
  EXPECT_EQ(fea_.attempts, attempts);
  EXPECT_EQ(out_.sync_state(), FeaStage::SyncState::kResyncing);
  fea_.up = true;
  out_.consumer_drained();  // a reply came back
  out_.flush();
  EXPECT_EQ(sched_.pending(), 1u);
  sched_.run_until_idle();
  EXPECT_EQ(out_.sync_state(), FeaStage::SyncState::kInSync);
  EXPECT_EQ(fea_.table.size(), 7u);
  EXPECT_TRUE(fea_.errors.empty());
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

// The stage over IPC: FeaClientConsumer to rib::FakeFea, which refuses a route whose next hop is
// on no interface of the VR the way the real FEA does (whole batch, every such entry named).
class FeaStageOverIpcTest : public ::testing::Test {
 protected:
  using IpcFakeFea = rib::FakeFea;

  void SetUp() override {
    finder_ = std::make_unique<finder::TestFinder>(io_, "strata-fea-stage-test");
    ASSERT_TRUE(finder_->status().ok());
    fea_router_ = std::make_unique<ipc::Router>(io_);
    fea_ = std::make_unique<IpcFakeFea>(*fea_router_);
    fea_->refuse_unreachable = true;
    fea_->set_interface(Interface("192.0.2.1", 24));
    fea_router_->AddTarget("fea", "fea", true).Serve(*fea_);
    StartAndWait(*fea_router_);
    rib_router_ = std::make_unique<ipc::Router>(io_);
    rib_router_->AddTarget("rib", "rib.red", false);
    StartAndWait(*rib_router_);
    FeaClientConsumer::Options co;
    co.vr = "red";
    co.max_in_flight = 4;
    consumer_ = std::make_unique<FeaClientConsumer>(*rib_router_, co);
    table_ = std::make_unique<OriginTable>("static", ProtocolKind::kIgp, 1, sched_);
    stage_ = std::make_unique<FeaStage>(table_.get(), *consumer_, sched_,
                                        FeaStage::Options{.max_batch = 4, .max_queue = 100});
    table_->set_next(stage_.get());
    consumer_->set_on_ready([this] {
      stage_->consumer_reconnected();
      sched_.run_until_idle();
    });
    consumer_->set_on_drained([this] {
      stage_->consumer_drained();
      boost::asio::post(io_, [this] {
        if (stage_) stage_->flush();
      });
    });
    consumer_->fea_event(true);
    ASSERT_TRUE(RunUntil([&] { return fea_->end_resyncs == 1; }));
  }
  void TearDown() override {
    stage_.reset();
    table_.reset();
    consumer_.reset();
    rib_router_.reset();
    fea_router_.reset();
    fea_.reset();
    finder_.reset();
    io_.poll();
  }

  static fea::v1::Interface Interface(const std::string& addr, uint32_t len) {
    fea::v1::Interface ifc;
    ifc.set_name("eth0");
    ifc.set_up(true);
    ifc.set_vr("red");
    auto* a = ifc.add_addresses();
    ipc::AddrToProto(A(addr), a->mutable_address());
    a->mutable_prefix()->set_addr(a->address().addr());
    a->mutable_prefix()->set_len(len);
    return ifc;
  }
  template <typename Pred>
  bool RunUntil(Pred done) {
    return ipc::RunUntil(io_, done);
  }
  // Runs until nothing is in flight and the stage has nothing queued.
  bool Settle() {
    return RunUntil([&] { return consumer_->in_flight() == 0 && stage_->queued() == 0; });
  }
  void StartAndWait(ipc::Router& r) {
    std::optional<Status> started;
    r.Start([&](const Status& s) { started = s; });
    ASSERT_TRUE(RunUntil([&] { return started.has_value(); }));
    ASSERT_TRUE(started->ok()) << started->ToString();
  }
  void Add(const std::string& prefix, const std::string& nexthop) {
    ASSERT_TRUE(table_->add(Route(prefix, nexthop)).ok());
  }
  bool InFea(const std::string& prefix) { return fea_->routes["red"].contains(P(prefix)); }

  boost::asio::io_context io_{1};
  std::unique_ptr<finder::TestFinder> finder_;
  std::unique_ptr<ipc::Router> fea_router_;
  std::unique_ptr<IpcFakeFea> fea_;
  std::unique_ptr<ipc::Router> rib_router_;
  std::unique_ptr<FeaClientConsumer> consumer_;
  TaskScheduler sched_;
  std::unique_ptr<OriginTable> table_;
  std::unique_ptr<FeaStage> stage_;
};

TEST_F(FeaStageOverIpcTest, RefusedEntriesAreLeftOutAndTheRestOfTheBatchGoesAtOnce) {
  const size_t applies = fea_->apply_calls;
  Add("10.0.1.0/24", "192.0.2.2");
  Add("10.0.2.0/24", "198.51.100.1");  // on no interface of the VR
  Add("10.0.3.0/24", "192.0.2.3");
  Add("10.0.4.0/24", "203.0.113.1");  // neither; a full batch of four goes by itself
  ASSERT_TRUE(Settle());
  EXPECT_TRUE(InFea("10.0.1.0/24"));
  EXPECT_TRUE(InFea("10.0.3.0/24"));
  EXPECT_FALSE(InFea("10.0.2.0/24"));
  EXPECT_FALSE(InFea("10.0.4.0/24"));
  // Both refusals are named in one answer: one batch refused, one sent again.
  EXPECT_EQ(fea_->apply_calls, applies + 2);
  EXPECT_EQ(fea_->refused_batches, 1u);
  EXPECT_EQ(consumer_->batches_resent(), 1u);
  EXPECT_EQ(consumer_->routes_refused(), 2u);
  EXPECT_EQ(consumer_->batches_rejected(), 0u);
  EXPECT_EQ(stage_->routes_refused(), 2u);
  EXPECT_EQ(stage_->refused(), 2u);
  EXPECT_EQ(fea_->bad_changes, 0u);
  // The FEA's reason is kept for `show route` (not installed, and why).
  const std::string* why = stage_->refusal(P("10.0.2.0/24"));
  ASSERT_NE(why, nullptr);
  EXPECT_NE(why->find("198.51.100.1"), std::string::npos) << *why;
  EXPECT_EQ(stage_->refusal(P("10.0.1.0/24")), nullptr);
}

TEST_F(FeaStageOverIpcTest, ReofferSendsOnlyTheRefusedRoutesWithTheirCurrentState) {
  Add("10.0.1.0/24", "192.0.2.2");
  Add("10.0.2.0/24", "198.51.100.1");
  Add("10.0.3.0/24", "198.51.100.2");
  stage_->flush();
  ASSERT_TRUE(Settle());
  ASSERT_EQ(stage_->refused(), 2u);
  ASSERT_TRUE(table_->remove(P("10.0.3.0/24")).ok());  // gone meanwhile: not re-offered
  stage_->flush();
  ASSERT_TRUE(Settle());
  EXPECT_EQ(stage_->refused(), 1u);

  fea::v1::Interface eth0 = Interface("192.0.2.1", 24);
  *eth0.add_addresses() = Interface("198.51.100.9", 24).addresses(0);
  fea_->set_interface(eth0);
  const size_t changes = fea_->changes;
  stage_->reoffer_refused();
  ASSERT_TRUE(Settle());
  EXPECT_TRUE(InFea("10.0.2.0/24"));
  EXPECT_EQ(fea_->changes, changes + 1);  // only the refused route went again
  EXPECT_EQ(fea_->begin_resyncs, 1u);     // no resync of the table
  EXPECT_EQ(stage_->refused(), 0u);
}

TEST_F(FeaStageOverIpcTest, AChangeSentLaterWinsOverTheResentRestOfARefusedBatch) {
  Add("10.0.5.0/24", "192.0.2.5");
  stage_->flush();
  ASSERT_TRUE(Settle());
  // Batch 1 (in flight): a refused route and a replace of 10.0.5.0/24. Batch 2, sent before
  // batch 1 is answered, deletes 10.0.5.0/24: the resent part of batch 1 must not bring it back.
  Add("10.0.1.0/24", "198.51.100.1");
  ASSERT_TRUE(table_->replace(Route("10.0.5.0/24", "192.0.2.6")).ok());
  stage_->flush();
  ASSERT_TRUE(table_->remove(P("10.0.5.0/24")).ok());
  Add("10.0.6.0/24", "192.0.2.6");
  stage_->flush();
  ASSERT_EQ(consumer_->in_flight(), 2u);
  ASSERT_TRUE(Settle());
  EXPECT_FALSE(InFea("10.0.5.0/24"));
  EXPECT_TRUE(InFea("10.0.6.0/24"));
  EXPECT_FALSE(InFea("10.0.1.0/24"));
  EXPECT_EQ(stage_->refused(), 1u);
  // A refused route deleted upstream no longer waits for a re-offer.
  ASSERT_TRUE(table_->remove(P("10.0.1.0/24")).ok());
  EXPECT_EQ(stage_->refused(), 0u);
}

TEST_F(FeaStageOverIpcTest, EndResyncWaitsForTheResentPartOfTheLastBatch) {
  Add("10.0.1.0/24", "192.0.2.2");
  Add("10.0.2.0/24", "198.51.100.1");
  stage_->flush();
  ASSERT_TRUE(Settle());
  const size_t ends = fea_->end_resyncs;
  fea_->calls.clear();
  consumer_->fea_event(true);  // a new FEA incarnation: the table goes again as a resync
  ASSERT_TRUE(RunUntil([&] { return fea_->end_resyncs == ends + 1; }));
  ASSERT_TRUE(Settle());
  // begin, the refused batch, its resent rest, and only then end.
  EXPECT_EQ(fea_->calls, (std::vector<std::string>{"add_vr", "begin_resync", "apply_routes",
                                                   "apply_routes", "end_resync"}));
  EXPECT_TRUE(InFea("10.0.1.0/24"));
  EXPECT_FALSE(InFea("10.0.2.0/24"));
  EXPECT_EQ(stage_->refused(), 1u);
}

}  // namespace
}  // namespace strata::rib
