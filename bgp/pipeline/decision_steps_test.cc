#include "bgp/pipeline/decision_steps.h"

#include <gtest/gtest.h>

#include "testing/bgp/pipeline_test_util.h"

namespace strata::bgp {
namespace {

using test_util::AttrSpec;
using test_util::Peer;
using test_util::Route;

const PeerRef kE1 = Peer(1, 65001, false, "10.0.0.1");
const PeerRef kE2 = Peer(2, 65002, false, "10.0.0.2");
const PeerRef kI3 = Peer(3, 65000, true, "10.0.0.3");

// Each loser is named with the step that eliminated it; the winner with the selection's reason.
TEST(DecisionStepsTest, SelectBestSaysWhereEachLoserLost) {
  std::vector<BgpRouteRef> c = {Route("1.0.0.0/8", {.path = {1, 2}}, kE1),
                                Route("1.0.0.0/8", {.path = {1}, .local_pref = 50}, kI3),
                                Route("1.0.0.0/8", {.path = {4}}, kE2)};
  std::vector<DecisionReason> lost_at;
  const Selection s = SelectBest(c, &lost_at);
  EXPECT_EQ(s.best, c[2]);
  ASSERT_EQ(lost_at.size(), 3u);
  EXPECT_EQ(lost_at[0], DecisionReason::kAsPathLength);
  EXPECT_EQ(lost_at[1], DecisionReason::kLocalPref);
  EXPECT_EQ(lost_at[2], DecisionReason::kAsPathLength);  // the winner: why it won
  lost_at.clear();
  EXPECT_EQ(SelectBest(std::span(c).first(1), &lost_at).best, c[0]);
  EXPECT_EQ(lost_at, std::vector<DecisionReason>{DecisionReason::kOnlyRoute});
}

TEST(DecisionStepsTest, PrefersHigherLocalPref) {
  auto a = Route("1.0.0.0/8", {.path = {1}, .local_pref = 200}, kI3);
  auto b = Route("1.0.0.0/8", {.path = {1}}, kE1);  // default 100
  EXPECT_LT(CompareLocalPref(*a, *b), 0);
  EXPECT_GT(CompareLocalPref(*b, *a), 0);
  EXPECT_EQ(CompareLocalPref(*b, *Route("1.0.0.0/8", {.local_pref = 100}, kE2)), 0);
}

TEST(DecisionStepsTest, PrefersShorterAsPath) {
  auto a = Route("1.0.0.0/8", {.path = {1}}, kE1);
  auto b = Route("1.0.0.0/8", {.path = {2, 3}}, kE2);
  EXPECT_LT(CompareAsPathLength(*a, *b), 0);
  PathAttributes with_set = b->path();
  with_set.as_path = AsPath({{AsSegmentType::kSequence, {2}}, {AsSegmentType::kSet, {4, 5, 6}}});
  auto c = WithAttrs(*b, AttributeSet::Make(with_set));  // a set counts one
  EXPECT_EQ(CompareAsPathLength(*b, *c), 0);
}

TEST(DecisionStepsTest, PrefersLowerOrigin) {
  auto igp = Route("1.0.0.0/8", {.origin = Origin::kIgp}, kE1);
  auto egp = Route("1.0.0.0/8", {.origin = Origin::kEgp}, kE2);
  auto inc = Route("1.0.0.0/8", {.origin = Origin::kIncomplete}, kI3);
  EXPECT_LT(CompareOrigin(*igp, *egp), 0);
  EXPECT_LT(CompareOrigin(*egp, *inc), 0);
}

TEST(DecisionStepsTest, ComparesMedOnlyWithinNeighborAs) {
  auto a = Route("1.0.0.0/8", {.path = {7, 9}, .med = 5}, kE1);
  auto b = Route("1.0.0.0/8", {.path = {7, 8}, .med = 10}, kE2);
  auto c = Route("1.0.0.0/8", {.path = {6, 8}, .med = 1}, kI3);
  EXPECT_LT(CompareMed(*a, *b), 0);
  EXPECT_EQ(CompareMed(*a, *c), 0);                       // different neighbour AS
  auto missing = Route("1.0.0.0/8", {.path = {7}}, kE2);  // missing MED is 0, the best
  EXPECT_LT(CompareMed(*missing, *a), 0);
  EXPECT_EQ(NeighborAs(*a), 7u);
}

TEST(DecisionStepsTest, PrefersEbgpOverIbgp) {
  auto e = Route("1.0.0.0/8", {}, kE1);
  auto i = Route("1.0.0.0/8", {}, kI3);
  EXPECT_LT(CompareEbgpOverIbgp(*e, *i), 0);
  EXPECT_GT(CompareEbgpOverIbgp(*i, *e), 0);
}

TEST(DecisionStepsTest, PrefersLowerIgpMetric) {
  auto a = Route("1.0.0.0/8", {}, kE1, 5);
  auto b = Route("1.0.0.0/8", {}, kE2, 50);
  EXPECT_LT(CompareIgpMetric(*a, *b), 0);
}

TEST(DecisionStepsTest, PrefersLowerRouterIdOrOriginatorId) {
  auto a = Route("1.0.0.0/8", {}, Peer(1, 65001, false, "10.0.0.9", "1.1.1.1"));
  auto b = Route("1.0.0.0/8", {}, Peer(2, 65001, false, "10.0.0.1", "2.2.2.2"));
  EXPECT_LT(CompareRouterId(*a, *b), 0);
  auto reflected = Route("1.0.0.0/8", {.originator_id = "0.0.0.5"}, b->peer);
  EXPECT_LT(CompareRouterId(*reflected, *a), 0);
}

TEST(DecisionStepsTest, PrefersShorterClusterList) {
  auto a = Route("1.0.0.0/8", {.cluster_list = 1}, kI3);
  auto b = Route("1.0.0.0/8", {.cluster_list = 3}, kI3);
  EXPECT_LT(CompareClusterListLength(*a, *b), 0);
}

TEST(DecisionStepsTest, PrefersLowerPeerAddress) {
  auto a = Route("1.0.0.0/8", {}, kE1);
  auto b = Route("1.0.0.0/8", {}, kE2);
  EXPECT_LT(ComparePeerAddress(*a, *b), 0);
}

TEST(DecisionStepsTest, SelectBestRecordsDecidingStep) {
  auto a = Route("1.0.0.0/8", {.path = {1}}, kE1);
  auto b = Route("1.0.0.0/8", {.path = {2, 3}}, kE2);
  std::vector<BgpRouteRef> v{b, a};
  Selection s = SelectBest(v);
  EXPECT_EQ(s.best, a);
  EXPECT_EQ(s.reason, DecisionReason::kAsPathLength);
  EXPECT_EQ(DecisionReasonName(s.reason), "as-path-length");

  std::vector<BgpRouteRef> one{b};
  EXPECT_EQ(SelectBest(one).reason, DecisionReason::kOnlyRoute);
  EXPECT_EQ(SelectBest(std::vector<BgpRouteRef>{}).best, nullptr);

  auto c = Route("1.0.0.0/8", {.path = {4}}, kE2);  // ties with a until the router id
  std::vector<BgpRouteRef> tie{c, a};
  s = SelectBest(tie);
  EXPECT_EQ(s.best, a);
  EXPECT_EQ(s.reason, DecisionReason::kRouterId);
}

// The RFC example of MED's non-transitivity: the outcome must not depend on candidate order.
TEST(DecisionStepsTest, MedEliminationIsOrderIndependent) {
  auto a = Route("1.0.0.0/8", {.path = {7}, .med = 10}, Peer(1, 7, false, "10.0.0.1"));
  auto b = Route("1.0.0.0/8", {.path = {8}, .med = 0}, Peer(2, 8, false, "10.0.0.2"));
  auto c = Route("1.0.0.0/8", {.path = {7}, .med = 5}, Peer(3, 7, false, "10.0.0.3"));
  std::vector<BgpRouteRef> orders[] = {{a, b, c}, {c, b, a}, {b, a, c}};
  for (auto& v : orders) {
    Selection s = SelectBest(v);
    // MED removes a (beaten by c); b and c tie until the router id: b's 10.0.0.2 is lower.
    EXPECT_EQ(s.best, b);
    EXPECT_EQ(s.reason, DecisionReason::kRouterId);
  }
}

}  // namespace
}  // namespace strata::bgp
