// Route aggregation end to end in a BgpPipeline (AggregateStage): origination while a
// contributor exists, summary-only suppression towards peers, AS_SET and the RFC 4271 9.2.2.2
// attributes.
#include <gtest/gtest.h>

#include "bgp/pipeline/bgp_pipeline.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::Attrs;
using test_util::P;

class AggregateTest : public ::testing::Test {
 protected:
  AggregateTest() {
    oracle.set_auto_answer(true);
    oracle.set_route(P("192.0.2.0/24"), 10);
    config.local_as = 65000;
    config.router_id = A("9.9.9.9");
    pipeline = std::make_unique<BgpPipeline>(config, oracle, rib, scheduler);
    e1 = AddPeer(65001, "10.0.0.1", s1);
    e2 = AddPeer(65002, "10.0.0.2", s2);
    e3 = AddPeer(65003, "10.0.0.3", s3);
  }
  PeerId AddPeer(uint32_t as, const std::string& addr, test_util::FakeSessionSink& sink) {
    PipelinePeerConfig c;
    c.address = A(addr);
    c.peer_as = as;
    c.local_address = A("10.255.0.1");
    PeerId id = pipeline->add_peer(c).value();
    EXPECT_TRUE(pipeline->peer_up(id, A(addr), sink).ok());
    return id;
  }
  void Send(PeerId id, std::vector<uint32_t> path, const std::string& prefix,
            Origin origin = Origin::kIgp) {
    const IpPrefix one[] = {P(prefix)};
    ASSERT_TRUE(
        pipeline->receive_update(id, Attrs({.path = path, .origin = origin}), one, {}).ok());
    scheduler.run_until_idle();
  }
  void Withdraw(PeerId id, const std::string& prefix) {
    const IpPrefix one[] = {P(prefix)};
    ASSERT_TRUE(pipeline->receive_update(id, nullptr, {}, one).ok());
    scheduler.run_until_idle();
  }
  const PathAttributes* At(test_util::FakeSessionSink& s, const std::string& prefix) {
    auto it = s.table.find(P(prefix));
    return it == s.table.end() ? nullptr : &it->second->attrs();
  }

  FakeNexthopOracle oracle;
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  PipelineConfig config;
  std::unique_ptr<BgpPipeline> pipeline;
  test_util::FakeSessionSink s1, s2, s3;
  PeerId e1 = 0, e2 = 0, e3 = 0;
};

TEST_F(AggregateTest, OriginatedWhileAContributorIsInTheTable) {
  ASSERT_TRUE(pipeline->set_aggregate({.prefix = P("10.0.0.0/8")}).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(At(s2, "10.0.0.0/8"), nullptr);  // no contributor yet
  Send(e1, {65001}, "10.1.0.0/16");
  const PathAttributes* a = At(s2, "10.0.0.0/8");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->as_path->ToString(), "65000");  // empty path, ours prepended
  EXPECT_TRUE(a->atomic_aggregate);
  ASSERT_TRUE(a->aggregator());
  EXPECT_EQ(a->aggregator()->asn, 65000u);
  EXPECT_EQ(a->aggregator()->address, A("9.9.9.9"));
  EXPECT_EQ(*a->next_hop, A("10.255.0.1"));
  EXPECT_EQ(*a->origin, Origin::kIgp);
  EXPECT_NE(At(s2, "10.1.0.0/16"), nullptr);  // not summary-only: the contributor goes too
  EXPECT_NE(At(s1, "10.0.0.0/8"), nullptr);   // the aggregate is ours: the source gets it too
  EXPECT_EQ(pipeline->aggregate_stage()->contributors(P("10.0.0.0/8")), 1u);
  // A route outside, or the aggregate's own prefix from a peer, contributes nothing.
  Send(e2, {65002}, "11.0.0.0/16");
  EXPECT_EQ(pipeline->aggregate_stage()->contributors(P("10.0.0.0/8")), 1u);
  Withdraw(e1, "10.1.0.0/16");
  EXPECT_EQ(At(s2, "10.0.0.0/8"), nullptr);
  EXPECT_EQ(At(s3, "10.0.0.0/8"), nullptr);
}

TEST_F(AggregateTest, SummaryOnlyKeepsContributorsFromPeersNotFromTheRib) {
  Send(e1, {65001}, "10.1.0.0/16");
  Send(e1, {65001}, "10.2.0.0/16");
  EXPECT_NE(At(s2, "10.1.0.0/16"), nullptr);
  // Configured after the contributors: they are found, and withdrawn from the peers.
  ASSERT_TRUE(pipeline->set_aggregate({.prefix = P("10.0.0.0/8"), .summary_only = true}).ok());
  scheduler.run_until_idle();
  EXPECT_NE(At(s2, "10.0.0.0/8"), nullptr);
  EXPECT_EQ(At(s2, "10.1.0.0/16"), nullptr);
  EXPECT_EQ(At(s2, "10.2.0.0/16"), nullptr);
  EXPECT_EQ(rib.tables[0].count(P("10.1.0.0/16")), 1u);  // still installed here
  // Not summary-only any more: the contributors come back.
  ASSERT_TRUE(pipeline->set_aggregate({.prefix = P("10.0.0.0/8")}).ok());
  scheduler.run_until_idle();
  EXPECT_NE(At(s2, "10.1.0.0/16"), nullptr);
  EXPECT_NE(At(s2, "10.0.0.0/8"), nullptr);
  // Deleted: the aggregate goes.
  ASSERT_TRUE(pipeline->delete_aggregate(P("10.0.0.0/8")).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(At(s2, "10.0.0.0/8"), nullptr);
  EXPECT_NE(At(s2, "10.2.0.0/16"), nullptr);
  EXPECT_FALSE(pipeline->delete_aggregate(P("10.0.0.0/8")).ok());
}

TEST_F(AggregateTest, AsSetCollectsTheContributorsPaths) {
  ASSERT_TRUE(pipeline->set_aggregate({.prefix = P("10.0.0.0/8"), .as_set = true}).ok());
  Send(e1, {65001, 7}, "10.1.0.0/16");
  Send(e2, {65002, 7, 8}, "10.2.0.0/16", Origin::kEgp);
  const PathAttributes* a = At(s3, "10.0.0.0/8");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->as_path->ToString(), "65000 {7 8 65001 65002}");
  EXPECT_FALSE(a->atomic_aggregate);
  EXPECT_EQ(*a->origin, Origin::kEgp);  // the weakest ORIGIN
  // One contributor left: its path as the common sequence.
  Withdraw(e2, "10.2.0.0/16");
  EXPECT_EQ(At(s3, "10.0.0.0/8")->as_path->ToString(), "65000 65001 7");
  EXPECT_EQ(*At(s3, "10.0.0.0/8")->origin, Origin::kIgp);
}

TEST(AggregateAttributesTest, CommonLeadingSequenceThenASetOfTheRest) {
  PeerRef peer = test_util::Peer(1, 65001, false, "10.0.0.1");
  const std::vector<BgpRouteRef> routes = {
      test_util::Route("10.1.0.0/16", {.path = {65001, 3356, 7}}, peer),
      test_util::Route("10.2.0.0/16", {.path = {65001, 3356, 8}, .origin = Origin::kIncomplete},
                       peer)};
  AttributeSetPtr a =
      AggregateAttributes({.prefix = P("10.0.0.0/8"), .as_set = true}, routes, 65000, A("9.9.9.9"));
  EXPECT_EQ(a->attrs().as_path->ToString(), "65001 3356 {7 8}");
  EXPECT_EQ(*a->attrs().origin, Origin::kIncomplete);
  EXPECT_TRUE(a->attrs().next_hop->is_zero());
  AttributeSetPtr plain =
      AggregateAttributes({.prefix = P("10.0.0.0/8")}, routes, 65000, A("9.9.9.9"));
  EXPECT_TRUE(plain->attrs().as_path->empty());
  EXPECT_TRUE(plain->attrs().atomic_aggregate);
}

}  // namespace
}  // namespace strata::bgp
