// Unit tests of PeerIn, InputFilterStage, DebugStage and DecisionStage against a RecordingStage.
#include <gtest/gtest.h>

#include "bgp/pipeline/debug_stage.h"
#include "bgp/pipeline/decision_stage.h"
#include "bgp/pipeline/input_filter_stage.h"
#include "bgp/pipeline/peer_in.h"
#include "testing/bgp/pipeline_test_util.h"
#include "testing/bgp/recording_stage.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::P;
using test_util::Peer;
using test_util::Route;
using V = std::vector<std::string>;

TEST(PeerInTest, AddReplaceWithdrawAndLookups) {
  PeerRef peer = Peer(1, 65001, false, "10.0.0.1");
  PeerIn in(1);
  RecordingStage rec(&in);
  in.set_next(&rec);
  auto r1 = Route("1.0.0.0/8", {.path = {65001}}, peer);
  auto r2 = Route("1.0.0.0/8", {.path = {65001, 2}}, peer);
  in.announce(r1);
  in.announce(Route("2.0.0.0/8", {.path = {65001}}, peer));
  in.announce(r2);
  EXPECT_EQ(in.lookup_route(P("1.0.0.0/8")), r2);
  EXPECT_TRUE(in.withdraw(P("2.0.0.0/8")));
  EXPECT_FALSE(in.withdraw(P("3.0.0.0/8")));
  EXPECT_EQ(rec.EventStrings(),
            (V{"+1.0.0.0/8 p1", "+2.0.0.0/8 p1", "=1.0.0.0/8 p1", "-2.0.0.0/8 p1"}));
  EXPECT_TRUE(rec.violations().empty());
  EXPECT_TRUE(rec.CheckLookups().ok());
  EXPECT_EQ(in.size(), 1u);
  RouteTable taken = in.take_routes();
  EXPECT_EQ(taken.size(), 1u);
  EXPECT_EQ(in.size(), 0u);
}

TEST(PeerInTest, PrefetchHintPassesDownAndChangesNothing) {
  PeerRef peer = Peer(1, 65001, false, "10.0.0.1");
  PeerIn in(1);
  RecordingStage rec(&in);
  in.set_next(&rec);
  in.announce(Route("1.0.0.0/8", {.path = {65001}}, peer));
  const std::vector<IpPrefix> hint{P("1.0.0.0/8"), P("2.0.0.0/8"), P("2001:db8::/32")};
  in.prefetch(hint);
  EXPECT_EQ(rec.prefetched(), hint);
  EXPECT_EQ(rec.EventStrings(), (V{"+1.0.0.0/8 p1"}));
  EXPECT_EQ(in.size(), 1u);
  EXPECT_TRUE(rec.CheckLookups().ok());
}

TEST(InputFilterStageTest, DropsAsLoopsAndOwnOriginatorId) {
  PeerRef peer = Peer(1, 65001, false, "10.0.0.1");
  PeerIn in(1);
  InputFilterStage filter(1, 65000, A("9.9.9.9"), 0x09090909, &in);
  RecordingStage rec(&filter);
  in.set_next(&filter);
  filter.set_next(&rec);
  in.announce(Route("1.0.0.0/8", {.path = {65001, 65000, 3}}, peer));
  in.announce(Route("2.0.0.0/8", {.path = {65001}, .originator_id = "9.9.9.9"}, peer));
  in.announce(Route("3.0.0.0/8", {.path = {65001}}, peer));
  EXPECT_EQ(rec.EventStrings(), (V{"+3.0.0.0/8 p1"}));
  EXPECT_EQ(filter.counters().as_loop, 1u);
  EXPECT_EQ(filter.counters().originator_id, 1u);
  EXPECT_EQ(filter.counters().accepted, 1u);
  // Deletes of dropped routes are dropped; a replace into a loop becomes a delete.
  in.withdraw(P("1.0.0.0/8"));
  in.announce(Route("3.0.0.0/8", {.path = {65001, 65000}}, peer));
  in.announce(Route("1.0.0.0/8", {.path = {65001}}, peer));
  EXPECT_EQ(rec.EventStrings(), (V{"+3.0.0.0/8 p1", "-3.0.0.0/8 p1", "+1.0.0.0/8 p1"}));
  EXPECT_TRUE(rec.violations().empty());
  EXPECT_TRUE(rec.CheckLookups().ok());
  EXPECT_EQ(filter.counters().accepted, 1u);
}

TEST(InputFilterStageTest, PolicyHookRejectsAndRewrites) {
  PeerRef peer = Peer(1, 65001, false, "10.0.0.1");
  PeerIn in(1);
  RoutePolicy policy = [](const BgpRouteRef& r) -> BgpRouteRef {
    if (r->prefix.len() > 24) return nullptr;
    PathAttributes a = r->path();
    a.local_pref = 300;
    return WithAttrs(*r, AttributeSet::Make(a));
  };
  InputFilterStage filter(1, 65000, A("9.9.9.9"), 0x09090909, &in, policy);
  RecordingStage rec(&filter);
  in.set_next(&filter);
  filter.set_next(&rec);
  in.announce(Route("1.0.0.0/8", {.path = {65001}}, peer));
  in.announce(Route("1.2.3.4/32", {.path = {65001}}, peer));
  ASSERT_EQ(rec.events().size(), 1u);
  EXPECT_EQ(rec.events()[0].route->path().local_pref, 300u);
  EXPECT_EQ(filter.counters().policy_rejected, 1u);
  in.withdraw(P("1.0.0.0/8"));  // recomputed route equals the added one
  EXPECT_TRUE(rec.violations().empty());
  EXPECT_TRUE(rec.CheckLookups().ok());
}

TEST(DebugStageTest, TracesAndCountsViolations) {
  PeerRef peer = Peer(1, 65001, false, "10.0.0.1");
  std::vector<std::string> lines;
  DebugStage dbg("here", nullptr, [&](std::string_view l) { lines.emplace_back(l); });
  RecordingStage rec(&dbg);
  dbg.set_next(&rec);
  auto r = Route("1.0.0.0/8", {.path = {65001}}, peer);
  dbg.add_route(r, nullptr);
  dbg.delete_route(r, nullptr);
  EXPECT_EQ(dbg.violations(), 0u);
  dbg.delete_route(r, nullptr);  // no matching add
  EXPECT_EQ(dbg.violations(), 1u);
  EXPECT_EQ(dbg.messages(), 3u);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].rfind("here add 1.0.0.0/8 from 10.0.0.1", 0), 0u);
  EXPECT_EQ(rec.events().size(), 3u);  // forwarded unchanged
}

class DecisionStageTest : public ::testing::Test {
 protected:
  DecisionStageTest() : rec(&decision) {
    for (int i = 0; i < 3; ++i) {
      peers[i] = Peer(i + 1, 65001 + i, false, "10.0.0." + std::to_string(i + 1));
      ins[i] = std::make_unique<PeerIn>(i + 1);
      ins[i]->set_next(&decision);
      decision.add_parent(ins[i].get());
    }
    decision.set_next(&rec);
  }
  void Check() {
    EXPECT_TRUE(rec.violations().empty());
    EXPECT_TRUE(rec.CheckLookups().ok()) << rec.CheckLookups().ToString();
  }
  DecisionStage decision;
  RecordingStage rec;
  PeerRef peers[3];
  std::unique_ptr<PeerIn> ins[3];
};

TEST_F(DecisionStageTest, PicksBestAcrossBranchesAndFallsBack) {
  ins[0]->announce(Route("1.0.0.0/8", {.path = {1, 2, 3}}, peers[0]));
  ins[1]->announce(Route("1.0.0.0/8", {.path = {1, 2}}, peers[1]));
  ins[2]->announce(Route("1.0.0.0/8", {.path = {1, 2, 3, 4}}, peers[2]));
  EXPECT_EQ(rec.EventStrings(), (V{"+1.0.0.0/8 p1", "=1.0.0.0/8 p2"}));
  auto why = decision.Explain(P("1.0.0.0/8"));
  ASSERT_TRUE(why);
  EXPECT_EQ(why->winner.route->peer->id, 2u);
  EXPECT_EQ(why->winner.reason, DecisionReason::kAsPathLength);
  EXPECT_EQ(why->candidates.size(), 3u);
  Check();
  ins[1]->withdraw(P("1.0.0.0/8"));  // winner goes: the next best from another branch
  EXPECT_EQ(rec.EventStrings().back(), "=1.0.0.0/8 p1");
  ins[0]->withdraw(P("1.0.0.0/8"));
  ins[2]->withdraw(P("1.0.0.0/8"));
  EXPECT_EQ(rec.EventStrings().back(), "-1.0.0.0/8 p3");
  EXPECT_FALSE(decision.Explain(P("1.0.0.0/8")));
  Check();
}

TEST_F(DecisionStageTest, PrefetchHintReachesTheNextStage) {
  const std::vector<IpPrefix> hint{P("1.0.0.0/8")};
  ins[1]->prefetch(hint);
  EXPECT_EQ(rec.prefetched(), hint);
  EXPECT_TRUE(rec.events().empty());
}

TEST_F(DecisionStageTest, LosingChangesSendNothing) {
  ins[0]->announce(Route("1.0.0.0/8", {.path = {1}, .local_pref = 200}, peers[0]));
  ins[1]->announce(Route("1.0.0.0/8", {.path = {1}}, peers[1]));
  ins[1]->announce(Route("1.0.0.0/8", {.path = {1, 5}}, peers[1]));
  ins[1]->withdraw(P("1.0.0.0/8"));
  EXPECT_EQ(rec.EventStrings(), (V{"+1.0.0.0/8 p1"}));
  EXPECT_EQ(decision.Explain(P("1.0.0.0/8"))->winner.reason, DecisionReason::kOnlyRoute);
  // The winner's own replace is passed on as a replace.
  ins[0]->announce(Route("1.0.0.0/8", {.path = {1, 9}, .local_pref = 200}, peers[0]));
  EXPECT_EQ(rec.EventStrings().back(), "=1.0.0.0/8 p1");
  Check();
}

TEST_F(DecisionStageTest, IgnoresUnusableRoutes) {
  auto r = NewRoute(*Route("1.0.0.0/8", {.path = {1}}, peers[0]));
  r->resolvable = false;
  ins[0]->announce(r);
  EXPECT_TRUE(rec.events().empty());
  ins[1]->announce(Route("1.0.0.0/8", {.path = {1, 2, 3}}, peers[1]));
  EXPECT_EQ(rec.EventStrings(), (V{"+1.0.0.0/8 p2"}));
  Check();
}

// A branch whose filter rewrites routes answers lookups with an equal route, not the object it
// sent: a losing change on another branch must not re-send the unchanged winner.
TEST(DecisionStageEqualRoutesTest, EqualWinnerFromALookupSendsNothing) {
  PeerRef p1 = Peer(1, 65001, false, "10.0.0.1");
  PeerRef p2 = Peer(2, 65002, false, "10.0.0.2");
  PeerIn in1(1);
  PeerIn in2(2);
  RoutePolicy prefer = [](const BgpRouteRef& r) -> BgpRouteRef {
    PathAttributes a = r->path();
    a.local_pref = 300;
    return WithAttrs(*r, AttributeSet::Make(a));
  };
  InputFilterStage filter(1, 65000, A("9.9.9.9"), 0x09090909, &in1, prefer);
  DecisionStage decision;
  RecordingStage rec(&decision);
  in1.set_next(&filter);
  filter.set_next(&decision);
  in2.set_next(&decision);
  decision.add_parent(&filter);
  decision.add_parent(&in2);
  decision.set_next(&rec);
  in1.announce(Route("1.0.0.0/8", {.path = {65001}}, p1));
  ASSERT_NE(filter.lookup_route(P("1.0.0.0/8")), rec.current(P("1.0.0.0/8")));  // equal, not same
  in2.announce(Route("1.0.0.0/8", {.path = {65002}}, p2));
  in2.announce(Route("1.0.0.0/8", {.path = {65002, 9}}, p2));
  in2.withdraw(P("1.0.0.0/8"));
  EXPECT_EQ(rec.EventStrings(), (V{"+1.0.0.0/8 p1"}));
  EXPECT_TRUE(rec.violations().empty());
  EXPECT_TRUE(rec.CheckLookups().ok()) << rec.CheckLookups().ToString();
}

}  // namespace
}  // namespace strata::bgp
