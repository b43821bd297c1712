// FanoutStage: one queue, a reader per branch, slow and fast readers, late-joiner dumps.
#include "bgp/pipeline/fanout_stage.h"

#include <gtest/gtest.h>

#include <set>

#include "bgp/pipeline/peer_in.h"
#include "testing/bgp/pipeline_test_util.h"
#include "testing/bgp/recording_stage.h"

namespace strata::bgp {
namespace {

using test_util::P;
using test_util::Peer;
using test_util::Route;

std::string Pfx(int i) { return "10.0." + std::to_string(i) + ".0/24"; }

class FanoutStageTest : public ::testing::Test {
 protected:
  FanoutStageTest() : fanout(scheduler, 4, &in, test_util::WalkOf(in)) { in.set_next(&fanout); }

  struct Branch {
    FanoutStage::Reader* reader = nullptr;
    std::unique_ptr<RecordingStage> rec;
    int flushes = 0;
  };
  std::unique_ptr<Branch> AddBranch(const std::string& name, bool dump, bool last = false) {
    auto b = std::make_unique<Branch>();
    Branch* raw = b.get();
    b->reader = fanout.add_reader(
        name,
        [this, raw, name] {
          ++raw->flushes;
          flush_order.push_back(name);
        },
        dump, last);
    b->rec = std::make_unique<RecordingStage>(b->reader);
    b->reader->set_next(b->rec.get());
    return b;
  }
  void Announce(int i, uint32_t tag) { in.announce(Route(Pfx(i), {.path = {65001, tag}}, peer)); }
  void Check(const Branch& b) {
    EXPECT_TRUE(b.rec->violations().empty()) << b.rec->violations().front();
    EXPECT_TRUE(b.rec->CheckLookups().ok()) << b.rec->CheckLookups().ToString();
  }
  // The reader saw exactly the fanout's current table.
  void ExpectSynced(const Branch& b) {
    EXPECT_EQ(b.rec->current().size(), fanout.table_size());
    for (const auto& [p, r] : b.rec->current()) EXPECT_EQ(fanout.lookup_route(p), r);
  }

  TaskScheduler scheduler;
  FanoutStage fanout;
  std::vector<std::string> flush_order;
  PeerRef peer = Peer(1, 65001, false, "10.0.0.1");
  PeerIn in{1};
};

TEST_F(FanoutStageTest, DeliveryHintsTheBranchesThatAskWithTheChangesOfTheirSlice) {
  auto a = AddBranch("a", false);
  auto b = AddBranch("b", false);
  auto c = AddBranch("c", false);  // no hints asked for
  a->reader->set_prefetch(true);
  b->reader->set_prefetch(true);
  fanout.pause(b->reader);
  for (int i = 0; i < 6; ++i) Announce(i, 1);
  EXPECT_TRUE(scheduler.run_slice());  // slices of 4 entries: the hint covers those 4
  EXPECT_EQ(a->rec->prefetched(),
            (std::vector<IpPrefix>{P(Pfx(0)), P(Pfx(1)), P(Pfx(2)), P(Pfx(3))}));
  EXPECT_TRUE(b->rec->prefetched().empty());  // paused: no hint
  scheduler.run_until_idle();
  EXPECT_EQ(a->rec->prefetched().size(), 6u);
  fanout.resume(b->reader);
  scheduler.run_until_idle();
  EXPECT_EQ(b->rec->prefetched().size(), 6u);
  EXPECT_TRUE(c->rec->prefetched().empty());
  ExpectSynced(*a);
  ExpectSynced(*b);
  Check(*a);
  Check(*b);
}

TEST_F(FanoutStageTest, SlowReaderHoldsNobodyBack) {
  auto fast = AddBranch("fast", false);
  auto slow = AddBranch("slow", false);
  fanout.pause(slow->reader);
  for (int i = 0; i < 10; ++i) Announce(i, 1);
  scheduler.run_until_idle();
  EXPECT_EQ(fast->rec->current().size(), 10u);
  EXPECT_TRUE(slow->rec->events().empty());
  EXPECT_EQ(fanout.queue_size(), 10u);  // kept for the slow reader only, no copies
  Check(*fast);
  Check(*slow);  // its lookups answer what it was sent: nothing yet
  for (int i = 0; i < 5; ++i) Announce(i, 2);
  in.withdraw(P(Pfx(9)));
  scheduler.run_until_idle();
  ExpectSynced(*fast);
  Check(*slow);
  fanout.resume(slow->reader);
  EXPECT_TRUE(scheduler.run_slice());  // slices of 4 entries
  EXPECT_EQ(slow->rec->events().size(), 4u);
  Check(*slow);
  scheduler.run_until_idle();
  ExpectSynced(*slow);
  EXPECT_EQ(fanout.queue_size(), 0u);  // freed once every reader passed
  EXPECT_GT(slow->flushes, 1);
  Check(*slow);
}

// A `last` reader (the RIB's) is served after every other, whenever the others were added: a
// peer's UPDATE does not wait for the RIB's IPC to be built.
TEST_F(FanoutStageTest, LastReaderIsServedAfterTheOthers) {
  auto rib = AddBranch("rib", false, /*last=*/true);
  auto a = AddBranch("a", false);
  auto b = AddBranch("b", false);
  Announce(1, 1);
  scheduler.run_until_idle();
  EXPECT_EQ(flush_order, (std::vector<std::string>{"a", "b", "rib"}));
  auto c = AddBranch("c", false);
  flush_order.clear();
  Announce(2, 1);
  scheduler.run_until_idle();
  EXPECT_EQ(flush_order, (std::vector<std::string>{"a", "b", "c", "rib"}));
  ExpectSynced(*rib);
  EXPECT_EQ(c->rec->current().size(), 1u);  // added without a dump, after 10.0.1/24
  Check(*c);
}

TEST_F(FanoutStageTest, LateJoinerGetsDumpAlongsideChanges) {
  auto first = AddBranch("first", false);
  for (int i = 0; i < 20; ++i) Announce(i, 1);
  scheduler.run_until_idle();
  auto late = AddBranch("late", true);
  EXPECT_TRUE(late->reader->dumping());
  EXPECT_EQ(late->rec->CheckLookups().ok(), true);
  scheduler.run_slice();  // dumps the first 4 prefixes
  EXPECT_EQ(late->rec->current().size(), 4u);
  // Changes on both sides of the dump's position.
  Announce(1, 2);           // already dumped: delivered as a replace
  Announce(15, 2);          // not yet dumped: skipped, the dump sends the new route
  in.withdraw(P(Pfx(16)));  // not yet dumped: never sent
  Announce(30, 2);          // new, beyond the dump
  Check(*late);
  while (scheduler.run_slice()) Check(*late);
  EXPECT_FALSE(late->reader->dumping());
  ExpectSynced(*late);
  ExpectSynced(*first);
  EXPECT_GT(late->reader->skipped(), 0u);
  for (const auto& e : late->rec->events()) {
    EXPECT_NE(e.route->prefix, P(Pfx(16))) << "withdrawn prefix was dumped";
  }
  Check(*late);
}

// A branch that lost what it was given (the RIB restarted) starts over: what it had queued is
// dropped, and it gets the current table by a dump, alongside the changes after it.
// The fanout keeps no table: a dump walks the prefixes upstream and sends each one's winner as
// the source answers it then; a walked prefix without one (a branch's route that is unusable or
// filtered out) sends nothing.
TEST_F(FanoutStageTest, DumpSendsTheSourcesWinnerOfEachWalkedPrefix) {
  const std::set<IpPrefix> walked{P(Pfx(0)), P(Pfx(1)), P(Pfx(2)), P(Pfx(3))};
  FanoutStage f(scheduler, 4, &in, [&walked](const std::optional<IpPrefix>& after) {
    auto it = after ? walked.upper_bound(*after) : walked.begin();
    return it == walked.end() ? std::nullopt : std::optional<IpPrefix>(*it);
  });
  in.set_next(&f);
  Announce(1, 1);
  Announce(3, 1);
  Announce(3, 2);  // the dump sends the newest
  EXPECT_EQ(f.table_size(), 2u);
  FanoutStage::Reader* reader = f.add_reader("late", nullptr, /*dump=*/true);
  RecordingStage rec(reader);
  reader->set_next(&rec);
  scheduler.run_until_idle();
  EXPECT_EQ(rec.EventStrings(), (std::vector<std::string>{"+10.0.1.0/24 p1", "+10.0.3.0/24 p1"}));
  EXPECT_EQ(rec.current(P(Pfx(3))), in.lookup_route(P(Pfx(3))));
  EXPECT_EQ(reader->delivered(), 2u);
  EXPECT_FALSE(reader->dumping());
  EXPECT_TRUE(rec.violations().empty());
  EXPECT_TRUE(rec.CheckLookups().ok()) << rec.CheckLookups().ToString();
  f.remove_reader(reader);
  in.set_next(&fanout);
}

TEST_F(FanoutStageTest, RestartedDumpSendsTheCurrentTableAgain) {
  auto b = AddBranch("b", false);
  for (int i = 0; i < 10; ++i) Announce(i, 1);
  scheduler.run_until_idle();
  fanout.pause(b->reader);
  Announce(3, 2);
  in.withdraw(P(Pfx(4)));
  EXPECT_EQ(fanout.queue_size(), 2u);
  // The branch forgets everything (a fresh recorder checks it only sees adds first).
  b->rec = std::make_unique<RecordingStage>(b->reader);
  b->reader->set_next(b->rec.get());
  fanout.restart_dump(b->reader);
  EXPECT_TRUE(b->reader->dumping());
  EXPECT_EQ(fanout.queue_size(), 0u);  // skipped: the dump sends the prefixes as they are now
  fanout.resume(b->reader);
  scheduler.run_slice();
  Announce(0, 3);  // already dumped: a replace
  Announce(9, 3);  // not yet: the dump sends the new route
  while (scheduler.run_slice()) Check(*b);
  EXPECT_FALSE(b->reader->dumping());
  ExpectSynced(*b);
  EXPECT_EQ(b->rec->current().size(), 9u);
  size_t adds = 0;
  for (const auto& e : b->rec->events()) adds += e.op == RecordingStage::Op::kAdd;
  EXPECT_EQ(adds, 9u);
  Check(*b);
}

// A reader with slack (the RIB's) counts for the backlogs only beyond it.
TEST_F(FanoutStageTest, SlackKeepsALaggingReaderOutOfTheBacklogs) {
  auto a = AddBranch("a", false);
  auto rib = AddBranch("rib", false, /*last=*/true);
  rib->reader->set_slack(3);
  fanout.pause(rib->reader);
  for (int i = 0; i < 5; ++i) Announce(i, 1);
  scheduler.run_until_idle();
  const auto now = std::chrono::steady_clock::now();
  EXPECT_EQ(fanout.queue_size(), 5u);        // the lag waits in the queue
  EXPECT_EQ(fanout.input_backlog(now), 2u);  // 5 behind, 3 of slack
  EXPECT_EQ(fanout.backlog(), 0u);           // paused: not counted
  fanout.resume(rib->reader);
  EXPECT_EQ(fanout.backlog(), 2u);
  scheduler.run_until_idle();
  EXPECT_EQ(fanout.input_backlog(now), 0u);
  EXPECT_EQ(fanout.queue_size(), 0u);
  ExpectSynced(*rib);
  ExpectSynced(*a);
}

TEST_F(FanoutStageTest, RemovedReaderFreesQueue) {
  auto a = AddBranch("a", false);
  auto b = AddBranch("b", false);
  fanout.pause(b->reader);
  for (int i = 0; i < 6; ++i) Announce(i, 1);
  scheduler.run_until_idle();
  EXPECT_EQ(fanout.queue_size(), 6u);
  fanout.remove_reader(b->reader);
  EXPECT_EQ(fanout.queue_size(), 0u);
  EXPECT_EQ(fanout.readers(), 1u);
  ExpectSynced(*a);
}

TEST_F(FanoutStageTest, ManyQueuedChangesOfOnePrefixAnswerPerReader) {
  auto a = AddBranch("a", false);
  auto b = AddBranch("b", false);
  fanout.pause(a->reader);
  fanout.pause(b->reader);
  // Prefix 0 changes six times (add, four replaces, delete), prefix 1 in between.
  for (uint32_t tag = 1; tag <= 5; ++tag) {
    Announce(0, tag);
    Announce(1, tag);
  }
  in.withdraw(P(Pfx(0)));
  EXPECT_EQ(fanout.queue_size(), 11u);
  fanout.resume(a->reader);
  // a passes the queue 4 entries a slice: at each step its lookups answer what it was sent,
  // b's (still paused) answer nothing.
  while (scheduler.run_slice()) {
    Check(*a);
    Check(*b);
    EXPECT_EQ(b->reader->lookup_route(P(Pfx(0))), nullptr);
  }
  ExpectSynced(*a);
  EXPECT_EQ(a->reader->lookup_route(P(Pfx(0))), nullptr);
  EXPECT_EQ(a->reader->lookup_route(P(Pfx(1))), fanout.lookup_route(P(Pfx(1))));
  EXPECT_EQ(fanout.queue_size(), 11u);  // b has passed nothing yet
  Announce(0, 9);                       // queued behind b's position too
  fanout.resume(b->reader);
  scheduler.run_slice();
  Check(*b);
  scheduler.run_until_idle();
  ExpectSynced(*a);
  ExpectSynced(*b);
  Check(*b);
  EXPECT_EQ(fanout.queue_size(), 0u);
  EXPECT_EQ(fanout.prefixes(), (std::vector<IpPrefix>{P(Pfx(0)), P(Pfx(1))}));
}

// The queue's per-prefix index is built by the first reader lookup and dropped when the queue
// drains: lookups stay right across changes queued before, while and after it exists.
TEST_F(FanoutStageTest, LookupsAnswerAcrossQueueIndexRebuilds) {
  auto a = AddBranch("a", false);
  auto b = AddBranch("b", false);
  for (int round = 0; round < 3; ++round) {
    fanout.pause(b->reader);
    const uint32_t base = 10 * static_cast<uint32_t>(round);
    Announce(0, base + 1);
    Announce(1, base + 1);
    Announce(0, base + 2);  // queued before any lookup: no index yet
    scheduler.run_until_idle();
    Check(*a);  // a's lookups build the index (b holds the queue)
    Check(*b);
    Announce(0, base + 3);  // queued while indexed
    in.withdraw(P(Pfx(1)));
    scheduler.run_until_idle();
    Check(*a);
    Check(*b);
    fanout.resume(b->reader);
    scheduler.run_slice();
    Check(*b);
    scheduler.run_until_idle();
    EXPECT_EQ(fanout.queue_size(), 0u);  // drained: the index goes with it
    Check(*b);
    ExpectSynced(*a);
    ExpectSynced(*b);
    EXPECT_EQ(fanout.prefixes(), (std::vector<IpPrefix>{P(Pfx(0))}));
  }
}

}  // namespace
}  // namespace strata::bgp

namespace strata::bgp {
namespace {

// Input flow control: a reader whose session just filled counts (the queue it holds is what
// the sessions must stop feeding); one paused for longer than stuck_after does not (a peer
// that does not read holds nobody back).
TEST_F(FanoutStageTest, InputBacklogCountsBrieflyPausedReadersOnly) {
  using std::chrono::seconds;
  auto fast = AddBranch("fast", false);
  auto slow = AddBranch("slow", false);
  fanout.set_stuck_after(seconds(1));
  const auto now = std::chrono::steady_clock::now();
  fanout.pause(slow->reader);
  for (int i = 0; i < 10; ++i) Announce(i, 1);
  scheduler.run_until_idle();
  EXPECT_EQ(fast->rec->current().size(), 10u);
  EXPECT_EQ(fanout.backlog(), 0u);                        // only readers not paused
  EXPECT_EQ(fanout.input_backlog(now), 10u);              // the slow reader paused just now
  EXPECT_EQ(fanout.input_backlog(now + seconds(5)), 0u);  // paused too long: not waited for
  fanout.resume(slow->reader);
  scheduler.run_until_idle();
  EXPECT_EQ(fanout.input_backlog(now + seconds(5)), 0u);
  EXPECT_EQ(slow->rec->current().size(), 10u);
  Check(*slow);
}

}  // namespace
}  // namespace strata::bgp
