// Equal-cost multipath: SelectMultipath step by step (decision_steps.h) and the whole pipeline
// (the RIB gets every member's next hop, peers the best only, set changes without a new winner).
#include <gtest/gtest.h>

#include <algorithm>

#include "bgp/pipeline/bgp_pipeline.h"
#include "bgp/pipeline/decision_steps.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::Attrs;
using test_util::AttrSpec;
using test_util::P;
using test_util::Peer;
using test_util::Route;

// Two eBGP peers in AS 65001, one in 65002, two iBGP peers; router ids rise with the peer id.
const PeerRef kE1 = Peer(1, 65001, false, "10.0.0.1");
const PeerRef kE2 = Peer(2, 65001, false, "10.0.0.2");
const PeerRef kE3 = Peer(3, 65002, false, "10.0.0.3");
const PeerRef kI4 = Peer(4, 65000, true, "10.0.0.4");
const PeerRef kI5 = Peer(5, 65000, true, "10.0.0.5");

constexpr MultipathConfig kFour{.ebgp_paths = 4, .ibgp_paths = 4, .multiple_as = false};

AttrSpec Via(std::vector<uint32_t> path, const std::string& nh) {
  return AttrSpec{.path = std::move(path), .next_hop = nh};
}

// The members SelectMultipath adds to the SelectBest winner of `c`.
std::vector<BgpRouteRef> Members(const std::vector<BgpRouteRef>& c, const MultipathConfig& m) {
  return SelectMultipath(c, SelectBest(c).best, m);
}

TEST(MultipathTest, EqualPathsFromTheSameNeighbourAsShare) {
  std::vector<BgpRouteRef> c = {Route("1.0.0.0/8", Via({65001, 7}, "10.0.0.1"), kE1),
                                Route("1.0.0.0/8", Via({65001, 7}, "10.0.0.2"), kE2)};
  EXPECT_EQ(SelectBest(c).best, c[0]);  // router id
  EXPECT_EQ(Members(c, kFour), std::vector<BgpRouteRef>{c[1]});
  EXPECT_TRUE(Members(c, MultipathConfig{}).empty());  // off by default
}

TEST(MultipathTest, UnequalAtEachStepBeforeTheTieBreakersDoesNotShare) {
  const std::vector<std::pair<const char*, AttrSpec>> worse = {
      {"local-pref", {.path = {65001, 7}, .next_hop = "10.0.0.2", .local_pref = 50}},
      {"as-path-length", {.path = {65001, 8, 7}, .next_hop = "10.0.0.2"}},
      {"origin", {.path = {65001, 7}, .next_hop = "10.0.0.2", .origin = Origin::kEgp}},
      {"med", {.path = {65001, 7}, .next_hop = "10.0.0.2", .med = 9}},
  };
  for (const auto& [step, spec] : worse) {
    std::vector<BgpRouteRef> c = {Route("1.0.0.0/8", Via({65001, 7}, "10.0.0.1"), kE1),
                                  Route("1.0.0.0/8", spec, kE2)};
    EXPECT_EQ(SelectBest(c).best, c[0]) << step;
    EXPECT_TRUE(Members(c, kFour).empty()) << step;
  }
  // IGP metric.
  std::vector<BgpRouteRef> c = {Route("1.0.0.0/8", Via({65001, 7}, "10.0.0.1"), kE1, 5),
                                Route("1.0.0.0/8", Via({65001, 7}, "10.0.0.2"), kE2, 6)};
  EXPECT_TRUE(Members(c, kFour).empty());
  // Equal again once the metric is.
  c[1] = Route("1.0.0.0/8", Via({65001, 7}, "10.0.0.2"), kE2, 5);
  EXPECT_EQ(Members(c, kFour).size(), 1u);
}

TEST(MultipathTest, EbgpAndIbgpPathsNeverShare) {
  std::vector<BgpRouteRef> c = {Route("1.0.0.0/8", Via({65001, 7}, "10.0.0.1"), kE1),
                                Route("1.0.0.0/8", Via({65001, 7}, "10.9.0.4"), kI4)};
  EXPECT_EQ(SelectBest(c).best, c[0]);
  EXPECT_TRUE(Members(c, kFour).empty());
}

TEST(MultipathTest, IbgpPathsShareUnderTheIbgpLimit) {
  std::vector<BgpRouteRef> c = {Route("1.0.0.0/8", Via({7}, "10.9.0.4"), kI4, 10),
                                Route("1.0.0.0/8", Via({7}, "10.9.0.5"), kI5, 10)};
  EXPECT_EQ(Members(c, kFour), std::vector<BgpRouteRef>{c[1]});
  EXPECT_TRUE(Members(c, {.ebgp_paths = 4, .ibgp_paths = 1}).empty());
  EXPECT_EQ(Members(c, {.ebgp_paths = 1, .ibgp_paths = 2}).size(), 1u);
}

TEST(MultipathTest, DifferentNeighbourAsSharesOnlyWhenRelaxed) {
  std::vector<BgpRouteRef> c = {Route("1.0.0.0/8", Via({65001, 7}, "10.0.0.1"), kE1),
                                Route("1.0.0.0/8", Via({65002, 7}, "10.0.0.3"), kE3)};
  EXPECT_TRUE(Members(c, kFour).empty());
  MultipathConfig relaxed = kFour;
  relaxed.multiple_as = true;
  EXPECT_EQ(Members(c, relaxed), std::vector<BgpRouteRef>{c[1]});
  // Relaxed paths still need an AS path of the same length.
  c[1] = Route("1.0.0.0/8", Via({65002, 8, 7}, "10.0.0.3"), kE3);
  EXPECT_TRUE(Members(c, relaxed).empty());
}

TEST(MultipathTest, LimitKeepsTheTieBreakOrderAndNextHopsAreDistinct) {
  const PeerRef e6 = Peer(6, 65001, false, "10.0.0.6");
  const PeerRef e7 = Peer(7, 65001, false, "10.0.0.7");
  std::vector<BgpRouteRef> c = {Route("1.0.0.0/8", Via({65001}, "10.0.0.7"), e7),
                                Route("1.0.0.0/8", Via({65001}, "10.0.0.6"), e6),
                                Route("1.0.0.0/8", Via({65001}, "10.0.0.2"), kE2),
                                Route("1.0.0.0/8", Via({65001}, "10.0.0.1"), kE1)};
  EXPECT_EQ(SelectBest(c).best, c[3]);  // lowest router id
  EXPECT_EQ(Members(c, kFour), (std::vector<BgpRouteRef>{c[2], c[1], c[0]}));
  EXPECT_EQ(Members(c, {.ebgp_paths = 2, .ibgp_paths = 2}), std::vector<BgpRouteRef>{c[2]});
  EXPECT_EQ(Members(c, {.ebgp_paths = 3, .ibgp_paths = 1}), (std::vector<BgpRouteRef>{c[2], c[1]}));
  // A path through the best's next hop (or a member's) adds nothing to forward on.
  c[2] = Route("1.0.0.0/8", Via({65001}, "10.0.0.1"), kE2);
  c[0] = Route("1.0.0.0/8", Via({65001}, "10.0.0.6"), e7);
  EXPECT_EQ(Members(c, kFour), std::vector<BgpRouteRef>{c[1]});
}

TEST(MultipathTest, ValidatesPathCounts) {
  EXPECT_TRUE(ValidateMultipathConfig(kFour).ok());
  EXPECT_FALSE(ValidateMultipathConfig({.ebgp_paths = 0}).ok());
  EXPECT_FALSE(ValidateMultipathConfig({.ibgp_paths = 65}).ok());
}

class MultipathPipelineTest : public ::testing::Test {
 protected:
  MultipathPipelineTest() {
    oracle.set_auto_answer(true);
    oracle.set_route(P("10.0.0.0/24"), 10);
    config.local_as = 65000;
    config.router_id = A("9.9.9.9");
    pipeline = std::make_unique<BgpPipeline>(config, oracle, rib, scheduler);
    for (int i = 1; i <= 3; ++i) {
      const std::string addr = "10.0.0." + std::to_string(i);
      PipelinePeerConfig c;
      c.address = A(addr);
      c.peer_as = i == 3 ? 65002 : 65001;
      c.local_address = A("10.0.0.100");
      ids[i] = pipeline->add_peer(c).value();
      EXPECT_TRUE(pipeline->peer_up(ids[i], A(addr), sinks[i]).ok());
    }
  }
  void Send(int peer, std::vector<uint32_t> path, const std::string& prefix,
            std::optional<uint32_t> med = std::nullopt) {
    const std::string nh = "10.0.0." + std::to_string(peer);
    ASSERT_TRUE(pipeline
                    ->receive_update(ids[peer], Attrs({.path = path, .next_hop = nh, .med = med}),
                                     std::vector<IpPrefix>{P(prefix)}, {})
                    .ok());
    scheduler.run_until_idle();
  }
  void Withdraw(int peer, const std::string& prefix) {
    ASSERT_TRUE(
        pipeline->receive_update(ids[peer], nullptr, {}, std::vector<IpPrefix>{P(prefix)}).ok());
    scheduler.run_until_idle();
  }
  std::vector<IpAddr> RibMultipath(const std::string& prefix) {
    auto it = rib.multipath.find(P(prefix));
    return it == rib.multipath.end() ? std::vector<IpAddr>{} : it->second;
  }

  FakeNexthopOracle oracle;
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  PipelineConfig config;
  std::unique_ptr<BgpPipeline> pipeline;
  PeerId ids[4] = {};
  test_util::FakeSessionSink sinks[4];
};

TEST_F(MultipathPipelineTest, RibGetsEveryMemberPeersTheBestOnly) {
  ASSERT_TRUE(pipeline->set_multipath(kFour).ok());
  Send(1, {65001, 7}, "1.0.0.0/8");
  EXPECT_TRUE(RibMultipath("1.0.0.0/8").empty());
  const size_t batches_to_e3 = sinks[3].batches.size();
  // A second equal path: the winner stays, the RIB gets the set, no peer hears of it.
  Send(2, {65001, 7}, "1.0.0.0/8");
  EXPECT_EQ(rib.tables[0].at(P("1.0.0.0/8"))->peer->id, ids[1]);
  EXPECT_EQ(RibMultipath("1.0.0.0/8"), std::vector<IpAddr>{A("10.0.0.2")});
  EXPECT_EQ(sinks[3].batches.size(), batches_to_e3);
  EXPECT_EQ(*sinks[3].table.at(P("1.0.0.0/8"))->attrs().next_hop, A("10.0.0.100"));
  // The view marks the member.
  auto why = pipeline->explain(P("1.0.0.0/8"));
  ASSERT_TRUE(why);
  ASSERT_EQ(why->multipath.size(), 2u);
  EXPECT_EQ(std::count(why->multipath.begin(), why->multipath.end(), true), 1);
  // The member worsens (MED): the set shrinks, again without a new winner.
  Send(2, {65001, 7}, "1.0.0.0/8", 50);
  EXPECT_TRUE(RibMultipath("1.0.0.0/8").empty());
  Send(2, {65001, 7}, "1.0.0.0/8");
  EXPECT_EQ(RibMultipath("1.0.0.0/8").size(), 1u);
  // The best goes: the member is the winner alone.
  Withdraw(1, "1.0.0.0/8");
  EXPECT_EQ(rib.tables[0].at(P("1.0.0.0/8"))->peer->id, ids[2]);
  EXPECT_TRUE(RibMultipath("1.0.0.0/8").empty());
  EXPECT_TRUE(rib.errors.empty());
}

TEST_F(MultipathPipelineTest, RelaxAndTurningOnAndOffReachTheRib) {
  Send(1, {65001, 7}, "1.0.0.0/8");
  Send(3, {65002, 7}, "1.0.0.0/8");
  EXPECT_TRUE(RibMultipath("1.0.0.0/8").empty());  // off
  ASSERT_TRUE(pipeline->set_multipath(kFour).ok());
  scheduler.run_until_idle();
  EXPECT_TRUE(RibMultipath("1.0.0.0/8").empty());  // another neighbouring AS
  MultipathConfig relaxed = kFour;
  relaxed.multiple_as = true;
  ASSERT_TRUE(pipeline->set_multipath(relaxed).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(RibMultipath("1.0.0.0/8"), std::vector<IpAddr>{A("10.0.0.3")});
  ASSERT_TRUE(pipeline->set_multipath(MultipathConfig{}).ok());
  scheduler.run_until_idle();
  EXPECT_TRUE(RibMultipath("1.0.0.0/8").empty());
  EXPECT_FALSE(pipeline->set_multipath({.ebgp_paths = 65}).ok());
  EXPECT_TRUE(rib.errors.empty());
}

}  // namespace
}  // namespace strata::bgp
