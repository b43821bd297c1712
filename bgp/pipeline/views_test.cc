// BgpPipeline's views of a peer's routes: what it sent, what became of each route and why, and
// what it is advertised.
#include <gtest/gtest.h>

#include "bgp/pipeline/bgp_pipeline.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::Attrs;
using test_util::P;
using Verdict = InputFilterStage::Verdict;
using NhState = NexthopResolverStage::State;

class ViewsTest : public ::testing::Test {
 protected:
  ViewsTest() {
    oracle.set_auto_answer(true);
    oracle.set_route(P("192.0.2.0/24"), 10);
    config.local_as = 65000;
    config.router_id = A("9.9.9.9");
    pipeline = std::make_unique<BgpPipeline>(config, oracle, rib, scheduler);
    e1 = AddPeer(65001, "10.0.0.1");
    e2 = AddPeer(65002, "10.0.0.2");
    EXPECT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
    EXPECT_TRUE(pipeline->peer_up(e2, A("2.2.2.2"), s2).ok());
  }
  PeerId AddPeer(uint32_t as, const std::string& addr, bool default_originate = false) {
    PipelinePeerConfig c;
    c.address = A(addr);
    c.peer_as = as;
    c.default_originate = default_originate;
    c.local_address = A("10.255.0.1");
    return pipeline->add_peer(c).value();
  }
  void Send(PeerId id, std::vector<uint32_t> path, const std::string& prefix,
            const std::string& next_hop = "192.0.2.1") {
    const IpPrefix p = P(prefix);
    ASSERT_TRUE(
        pipeline
            ->receive_update(id, Attrs({.path = path, .next_hop = next_hop}), std::span(&p, 1), {})
            .ok());
  }
  BgpPipeline::RouteFate Fate(PeerId id, const std::string& prefix) {
    auto f = pipeline->fate(id, P(prefix));
    EXPECT_TRUE(f.ok() && f->has_value()) << prefix;
    return f.ok() && *f ? **f : BgpPipeline::RouteFate{};
  }

  FakeNexthopOracle oracle;
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  PipelineConfig config;
  std::unique_ptr<BgpPipeline> pipeline;
  test_util::FakeSessionSink s1, s2;
  PeerId e1 = 0, e2 = 0;
};

TEST_F(ViewsTest, EachReceivedRouteHasItsFate) {
  ASSERT_TRUE(
      pipeline
          ->set_import_policy(
              e1, [](const BgpRouteRef& r) { return r->prefix == P("3.0.0.0/8") ? nullptr : r; })
          .ok());
  Send(e1, {65001}, "1.0.0.0/8");
  Send(e1, {65001, 65000}, "2.0.0.0/8");           // AS loop
  Send(e1, {65001}, "3.0.0.0/8");                  // rejected by policy
  Send(e1, {65001}, "4.0.0.0/8", "198.51.100.1");  // next hop unresolvable
  Send(e1, {65001, 7}, "5.0.0.0/8");
  Send(e2, {65002}, "5.0.0.0/8");  // shorter: wins
  scheduler.run_until_idle();

  auto f = Fate(e1, "1.0.0.0/8");
  EXPECT_EQ(f.verdict, Verdict::kPass);
  EXPECT_EQ(f.nexthop, NhState::kReachable);
  ASSERT_TRUE(f.candidate);
  EXPECT_EQ(f.candidate->igp_metric, 10u);
  EXPECT_TRUE(f.best);
  EXPECT_FALSE(f.stale);
  f = Fate(e1, "2.0.0.0/8");
  EXPECT_EQ(f.verdict, Verdict::kAsLoop);
  EXPECT_FALSE(f.accepted);
  EXPECT_TRUE(f.received);
  EXPECT_EQ(Fate(e1, "3.0.0.0/8").verdict, Verdict::kPolicy);
  f = Fate(e1, "4.0.0.0/8");
  EXPECT_EQ(f.verdict, Verdict::kPass);
  EXPECT_EQ(f.nexthop, NhState::kUnreachable);
  EXPECT_FALSE(f.candidate);
  f = Fate(e1, "5.0.0.0/8");
  EXPECT_TRUE(f.candidate);
  EXPECT_FALSE(f.best);
  EXPECT_TRUE(Fate(e2, "5.0.0.0/8").best);
  // The decision names the step that eliminated e1's route: the longer AS path.
  const auto ex = pipeline->explain(P("5.0.0.0/8"));
  ASSERT_TRUE(ex);
  ASSERT_EQ(ex->candidates.size(), 2u);
  ASSERT_EQ(ex->lost_at.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(ex->lost_at[i], DecisionReason::kAsPathLength) << i;  // winner: its reason too
  }
  EXPECT_FALSE(pipeline->fate(e2, P("1.0.0.0/8")).value().has_value());
  EXPECT_FALSE(pipeline->fate(99, P("1.0.0.0/8")).ok());

  std::vector<std::string> seen;
  ASSERT_TRUE(pipeline
                  ->for_each_received(e1, std::nullopt,
                                      [&](const BgpPipeline::RouteFate& r) {
                                        seen.push_back(r.received->prefix.ToString());
                                        return true;
                                      })
                  .ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"1.0.0.0/8", "2.0.0.0/8", "3.0.0.0/8", "4.0.0.0/8",
                                            "5.0.0.0/8"}));
  seen.clear();
  ASSERT_TRUE(pipeline
                  ->for_each_received(e1, std::nullopt,
                                      [&](const BgpPipeline::RouteFate& r) {
                                        seen.push_back(r.received->prefix.ToString());
                                        return seen.size() < 2;
                                      })
                  .ok());
  EXPECT_EQ(seen.size(), 2u);
  // A page after a cursor starts past it.
  seen.clear();
  ASSERT_TRUE(pipeline
                  ->for_each_received(
                      e1, std::nullopt,
                      [&](const BgpPipeline::RouteFate& r) {
                        seen.push_back(r.received->prefix.ToString());
                        return true;
                      },
                      P("3.0.0.0/8"))
                  .ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"4.0.0.0/8", "5.0.0.0/8"}));

  // e2 is advertised e1's usable winners (1/8), with our AS prepended; e1 gets e2's 5/8.
  std::map<std::string, std::string> adv;
  ASSERT_TRUE(pipeline
                  ->for_each_advertised(e2, std::nullopt,
                                        [&](const BgpRouteRef& r) {
                                          adv[r->prefix.ToString()] = r->path().as_path->ToString();
                                          return true;
                                        })
                  .ok());
  EXPECT_EQ(adv, (std::map<std::string, std::string>{{"1.0.0.0/8", "65000 65001"}}));
  adv.clear();
  ASSERT_TRUE(pipeline
                  ->for_each_advertised(e1, P("5.0.0.0/8"),
                                        [&](const BgpRouteRef& r) {
                                          adv[r->prefix.ToString()] = r->path().as_path->ToString();
                                          return true;
                                        })
                  .ok());
  EXPECT_EQ(adv, (std::map<std::string, std::string>{{"5.0.0.0/8", "65000 65002"}}));
  ASSERT_TRUE(pipeline->peer_down(e1).ok());
  EXPECT_EQ(pipeline->for_each_advertised(e1, std::nullopt, [](const BgpRouteRef&) { return true; })
                .code(),
            StatusCode::kFailedPrecondition);
}

// The default route default-originate sends is advertised though no branch holds it: the
// advertised view lists it with the routes the peer gets.
TEST_F(ViewsTest, AdvertisedListsTheDefaultRouteOfDefaultOriginate) {
  test_util::FakeSessionSink s3;
  const PeerId e3 = AddPeer(65003, "10.0.0.3", /*default_originate=*/true);
  ASSERT_TRUE(pipeline->peer_up(e3, A("3.3.3.3"), s3).ok());
  ASSERT_TRUE(pipeline->set_import_policy(e1, [](const BgpRouteRef& r) { return r; }).ok());
  Send(e1, {65001}, "1.0.0.0/8");
  scheduler.run_until_idle();
  std::vector<std::string> adv;
  ASSERT_TRUE(pipeline
                  ->for_each_advertised(e3, std::nullopt,
                                        [&](const BgpRouteRef& r) {
                                          adv.push_back(r->prefix.ToString());
                                          return true;
                                        })
                  .ok());
  EXPECT_EQ(adv, (std::vector<std::string>{"0.0.0.0/0", "1.0.0.0/8"}));
  // A peer without it is not advertised a default.
  adv.clear();
  ASSERT_TRUE(pipeline
                  ->for_each_advertised(e2, std::nullopt,
                                        [&](const BgpRouteRef& r) {
                                          adv.push_back(r->prefix.ToString());
                                          return true;
                                        })
                  .ok());
  EXPECT_EQ(adv, (std::vector<std::string>{"1.0.0.0/8"}));
}

}  // namespace
}  // namespace strata::bgp
