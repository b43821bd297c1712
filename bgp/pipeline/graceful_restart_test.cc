// Graceful restart helper in the pipeline (RFC 4724 4.2): a peer's routes kept as stale across
// a session loss, replaced by re-announcements, swept on End-of-RIB or a timer, per family.
#include <gtest/gtest.h>

#include "bgp/pipeline/bgp_pipeline.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::Attrs;
using test_util::P;

class GracefulRestartTest : public ::testing::Test {
 protected:
  GracefulRestartTest() {
    oracle.set_auto_answer(true);
    oracle.set_route(P("192.0.2.0/24"), 10);
    oracle.set_route(P("2001:db8::/32"), 10);
    config.local_as = 65000;
    config.router_id = A("9.9.9.9");
    config.deletion_slice = 2;
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
    c.other_family_local_address = A("2001:db8:ff::1");
    return pipeline->add_peer(c).value();
  }
  void Send(PeerId id, std::vector<uint32_t> path, const std::vector<std::string>& prefixes,
            const std::string& next_hop = "192.0.2.1") {
    std::vector<IpPrefix> ps;
    for (const auto& s : prefixes) ps.push_back(P(s));
    ASSERT_TRUE(
        pipeline->receive_update(id, Attrs({.path = path, .next_hop = next_hop}), ps, {}).ok());
  }
  uint64_t Stale(PeerId id) { return pipeline->counters(id).value().stale; }
  std::string PathAtRib(const std::string& prefix) {
    auto all = rib.all();
    auto it = all.find(P(prefix));
    return it == all.end() ? "none" : it->second->path().as_path->ToString();
  }

  FakeNexthopOracle oracle;
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  PipelineConfig config;
  std::unique_ptr<BgpPipeline> pipeline;
  test_util::FakeSessionSink s1, s2;
  PeerId e1 = 0, e2 = 0;
};

TEST_F(GracefulRestartTest, StaleRoutesStayUntilEndOfRibSweep) {
  Send(e1, {65001}, {"1.0.0.0/8", "2.0.0.0/8", "3.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_EQ(rib.all().size(), 3u);
  EXPECT_EQ(Stale(e1), 0u);

  ASSERT_TRUE(pipeline->peer_down_graceful(e1).ok());
  scheduler.run_until_idle();
  // Kept everywhere: decision, RIB and the other peer; all marked stale.
  EXPECT_EQ(Stale(e1), 3u);
  EXPECT_EQ(rib.all().size(), 3u);
  EXPECT_EQ(s2.table.size(), 3u);
  EXPECT_FALSE(pipeline->counters(e1).value().up);
  EXPECT_EQ(pipeline->counters(e1).value().received, 3u);

  // The peer comes back: a re-announcement replaces its stale route (a changed path reaches
  // the RIB and the other peer as a replace), the rest stay stale.
  test_util::FakeSessionSink again;
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), again).ok());
  EXPECT_EQ(Stale(e1), 3u);
  Send(e1, {65001}, {"1.0.0.0/8"});
  Send(e1, {65001, 7}, {"2.0.0.0/8"});
  scheduler.run_until_idle();
  EXPECT_EQ(Stale(e1), 1u);
  EXPECT_EQ(PathAtRib("2.0.0.0/8"), "65001 7");
  EXPECT_EQ(rib.all().size(), 3u);

  // End-of-RIB: 3/8 was not re-announced and goes, in deletion slices.
  ASSERT_TRUE(pipeline->sweep_stale(e1, Family::kIpv4).ok());
  EXPECT_EQ(Stale(e1), 0u);
  EXPECT_EQ(pipeline->counters(e1).value().deletions_pending, 1u);
  scheduler.run_until_idle();
  EXPECT_EQ(pipeline->counters(e1).value().deletions_pending, 0u);
  EXPECT_EQ(rib.all().size(), 2u);
  EXPECT_EQ(PathAtRib("3.0.0.0/8"), "none");
  EXPECT_EQ(s2.table.size(), 2u);
  EXPECT_TRUE(rib.errors.empty());
}

TEST_F(GracefulRestartTest, SweepIsPerFamily) {
  Send(e1, {65001}, {"1.0.0.0/8"});
  Send(e1, {65001}, {"2001:db8:1::/48"}, "2001:db8::1");
  scheduler.run_until_idle();
  ASSERT_EQ(rib.all().size(), 2u);
  ASSERT_TRUE(pipeline->peer_down_graceful(e1).ok());
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
  // The new OPEN does not keep IPv6 forwarding: its stale routes go at once; IPv4 waits.
  ASSERT_TRUE(pipeline->sweep_stale(e1, Family::kIpv6).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(Stale(e1), 1u);
  EXPECT_EQ(PathAtRib("2001:db8:1::/48"), "none");
  EXPECT_EQ(PathAtRib("1.0.0.0/8"), "65001");
  ASSERT_TRUE(pipeline->sweep_stale(e1, Family::kIpv4).ok());
  scheduler.run_until_idle();
  EXPECT_TRUE(rib.all().empty());
  EXPECT_TRUE(rib.errors.empty());
}

TEST_F(GracefulRestartTest, TimerExpiryWhileDownWithdrawsEverything) {
  Send(e1, {65001}, {"1.0.0.0/8", "2.0.0.0/8", "3.0.0.0/8", "4.0.0.0/8", "5.0.0.0/8"});
  Send(e2, {65002, 9}, {"1.0.0.0/8"});  // a longer backup path
  scheduler.run_until_idle();
  ASSERT_TRUE(pipeline->peer_down_graceful(e1).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(pipeline->explain(P("1.0.0.0/8"))->winner.route->peer->id, e1);  // still best
  // The restart timer ends with the peer still down: everything is withdrawn.
  ASSERT_TRUE(pipeline->sweep_stale(e1).ok());
  EXPECT_EQ(Stale(e1), 0u);
  scheduler.run_slice();
  EXPECT_GT(rib.all().size(), 1u);  // in slices, not all at once
  scheduler.run_until_idle();
  ASSERT_EQ(rib.all().size(), 1u);
  EXPECT_EQ(PathAtRib("1.0.0.0/8"), "65002 9");  // the backup took over
  EXPECT_EQ(pipeline->counters(e1).value().received, 0u);
  EXPECT_TRUE(rib.errors.empty());
}

TEST_F(GracefulRestartTest, NonGracefulPeerUnaffected) {
  Send(e1, {65001}, {"1.0.0.0/8"});
  Send(e2, {65002}, {"2.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_TRUE(pipeline->peer_down_graceful(e1).ok());
  ASSERT_TRUE(pipeline->peer_down(e2).ok());
  EXPECT_EQ(Stale(e2), 0u);
  scheduler.run_until_idle();
  EXPECT_EQ(PathAtRib("2.0.0.0/8"), "none");
  EXPECT_EQ(PathAtRib("1.0.0.0/8"), "65001");
  // Sweeping a peer without stale routes is harmless.
  ASSERT_TRUE(pipeline->sweep_stale(e2).ok());
  EXPECT_EQ(pipeline->counters(e2).value().deletions_pending, 0u);
  EXPECT_FALSE(pipeline->sweep_stale(99).ok());
  EXPECT_FALSE(pipeline->peer_down_graceful(e2).ok());  // not up
}

TEST_F(GracefulRestartTest, FlapDuringStalePeriod) {
  Send(e1, {65001}, {"1.0.0.0/8", "2.0.0.0/8", "3.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_TRUE(pipeline->peer_down_graceful(e1).ok());
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
  Send(e1, {65001, 5}, {"1.0.0.0/8", "4.0.0.0/8"});
  EXPECT_EQ(Stale(e1), 2u);
  // Down again before End-of-RIB: the re-announced routes become stale as well.
  ASSERT_TRUE(pipeline->peer_down_graceful(e1).ok());
  EXPECT_EQ(Stale(e1), 4u);
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
  Send(e1, {65001, 6}, {"2.0.0.0/8"});
  // A withdrawal of a stale route takes it out at once.
  ASSERT_TRUE(
      pipeline->receive_update(e1, nullptr, {}, std::vector<IpPrefix>{P("4.0.0.0/8")}).ok());
  EXPECT_EQ(Stale(e1), 2u);
  ASSERT_TRUE(pipeline->sweep_stale(e1, Family::kIpv4).ok());
  scheduler.run_until_idle();
  ASSERT_EQ(rib.all().size(), 1u);
  EXPECT_EQ(PathAtRib("2.0.0.0/8"), "65001 6");
  EXPECT_EQ(s2.table.size(), 1u);
  EXPECT_TRUE(rib.errors.empty());
}

TEST_F(GracefulRestartTest, NonGracefulDownAfterStaleDropsAll) {
  Send(e1, {65001}, {"1.0.0.0/8", "2.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_TRUE(pipeline->peer_down_graceful(e1).ok());
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
  Send(e1, {65001}, {"1.0.0.0/8"});
  ASSERT_TRUE(pipeline->peer_down(e1).ok());  // a NOTIFICATION this time
  EXPECT_EQ(Stale(e1), 0u);
  scheduler.run_until_idle();
  EXPECT_TRUE(rib.all().empty());
  // Removing a peer with stale routes withdraws them and the peer goes.
  Send(e2, {65002}, {"5.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_TRUE(pipeline->peer_down_graceful(e2).ok());
  ASSERT_TRUE(pipeline->remove_peer(e2).ok());
  scheduler.run_until_idle();
  EXPECT_FALSE(pipeline->has_peer(e2));
  EXPECT_TRUE(rib.all().empty());
  EXPECT_TRUE(rib.errors.empty());
}

}  // namespace
}  // namespace strata::bgp
