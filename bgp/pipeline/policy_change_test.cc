// BgpPipeline: changing a peer's import or export policy re-evaluates its routes in background
// slices (also those still in a deletion stage), sending only the differences; dump_done; the
// zero next hop of our own routes.
#include <gtest/gtest.h>

#include "bgp/pipeline/bgp_pipeline.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::Attrs;
using test_util::P;

// Rejects one prefix, passes the rest unchanged.
RoutePolicy Reject(const std::string& prefix) {
  return [p = P(prefix)](const BgpRouteRef& r) { return r->prefix == p ? nullptr : r; };
}
// Sets MED on every route.
RoutePolicy SetMed(uint32_t med) {
  return [med](const BgpRouteRef& r) {
    PathAttributes a = r->path();
    a.med = med;
    return WithAttrs(*r, AttributeSet::Make(std::move(a)));
  };
}

class PolicyChangeTest : public ::testing::Test {
 protected:
  PolicyChangeTest() {
    oracle.set_auto_answer(true);
    oracle.set_route(P("192.0.2.0/24"), 10);
    config.local_as = 65000;
    config.router_id = A("9.9.9.9");
    config.deletion_slice = 1;
    pipeline = std::make_unique<BgpPipeline>(config, oracle, rib, scheduler);
    e1 = AddPeer(65001, "10.0.0.1");
    e2 = AddPeer(65002, "10.0.0.2");
    EXPECT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
    EXPECT_TRUE(pipeline->peer_up(e2, A("2.2.2.2"), s2).ok());
  }
  PeerId AddPeer(uint32_t as, const std::string& addr) {
    PipelinePeerConfig c;
    c.address = A(addr);
    c.peer_as = as;
    c.local_address = A("10.255.0.1");
    return pipeline->add_peer(c).value();
  }
  void Send(PeerId id, const std::vector<std::string>& prefixes,
            std::string next_hop = "192.0.2.1") {
    std::vector<IpPrefix> ps;
    for (const auto& s : prefixes) ps.push_back(P(s));
    ASSERT_TRUE(
        pipeline->receive_update(id, Attrs({.path = {65001}, .next_hop = next_hop}), ps, {}).ok());
  }

  FakeNexthopOracle oracle;
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  PipelineConfig config;
  std::unique_ptr<BgpPipeline> pipeline;
  test_util::FakeSessionSink s1, s2;
  PeerId e1 = 0, e2 = 0;
};

// A withdrawal that arrives right after an export policy change, for a route the old policy sent
// and the new one rejects: the peer must still see it withdrawn.
TEST_F(PolicyChangeTest, WithdrawalRightAfterExportChangeReachesThePeer) {
  Send(e1, {"1.0.0.0/8", "2.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_TRUE(s2.table.contains(P("1.0.0.0/8")));
  ASSERT_TRUE(pipeline->set_export_policy(e2, Reject("1.0.0.0/8")).ok());
  const IpPrefix gone[] = {P("1.0.0.0/8")};
  ASSERT_TRUE(pipeline->receive_update(e1, nullptr, {}, gone).ok());
  scheduler.run_until_idle();
  EXPECT_FALSE(s2.table.contains(P("1.0.0.0/8")));
  EXPECT_TRUE(s2.table.contains(P("2.0.0.0/8")));
}

TEST_F(PolicyChangeTest, ImportPolicyChangeReachesRibAndPeers) {
  Send(e1, {"1.0.0.0/8", "2.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_EQ(rib.all().size(), 2u);
  ASSERT_EQ(s2.table.size(), 2u);

  ASSERT_TRUE(pipeline->set_import_policy(e1, Reject("1.0.0.0/8")).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(rib.all().size(), 1u);
  EXPECT_FALSE(s2.table.contains(P("1.0.0.0/8")));
  EXPECT_EQ(pipeline->counters(e1)->accepted, 1u);
  EXPECT_EQ(pipeline->counters(e1)->policy_rejected, 1u);

  ASSERT_TRUE(pipeline->set_import_policy(e1, SetMed(5)).ok());
  scheduler.run_until_idle();
  ASSERT_EQ(rib.all().size(), 2u);
  EXPECT_EQ(pipeline->explain(P("2.0.0.0/8"))->winner.route->path().med, 5u);
  EXPECT_EQ(s2.table.size(), 2u);
  EXPECT_EQ(pipeline->counters(e1)->accepted, 2u);

  ASSERT_TRUE(pipeline->set_import_policy(e1, nullptr).ok());
  scheduler.run_until_idle();
  EXPECT_FALSE(pipeline->explain(P("2.0.0.0/8"))->winner.route->path().med.has_value());
  EXPECT_TRUE(rib.errors.empty()) << ::testing::PrintToString(rib.errors);
}

TEST_F(PolicyChangeTest, ImportPolicyChangeCoversRoutesBeingDeleted) {
  Send(e1, {"1.0.0.0/8", "2.0.0.0/8", "3.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_TRUE(pipeline->peer_down(e1).ok());
  ASSERT_TRUE(scheduler.run_slice());  // one route withdrawn, two still in the deletion stage
  ASSERT_TRUE(pipeline->set_import_policy(e1, Reject("3.0.0.0/8")).ok());
  scheduler.run_until_idle();
  EXPECT_TRUE(rib.all().empty());
  EXPECT_TRUE(s2.table.empty());
  EXPECT_EQ(pipeline->counters(e1)->accepted, 0u);
  EXPECT_TRUE(rib.errors.empty()) << ::testing::PrintToString(rib.errors);
}

TEST_F(PolicyChangeTest, ExportPolicyChangeIsSentInSlices) {
  Send(e1, {"1.0.0.0/8", "2.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_EQ(s2.table.size(), 2u);
  const size_t batches = s2.batches.size();
  ASSERT_TRUE(pipeline->set_export_policy(e2, Reject("2.0.0.0/8")).ok());
  EXPECT_EQ(s2.table.size(), 2u);      // nothing yet: the walk runs in the scheduler's slices
  ASSERT_TRUE(scheduler.run_slice());  // one prefix a slice (deletion_slice = 1): 1.0.0.0/8
  EXPECT_EQ(s2.table.size(), 2u);
  EXPECT_EQ(s2.batches.size(), batches);  // unchanged: nothing sent
  scheduler.run_until_idle();
  EXPECT_EQ(s2.table.size(), 1u);
  EXPECT_EQ(s2.batches.size(), batches + 1);  // only the withdrawal of 2.0.0.0/8
  ASSERT_TRUE(pipeline->set_export_policy(e2, SetMed(9)).ok());
  scheduler.run_until_idle();
  ASSERT_EQ(s2.table.size(), 2u);
  EXPECT_EQ(s2.table.at(P("2.0.0.0/8"))->attrs().med, 9u);
  ASSERT_TRUE(pipeline->set_export_policy(e2, nullptr).ok());
  scheduler.run_until_idle();
  EXPECT_FALSE(s2.table.at(P("2.0.0.0/8"))->attrs().med.has_value());
  EXPECT_EQ(pipeline->counters(e2)->advertised, 2u);
  // e1 was not touched.
  EXPECT_TRUE(s1.table.empty());
}

TEST_F(PolicyChangeTest, RoutesArrivingDuringAnImportWalkUseTheNewPolicyAtOnce) {
  Send(e1, {"1.0.0.0/8", "2.0.0.0/8", "3.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_TRUE(pipeline->set_import_policy(e1, SetMed(7)).ok());
  ASSERT_TRUE(scheduler.run_slice());  // 1.0.0.0/8 re-filtered, the rest still on the old policy
  EXPECT_FALSE(pipeline->explain(P("3.0.0.0/8"))->winner.route->path().med.has_value());
  Send(e1, {"3.0.0.0/8", "4.0.0.0/8"}, "192.0.2.9");  // ahead of the walk
  EXPECT_EQ(pipeline->explain(P("3.0.0.0/8"))->winner.route->path().med, 7u);
  EXPECT_EQ(pipeline->explain(P("4.0.0.0/8"))->winner.route->path().med, 7u);
  scheduler.run_until_idle();
  for (const char* p : {"1.0.0.0/8", "2.0.0.0/8", "3.0.0.0/8", "4.0.0.0/8"}) {
    EXPECT_EQ(pipeline->explain(P(p))->winner.route->path().med, 7u) << p;
    EXPECT_EQ(s2.table.at(P(p))->attrs().med, std::nullopt) << p;  // MED not sent to eBGP
  }
  EXPECT_EQ(rib.all().size(), 4u);
  EXPECT_EQ(pipeline->counters(e1)->accepted, 4u);
  EXPECT_TRUE(rib.errors.empty()) << ::testing::PrintToString(rib.errors);
}

TEST_F(PolicyChangeTest, ImportWalkLetsOtherPeersThrough) {
  std::vector<std::string> many;
  for (int i = 0; i < 50; ++i) many.push_back("10." + std::to_string(i) + ".0.0/16");
  Send(e1, many);
  scheduler.run_until_idle();
  ASSERT_TRUE(pipeline->set_import_policy(e1, Reject("10.0.0.0/16")).ok());
  ASSERT_TRUE(scheduler.run_slice());
  Send(e2, {"20.0.0.0/8"});  // another peer's route while the walk runs
  scheduler.run_slice();
  scheduler.run_slice();
  EXPECT_TRUE(s1.table.contains(P("20.0.0.0/8")));  // delivered long before the walk ends
  scheduler.run_until_idle();
  EXPECT_EQ(rib.all().size(), 50u);
  EXPECT_FALSE(rib.all().contains(P("10.0.0.0/16")));
  EXPECT_TRUE(rib.errors.empty()) << ::testing::PrintToString(rib.errors);
}

TEST_F(PolicyChangeTest, ExportPolicyOfADownPeerAppliesAtItsNextSession) {
  ASSERT_TRUE(pipeline->peer_down(e2).ok());
  ASSERT_TRUE(pipeline->set_export_policy(e2, Reject("1.0.0.0/8")).ok());
  Send(e1, {"1.0.0.0/8", "2.0.0.0/8"});
  test_util::FakeSessionSink again;
  ASSERT_TRUE(pipeline->peer_up(e2, A("2.2.2.2"), again).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(again.table.size(), 1u);
  EXPECT_TRUE(again.table.contains(P("2.0.0.0/8")));
}

TEST_F(PolicyChangeTest, DumpDoneOnceTheTableIsSent) {
  Send(e1, {"1.0.0.0/8", "2.0.0.0/8"});
  scheduler.run_until_idle();
  PeerId e3 = AddPeer(65003, "10.0.0.3");
  EXPECT_FALSE(pipeline->dump_done(e3));  // down
  test_util::FakeSessionSink s3;
  ASSERT_TRUE(pipeline->peer_up(e3, A("3.3.3.3"), s3).ok());
  EXPECT_FALSE(pipeline->dump_done(e3));
  scheduler.run_until_idle();
  EXPECT_TRUE(pipeline->dump_done(e3));
  EXPECT_EQ(s3.table.size(), 2u);
}

TEST_F(PolicyChangeTest, ZeroNexthopIsOurselvesAndNeedsNoAnswer) {
  oracle.set_auto_answer(false);
  PipelinePeerConfig own;
  own.local = true;
  const PeerId self = pipeline->add_peer(own).value();
  test_util::FakeSessionSink none;
  ASSERT_TRUE(pipeline->peer_up(self, A("9.9.9.9"), none).ok());
  Send(self, {"5.0.0.0/8"}, "0.0.0.0");
  // From a peer, a zero next hop is nobody: never used.
  Send(e1, {"6.0.0.0/8"}, "0.0.0.0");
  scheduler.run_until_idle();
  EXPECT_FALSE(s2.table.contains(P("6.0.0.0/8")));
  auto why = pipeline->explain(P("5.0.0.0/8"));
  ASSERT_TRUE(why);
  EXPECT_TRUE(why->winner.route->resolvable);
  EXPECT_EQ(why->winner.route->igp_metric, 0u);
  // To an eBGP peer it goes with our own address as next hop.
  ASSERT_TRUE(s2.table.contains(P("5.0.0.0/8")));
  EXPECT_EQ(*s2.table.at(P("5.0.0.0/8"))->attrs().next_hop, A("10.255.0.1"));
}

TEST_F(PolicyChangeTest, LocalAddressesSetBeforePeerUpAreOurNextHop) {
  ASSERT_TRUE(pipeline->peer_down(e2).ok());
  ASSERT_TRUE(pipeline->set_local_addresses(e2, A("10.255.0.9"), std::nullopt).ok());
  EXPECT_FALSE(pipeline->set_local_addresses(99, A("10.255.0.9"), std::nullopt).ok());
  Send(e1, {"1.0.0.0/8"});
  test_util::FakeSessionSink again;
  ASSERT_TRUE(pipeline->peer_up(e2, A("2.2.2.2"), again).ok());
  scheduler.run_until_idle();
  ASSERT_TRUE(again.table.contains(P("1.0.0.0/8")));
  EXPECT_EQ(*again.table.at(P("1.0.0.0/8"))->attrs().next_hop, A("10.255.0.9"));
}

}  // namespace
}  // namespace strata::bgp
