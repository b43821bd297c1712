// Damping in the whole pipeline: only eBGP branches get the stage, a flapping prefix leaves the
// RIB and the other peers and comes back on reuse, session resets are not flaps, turning damping
// off releases what it holds.
#include <gtest/gtest.h>

#include "bgp/pipeline/bgp_pipeline.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"
#include "testing/common/fake_clock.h"

namespace strata::bgp {
namespace {

using std::chrono::minutes;
using test_util::A;
using test_util::Attrs;
using test_util::P;

class DampingPipelineTest : public ::testing::Test {
 protected:
  DampingPipelineTest() {
    oracle.set_auto_answer(true);
    oracle.set_route(P("192.0.2.0/24"), 10);
    config.local_as = 65000;
    config.router_id = A("9.9.9.9");
    config.clock = &clock;
    pipeline = std::make_unique<BgpPipeline>(config, oracle, rib, scheduler);
    e1 = AddPeer(65001, "10.0.0.1");
    i2 = AddPeer(65000, "10.0.0.2");
    EXPECT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
    EXPECT_TRUE(pipeline->peer_up(i2, A("2.2.2.2"), s2).ok());
  }
  PeerId AddPeer(uint32_t as, const std::string& addr) {
    PipelinePeerConfig c;
    c.address = A(addr);
    c.peer_as = as;
    c.local_address = A("10.255.0.1");
    return pipeline->add_peer(c).value();
  }
  void Announce(PeerId id, uint32_t as, const std::string& prefix) {
    const IpPrefix p = P(prefix);
    ASSERT_TRUE(pipeline->receive_update(id, Attrs({.path = {as}}), {&p, 1}, {}).ok());
    scheduler.run_until_idle();
  }
  void Withdraw(PeerId id, const std::string& prefix) {
    const IpPrefix p = P(prefix);
    ASSERT_TRUE(pipeline->receive_update(id, nullptr, {}, {&p, 1}).ok());
    scheduler.run_until_idle();
  }
  void Flap(PeerId id, uint32_t as, const std::string& prefix, int times) {
    for (int i = 0; i < times; ++i) {
      Announce(id, as, prefix);
      Withdraw(id, prefix);
    }
    Announce(id, as, prefix);
  }
  void Advance(std::chrono::steady_clock::duration d) {
    clock.advance(d);
    scheduler.run_until_idle();
  }

  FakeNexthopOracle oracle;
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  FakeClock clock;
  PipelineConfig config;
  std::unique_ptr<BgpPipeline> pipeline;
  test_util::FakeSessionSink s1, s2;
  PeerId e1 = 0, i2 = 0;
};

TEST_F(DampingPipelineTest, OffByDefaultAndNeedsValidParameters) {
  EXPECT_FALSE(pipeline->damping());
  Flap(e1, 65001, "10.1.0.0/16", 5);
  EXPECT_TRUE(rib.all().contains(P("10.1.0.0/16")));
  EXPECT_TRUE(pipeline->damped_routes().empty());
  DampingParams bad;
  bad.reuse = 3000;
  Status s = pipeline->set_damping(bad);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message().rfind("suppress:", 0), 0u) << s.message();
  EXPECT_FALSE(pipeline->damping());
}

TEST_F(DampingPipelineTest, FlappingEbgpPrefixIsSuppressedEverywhereAndReused) {
  ASSERT_TRUE(pipeline->set_damping(DampingParams{}).ok());
  Flap(e1, 65001, "10.1.0.0/16", 3);
  Flap(i2, 7, "10.2.0.0/16", 3);  // iBGP: not damped
  EXPECT_FALSE(rib.all().contains(P("10.1.0.0/16")));
  EXPECT_FALSE(s2.table.contains(P("10.1.0.0/16")));
  EXPECT_TRUE(rib.all().contains(P("10.2.0.0/16")));
  auto damped = pipeline->damped_routes();
  ASSERT_EQ(damped.size(), 1u);
  EXPECT_EQ(damped[0].peer, e1);
  EXPECT_TRUE(damped[0].entry.suppressed);
  EXPECT_EQ(damped[0].entry.flaps, 3u);
  EXPECT_EQ(pipeline->counters(e1).value().damping_suppressed, 1u);

  // 3000 decays to 750 in two half-lives.
  Advance(minutes(30));
  EXPECT_TRUE(rib.all().contains(P("10.1.0.0/16")));
  EXPECT_TRUE(s2.table.contains(P("10.1.0.0/16")));
  EXPECT_TRUE(rib.errors.empty()) << rib.errors.front();
}

TEST_F(DampingPipelineTest, SessionResetIsNotAFlapAndSuppressionSurvivesIt) {
  ASSERT_TRUE(pipeline->set_damping(DampingParams{}).ok());
  Announce(e1, 65001, "10.3.0.0/16");
  Flap(e1, 65001, "10.1.0.0/16", 3);
  ASSERT_TRUE(pipeline->peer_down(e1).ok());
  scheduler.run_until_idle();
  EXPECT_FALSE(rib.all().contains(P("10.3.0.0/16")));
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
  Announce(e1, 65001, "10.3.0.0/16");
  Announce(e1, 65001, "10.1.0.0/16");
  auto damped = pipeline->damped_routes();
  ASSERT_EQ(damped.size(), 1u);  // 10.3/16 was never charged
  EXPECT_EQ(damped[0].entry.prefix, P("10.1.0.0/16"));
  EXPECT_TRUE(damped[0].entry.suppressed);
  EXPECT_FALSE(rib.all().contains(P("10.1.0.0/16")));
  EXPECT_TRUE(rib.errors.empty()) << rib.errors.front();
}

TEST_F(DampingPipelineTest, ClearAndTurningOffReleaseSuppressedRoutes) {
  ASSERT_TRUE(pipeline->set_damping(DampingParams{}).ok());
  Flap(e1, 65001, "10.1.0.0/16", 3);
  Flap(e1, 65001, "10.4.0.0/16", 3);
  EXPECT_EQ(pipeline->clear_damping(P("10.4.0.0/16")), 1u);
  scheduler.run_until_idle();
  EXPECT_TRUE(rib.all().contains(P("10.4.0.0/16")));
  EXPECT_FALSE(rib.all().contains(P("10.1.0.0/16")));
  EXPECT_TRUE(s2.table.contains(P("10.4.0.0/16")));
  ASSERT_TRUE(pipeline->set_damping(std::nullopt).ok());
  scheduler.run_until_idle();
  EXPECT_TRUE(rib.all().contains(P("10.1.0.0/16")));
  EXPECT_TRUE(s2.table.contains(P("10.1.0.0/16")));
  EXPECT_TRUE(pipeline->damped_routes().empty());
  EXPECT_EQ(clock.armed(), 0u);
  EXPECT_TRUE(rib.errors.empty()) << rib.errors.front();
}

}  // namespace
}  // namespace strata::bgp
