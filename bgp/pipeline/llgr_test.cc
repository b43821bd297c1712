// Long-lived graceful restart helper in the pipeline (RFC 9494): stale routes re-announced with
// LLGR_STALE once the graceful restart time is over, least preferred, kept from peers that did
// not negotiate LLGR, NO_LLGR routes withdrawn, and the rest swept or refreshed as for GR.
#include <gtest/gtest.h>

#include "bgp/pipeline/bgp_pipeline.h"
#include "bgp/pipeline/decision_steps.h"
#include "bgp/pipeline/llgr_community.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::Attrs;
using test_util::P;

AttributeSetPtr WithCommunities(const AttributeSetPtr& attrs, std::vector<uint32_t> communities) {
  PathAttributes a = attrs->attrs();
  a.communities = std::move(communities);
  return AttributeSet::Make(std::move(a));
}

class LlgrPipelineTest : public ::testing::Test {
 protected:
  LlgrPipelineTest() {
    oracle.set_auto_answer(true);
    oracle.set_route(P("192.0.2.0/24"), 10);
    config.local_as = 65000;
    config.router_id = A("9.9.9.9");
    config.deletion_slice = 2;
    pipeline = std::make_unique<BgpPipeline>(config, oracle, rib, scheduler);
    e1 = AddPeer(65001, "10.0.0.1");
    plain = AddPeer(65002, "10.0.0.2");
    llgr = AddPeer(65003, "10.0.0.3");
    EXPECT_TRUE(pipeline->set_llgr_negotiated(llgr, true).ok());
    EXPECT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
    EXPECT_TRUE(pipeline->peer_up(plain, A("2.2.2.2"), s_plain).ok());
    EXPECT_TRUE(pipeline->peer_up(llgr, A("3.3.3.3"), s_llgr).ok());
  }
  PeerId AddPeer(uint32_t as, const std::string& addr) {
    PipelinePeerConfig c;
    c.address = A(addr);
    c.peer_as = as;
    c.local_address = A("10.255.0.1");
    return pipeline->add_peer(c).value();
  }
  void Send(PeerId id, std::vector<uint32_t> path, const std::vector<std::string>& prefixes,
            std::vector<uint32_t> communities = {}) {
    std::vector<IpPrefix> ps;
    for (const auto& s : prefixes) ps.push_back(P(s));
    auto attrs = WithCommunities(Attrs({.path = path, .next_hop = "192.0.2.1"}), communities);
    ASSERT_TRUE(pipeline->receive_update(id, attrs, ps, {}).ok());
  }
  PipelinePeerCounters Counters(PeerId id) { return pipeline->counters(id).value(); }
  BgpRouteRef AtRib(const std::string& prefix) {
    auto all = rib.all();
    auto it = all.find(P(prefix));
    return it == all.end() ? nullptr : it->second;
  }

  FakeNexthopOracle oracle;
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  PipelineConfig config;
  std::unique_ptr<BgpPipeline> pipeline;
  test_util::FakeSessionSink s1, s_plain, s_llgr;
  PeerId e1 = 0, plain = 0, llgr = 0;
};

TEST_F(LlgrPipelineTest, MarkedRoutesStayWithLlgrStaleAndNoLlgrRoutesGo) {
  Send(e1, {65001}, {"1.0.0.0/8", "2.0.0.0/8"});
  Send(e1, {65001}, {"3.0.0.0/8"}, {kNoLlgrCommunity});
  scheduler.run_until_idle();
  ASSERT_EQ(rib.all().size(), 3u);
  ASSERT_EQ(s_plain.table.size(), 3u);

  ASSERT_TRUE(pipeline->peer_down_graceful(e1).ok());
  ASSERT_TRUE(pipeline->mark_llgr_stale(e1).ok());
  scheduler.run_until_idle();

  EXPECT_EQ(Counters(e1).stale, 2u);
  EXPECT_EQ(Counters(e1).llgr_stale, 2u);
  EXPECT_EQ(Counters(e1).received, 2u);
  // NO_LLGR: withdrawn everywhere.
  EXPECT_EQ(AtRib("3.0.0.0/8"), nullptr);
  EXPECT_FALSE(s_llgr.table.contains(P("3.0.0.0/8")));
  // The others are installed still, carrying LLGR_STALE.
  ASSERT_NE(AtRib("1.0.0.0/8"), nullptr);
  EXPECT_TRUE(IsLlgrStale(*AtRib("1.0.0.0/8")));
  // A peer that negotiated LLGR gets them with the community; another peer loses them.
  ASSERT_EQ(s_llgr.table.size(), 2u);
  EXPECT_TRUE(HasCommunity(s_llgr.table.at(P("2.0.0.0/8"))->attrs(), kLlgrStaleCommunity));
  EXPECT_TRUE(s_plain.table.empty());
}

TEST_F(LlgrPipelineTest, AnyOtherRouteWinsOverALlgrStaleOne) {
  // e1's path is shorter: it wins while fresh.
  Send(e1, {65001}, {"1.0.0.0/8"});
  Send(plain, {65002, 65002, 65002}, {"1.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_EQ(AtRib("1.0.0.0/8")->peer->id, e1);

  ASSERT_TRUE(pipeline->peer_down_graceful(e1).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(AtRib("1.0.0.0/8")->peer->id, e1);  // GR stale: still preferred as before

  ASSERT_TRUE(pipeline->mark_llgr_stale(e1).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(AtRib("1.0.0.0/8")->peer->id, plain);
  auto why = pipeline->explain(P("1.0.0.0/8"));
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(why->winner.reason, DecisionReason::kNotLlgrStale);
  // The LLGR peer is now sent the other route, without the community.
  ASSERT_TRUE(s_llgr.table.contains(P("1.0.0.0/8")));
  EXPECT_FALSE(HasCommunity(s_llgr.table.at(P("1.0.0.0/8"))->attrs(), kLlgrStaleCommunity));

  // The other route goes: the stale one is the only one left and is used again.
  ASSERT_TRUE(pipeline->receive_update(plain, nullptr, {}, std::vector{P("1.0.0.0/8")}).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(AtRib("1.0.0.0/8")->peer->id, e1);
  EXPECT_FALSE(s_plain.table.contains(P("1.0.0.0/8")));  // not sent to a non-LLGR peer
  EXPECT_TRUE(s_llgr.table.contains(P("1.0.0.0/8")));
}

TEST_F(LlgrPipelineTest, ReannouncedRoutesAreFreshAndTheRestAreSweptAtEndOfRib) {
  Send(e1, {65001}, {"1.0.0.0/8", "2.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_TRUE(pipeline->peer_down_graceful(e1).ok());
  ASSERT_TRUE(pipeline->mark_llgr_stale(e1).ok());
  scheduler.run_until_idle();
  ASSERT_EQ(Counters(e1).llgr_stale, 2u);

  test_util::FakeSessionSink again;
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), again).ok());
  Send(e1, {65001}, {"1.0.0.0/8"});
  scheduler.run_until_idle();
  EXPECT_EQ(Counters(e1).stale, 1u);
  EXPECT_EQ(Counters(e1).llgr_stale, 1u);
  EXPECT_FALSE(IsLlgrStale(*AtRib("1.0.0.0/8")));
  EXPECT_TRUE(s_plain.table.contains(P("1.0.0.0/8")));  // fresh: every peer gets it again

  // End-of-RIB (or the long-lived stale timer): what was not refreshed is withdrawn.
  ASSERT_TRUE(pipeline->sweep_stale(e1).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(Counters(e1).stale, 0u);
  EXPECT_EQ(Counters(e1).llgr_stale, 0u);
  EXPECT_EQ(AtRib("2.0.0.0/8"), nullptr);
  EXPECT_FALSE(s_llgr.table.contains(P("2.0.0.0/8")));
}

TEST_F(LlgrPipelineTest, MarkingIsPerFamily) {
  oracle.set_route(P("2001:db8::/32"), 10);
  Send(e1, {65001}, {"1.0.0.0/8"});
  std::vector<IpPrefix> v6{P("2001:db8:1::/48")};
  ASSERT_TRUE(
      pipeline->receive_update(e1, Attrs({.path = {65001}, .next_hop = "2001:db8::1"}), v6, {})
          .ok());
  scheduler.run_until_idle();
  ASSERT_EQ(rib.all().size(), 2u);
  ASSERT_TRUE(pipeline->peer_down_graceful(e1).ok());
  ASSERT_TRUE(pipeline->mark_llgr_stale(e1, Family::kIpv6).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(Counters(e1).stale, 2u);
  EXPECT_EQ(Counters(e1).llgr_stale, 1u);
  EXPECT_FALSE(IsLlgrStale(*AtRib("1.0.0.0/8")));
  EXPECT_TRUE(IsLlgrStale(*AtRib("2001:db8:1::/48")));
}

TEST_F(LlgrPipelineTest, ReceivedLlgrStaleRoutesAreLeastPreferredAndNotSentToPlainPeers) {
  // RFC 9494 4.3: a route that arrives with LLGR_STALE is treated as long-lived stale too.
  Send(e1, {65001}, {"1.0.0.0/8"}, {kLlgrStaleCommunity});
  scheduler.run_until_idle();
  EXPECT_TRUE(s_llgr.table.contains(P("1.0.0.0/8")));
  EXPECT_FALSE(s_plain.table.contains(P("1.0.0.0/8")));
  EXPECT_EQ(Counters(e1).llgr_stale, 0u);  // not stale: its session is up
  Send(plain, {65002, 65002}, {"1.0.0.0/8"});
  scheduler.run_until_idle();
  EXPECT_EQ(AtRib("1.0.0.0/8")->peer->id, plain);
  // Its session goes: it counts as long-lived stale at once.
  ASSERT_TRUE(pipeline->peer_down_graceful(e1).ok());
  EXPECT_EQ(Counters(e1).llgr_stale, 1u);
}

TEST(LlgrDecisionStepTest, NotLlgrStaleComesFirst) {
  auto peer = NewPeerInfo();
  auto stale = MakeRoute(
      P("1.0.0.0/8"),
      WithCommunities(Attrs({.path = {1}, .local_pref = 500}), {kLlgrStaleCommunity}), peer);
  auto fresh = MakeRoute(P("1.0.0.0/8"), Attrs({.path = {1, 2, 3}, .local_pref = 100}), peer);
  EXPECT_GT(CompareNotLlgrStale(*stale, *fresh), 0);
  EXPECT_LT(CompareNotLlgrStale(*fresh, *stale), 0);
  EXPECT_EQ(CompareNotLlgrStale(*fresh, *fresh), 0);
  EXPECT_EQ(DecisionSteps().front().reason, DecisionReason::kNotLlgrStale);
  EXPECT_EQ(DecisionReasonName(DecisionReason::kNotLlgrStale), "not-llgr-stale");
}

TEST(LlgrCommunityTest, WithLlgrStaleAddsTheCommunityOnce) {
  auto attrs = WithCommunities(Attrs({.path = {1}}), {0xFFFFFF01u});
  auto marked = WithLlgrStale(attrs);
  EXPECT_EQ(marked->attrs().communities, (std::vector<uint32_t>{0xFFFFFF01u, kLlgrStaleCommunity}));
  EXPECT_EQ(WithLlgrStale(marked), marked);
  EXPECT_FALSE(HasCommunity(attrs->attrs(), kLlgrStaleCommunity));
}

}  // namespace
}  // namespace strata::bgp
