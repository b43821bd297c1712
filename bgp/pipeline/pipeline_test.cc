// BgpPipeline end to end: peers up and down, the RIB output, per-peer output and counters.
#include <gtest/gtest.h>

#include "bgp/pipeline/bgp_pipeline.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::Attrs;
using test_util::P;

class PipelineTest : public ::testing::Test {
 protected:
  PipelineTest() {
    oracle.set_auto_answer(true);
    oracle.set_route(P("192.0.2.0/24"), 10);
    config.local_as = 65000;
    config.router_id = A("9.9.9.9");
    config.deletion_slice = 5;
    pipeline = std::make_unique<BgpPipeline>(config, oracle, rib, scheduler);
  }
  // A new pipeline with the current config (the oracle serves one pipeline at a time).
  void Rebuild() {
    pipeline.reset();
    pipeline = std::make_unique<BgpPipeline>(config, oracle, rib, scheduler);
  }
  // eBGP peers 65001 and 65002, up with sinks s1 and s2.
  std::pair<PeerId, PeerId> TwoPeersUp(test_util::FakeSessionSink& s1,
                                       test_util::FakeSessionSink& s2) {
    PeerId e1 = AddPeer(65001, "10.0.0.1");
    PeerId e2 = AddPeer(65002, "10.0.0.2");
    EXPECT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
    EXPECT_TRUE(pipeline->peer_up(e2, A("2.2.2.2"), s2).ok());
    return {e1, e2};
  }
  PeerId AddPeer(uint32_t as, const std::string& addr) {
    PipelinePeerConfig c;
    c.address = A(addr);
    c.peer_as = as;
    c.local_address = A("10.255.0.1");
    return pipeline->add_peer(c).value();
  }
  void Send(PeerId id, std::vector<uint32_t> path, const std::vector<std::string>& prefixes,
            std::optional<uint32_t> local_pref = std::nullopt) {
    std::vector<IpPrefix> ps;
    for (const auto& s : prefixes) ps.push_back(P(s));
    ASSERT_TRUE(
        pipeline->receive_update(id, Attrs({.path = path, .local_pref = local_pref}), ps, {}).ok());
  }

  FakeNexthopOracle oracle;
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  PipelineConfig config;
  std::unique_ptr<BgpPipeline> pipeline;
};

TEST_F(PipelineTest, RoutesReachRibAndPeers) {
  PeerId e1 = AddPeer(65001, "10.0.0.1");
  PeerId e2 = AddPeer(65002, "10.0.0.2");
  PeerId i3 = AddPeer(65000, "10.0.0.3");
  test_util::FakeSessionSink s1, s2, s3;
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
  ASSERT_TRUE(pipeline->peer_up(e2, A("2.2.2.2"), s2).ok());
  ASSERT_TRUE(pipeline->peer_up(i3, A("3.3.3.3"), s3).ok());
  Send(e1, {65001}, {"1.0.0.0/8", "2.0.0.0/8"});
  Send(e2, {65002, 7}, {"1.0.0.0/8"});
  Send(i3, {7}, {"3.0.0.0/8"}, 200);
  Send(e2, {65002, 65000}, {"4.0.0.0/8"});  // AS loop
  scheduler.run_until_idle();

  EXPECT_EQ(rib.tables[0].size(), 2u);  // ebgp: 1/8 and 2/8 from e1
  EXPECT_EQ(rib.tables[1].size(), 1u);  // ibgp: 3/8
  EXPECT_EQ(rib.tables[0].at(P("1.0.0.0/8"))->peer->id, e1);
  EXPECT_TRUE(rib.errors.empty());
  auto why = pipeline->explain(P("1.0.0.0/8"));
  ASSERT_TRUE(why);
  EXPECT_EQ(why->winner.reason, DecisionReason::kAsPathLength);

  // e1 gets nothing of its own, 3/8 from iBGP with our AS prepended and our next hop.
  EXPECT_EQ(s1.table.size(), 1u);
  EXPECT_EQ(s1.table.at(P("3.0.0.0/8"))->attrs().as_path->ToString(), "65000 7");
  EXPECT_EQ(*s1.table.at(P("3.0.0.0/8"))->attrs().next_hop, A("10.255.0.1"));
  EXPECT_EQ(s2.table.size(), 3u);
  EXPECT_EQ(s3.table.size(), 2u);  // not its own, and eBGP routes only

  PipelinePeerCounters c = pipeline->counters(e2).value();
  EXPECT_EQ(c.received, 2u);
  EXPECT_EQ(c.accepted, 1u);
  EXPECT_EQ(c.as_loop, 1u);
  EXPECT_EQ(c.advertised, 3u);
  EXPECT_EQ(pipeline->counters(e1).value().advertised, 1u);
}

// Issue 5: while a big table is withdrawn in the background, another peer's new route reaches
// the other peers after a few slices, not behind the whole withdrawal in the fanout's queue
// (deletes are produced only as fast as the readers take them).
TEST_F(PipelineTest, NewRouteOfAnotherPeerDoesNotWaitForAWithdrawal) {
  config.deletion_slice = 50;
  config.fanout_slice = 10;
  pipeline.reset();  // it leaves the oracle: before the new one registers
  pipeline = std::make_unique<BgpPipeline>(config, oracle, rib, scheduler);
  PeerId e1 = AddPeer(65001, "10.0.0.1");
  PeerId e2 = AddPeer(65002, "10.0.0.2");
  PeerId e3 = AddPeer(65003, "10.0.0.3");
  test_util::FakeSessionSink s1, s2, s3;
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
  ASSERT_TRUE(pipeline->peer_up(e2, A("2.2.2.2"), s2).ok());
  ASSERT_TRUE(pipeline->peer_up(e3, A("3.3.3.3"), s3).ok());
  std::vector<std::string> many;
  for (int i = 0; i < 1000; ++i) {
    many.push_back("20." + std::to_string(i / 256) + "." + std::to_string(i % 256) + ".0/24");
  }
  Send(e1, {65001}, many);
  scheduler.run_until_idle();
  ASSERT_EQ(s3.table.size(), 1000u);

  ASSERT_TRUE(pipeline->peer_down(e1).ok());
  for (int i = 0; i < 20; ++i) scheduler.run_slice();
  Send(e2, {65002}, {"30.0.0.0/24"});
  for (int i = 0; i < 16; ++i) scheduler.run_slice();
  EXPECT_TRUE(s3.table.contains(P("30.0.0.0/24")));
  EXPECT_GT(s3.table.size(), 500u);  // most of e1's routes are still being withdrawn
  EXPECT_EQ(pipeline->counters(e1).value().deletions_pending, 1u);

  scheduler.run_until_idle();
  EXPECT_EQ(s3.table.size(), 1u);
  EXPECT_EQ(rib.all().size(), 1u);
  EXPECT_TRUE(rib.errors.empty());
}

TEST_F(PipelineTest, LateJoinerDumpAndPeerDownInBackground) {
  PeerId e1 = AddPeer(65001, "10.0.0.1");
  PeerId e2 = AddPeer(65002, "10.0.0.2");
  test_util::FakeSessionSink s1;
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
  std::vector<std::string> many;
  for (int i = 0; i < 40; ++i) many.push_back("20.0." + std::to_string(i) + ".0/24");
  Send(e1, {65001}, many);
  scheduler.run_until_idle();
  EXPECT_EQ(rib.all().size(), 40u);

  test_util::FakeSessionSink s2;
  ASSERT_TRUE(pipeline->peer_up(e2, A("2.2.2.2"), s2).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(s2.table.size(), 40u);  // the dump

  // e1 flaps twice while its deletions are pending, and comes back with part of the table.
  ASSERT_TRUE(pipeline->peer_down(e1).ok());
  scheduler.run_slice();
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
  Send(e1, {65001, 5}, {"20.0.1.0/24", "20.0.39.0/24"});
  ASSERT_TRUE(pipeline->peer_down(e1).ok());
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
  Send(e1, {65001, 6}, {"20.0.2.0/24"});
  EXPECT_EQ(pipeline->counters(e1).value().deletions_pending, 2u);
  scheduler.run_until_idle();
  EXPECT_EQ(pipeline->counters(e1).value().deletions_pending, 0u);
  EXPECT_EQ(rib.all().size(), 1u);
  EXPECT_EQ(s2.table.size(), 1u);
  EXPECT_EQ(s2.table.at(P("20.0.2.0/24"))->attrs().as_path->ToString(), "65000 65001 6");
  EXPECT_TRUE(rib.errors.empty());

  ASSERT_TRUE(pipeline->remove_peer(e1).ok());
  scheduler.run_until_idle();
  EXPECT_FALSE(pipeline->has_peer(e1));
  EXPECT_TRUE(rib.all().empty());
  EXPECT_TRUE(s2.table.empty());
}

// No table of winners: a late joiner's dump walks the prefixes of every branch (PeerIn's and the
// deletion stages') and sends each prefix's winner as chosen when the dump reaches it, here
// while a flapped peer's routes are still being withdrawn in the background.
TEST_F(PipelineTest, LateJoinerDumpSendsEachPrefixsWinnerAcrossBranches) {
  test_util::FakeSessionSink s1;
  test_util::FakeSessionSink s2;
  auto [e1, e2] = TwoPeersUp(s1, s2);
  std::vector<std::string> first;
  std::vector<std::string> second;
  for (int i = 0; i < 10; ++i) first.push_back("20.0." + std::to_string(i) + ".0/24");
  for (int i = 5; i < 15; ++i) second.push_back("20.0." + std::to_string(i) + ".0/24");
  Send(e1, {65001}, first);
  Send(e2, {65002, 7}, second);  // longer: e1 wins 20.0.5-9
  scheduler.run_until_idle();
  EXPECT_EQ(rib.all().size(), 15u);
  EXPECT_EQ(rib.all().at(P("20.0.7.0/24"))->peer->address, A("10.0.0.1"));

  PeerId e3 = AddPeer(65003, "10.0.0.3");
  test_util::FakeSessionSink s3;
  ASSERT_TRUE(pipeline->peer_up(e3, A("3.3.3.3"), s3).ok());
  ASSERT_TRUE(pipeline->peer_down(e1).ok());  // e1's ten routes go in 5-route slices
  scheduler.run_slice();
  EXPECT_EQ(pipeline->counters(e1).value().deletions_pending, 1u);
  scheduler.run_until_idle();
  ASSERT_EQ(s3.table.size(), 10u);
  for (int i = 5; i < 15; ++i) {
    const IpPrefix p = P("20.0." + std::to_string(i) + ".0/24");
    ASSERT_TRUE(s3.table.contains(p)) << p.ToString();
    EXPECT_EQ(s3.table.at(p)->attrs().as_path->ToString(), "65000 65002 7");
  }
  EXPECT_EQ(rib.all().size(), 10u);
  EXPECT_TRUE(rib.errors.empty()) << rib.errors.front();
}

TEST_F(PipelineTest, BusySessionStopsItsReaderOnly) {
  PeerId e1 = AddPeer(65001, "10.0.0.1");
  PeerId e2 = AddPeer(65002, "10.0.0.2");
  PeerId e3 = AddPeer(65003, "10.0.0.3");
  test_util::FakeSessionSink s1, s2, s3;
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s1).ok());
  ASSERT_TRUE(pipeline->peer_up(e2, A("2.2.2.2"), s2).ok());
  ASSERT_TRUE(pipeline->peer_up(e3, A("3.3.3.3"), s3).ok());
  scheduler.run_until_idle();
  s2.is_busy = true;
  Send(e1, {65001}, {"1.0.0.0/8"});
  scheduler.run_until_idle();
  Send(e1, {65001}, {"2.0.0.0/8"});
  scheduler.run_until_idle();
  EXPECT_EQ(s3.table.size(), 2u);
  EXPECT_TRUE(s2.table.empty());
  EXPECT_GT(pipeline->fanout().queue_size(), 0u);
  EXPECT_FALSE(pipeline->peer_output_ready(99).ok());
  s2.is_busy = false;
  ASSERT_TRUE(pipeline->peer_output_ready(e2).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(s2.table.size(), 2u);
  EXPECT_EQ(pipeline->fanout().queue_size(), 0u);
}

// Route refresh without an Adj-RIB-Out: refresh_out walks the peer's branch and announces its
// routes again; a busy session stops the walk (no spinning, nothing piles up) until it is ready.
TEST_F(PipelineTest, RefreshOutAnnouncesAgainAndWaitsForABusySession) {
  config.deletion_slice = 2;
  Rebuild();
  test_util::FakeSessionSink s1, s2;
  const auto [e1, e2] = TwoPeersUp(s1, s2);
  Send(e1, {65001}, {"1.0.0.0/8", "2.0.0.0/8", "3.0.0.0/8", "4.0.0.0/8", "5.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_EQ(s2.table.size(), 5u);
  const uint64_t advertised = pipeline->counters(e2).value().advertised;
  auto announced = [&s2](size_t from) {
    size_t n = 0;
    for (size_t i = from; i < s2.batches.size(); ++i) {
      for (const auto& g : s2.batches[i].announcements) n += g.prefixes.size();
    }
    return n;
  };
  const size_t from = s2.batches.size();
  ASSERT_TRUE(pipeline->refresh_out(e2, Family::kIpv4).ok());
  ASSERT_TRUE(scheduler.run_slice());  // 1/8 and 2/8, sent at the slice's end
  EXPECT_EQ(announced(from), 2u);
  s2.is_busy = true;
  Send(e1, {65001}, {"6.0.0.0/8"});  // blocks the branch: its batch waits for the session
  scheduler.run_until_idle();        // ends: nothing spins while the session is busy
  EXPECT_EQ(announced(from), 2u);
  s2.is_busy = false;
  ASSERT_TRUE(pipeline->peer_output_ready(e2).ok());
  scheduler.run_until_idle();
  // 6/8 as a change (touched: the walk skips it), then 3/8 .. 5/8 by the walk.
  EXPECT_EQ(announced(from), 2u + 1u + 3u);
  EXPECT_EQ(s2.table.size(), 6u);
  EXPECT_EQ(pipeline->counters(e2).value().advertised, advertised + 1);
  EXPECT_FALSE(pipeline->refresh_out(99, Family::kIpv4).ok());
  ASSERT_TRUE(pipeline->peer_down(e2).ok());
  EXPECT_FALSE(pipeline->refresh_out(e2, Family::kIpv4).ok());  // not up
}

// The RIB sink keeps no table: it pauses its feed while behind, and has the whole table sent
// again when the RIB lost it; changes meanwhile arrive in a consistent order.
TEST_F(PipelineTest, RibFeedPausesAndResendsTheTable) {
  ASSERT_NE(rib.feed, nullptr);
  test_util::FakeSessionSink s1, s2;
  auto [e1, e2] = TwoPeersUp(s1, s2);
  Send(e1, {65001}, {"1.0.0.0/8", "2.0.0.0/8", "3.0.0.0/8"});
  scheduler.run_until_idle();
  ASSERT_EQ(rib.tables[0].size(), 3u);
  EXPECT_EQ(pipeline->rib_routes(), 3u);

  rib.feed->pause();
  Send(e2, {65002}, {"4.0.0.0/8"});
  scheduler.run_until_idle();
  EXPECT_EQ(rib.tables[0].size(), 3u);  // held in the fanout's queue
  EXPECT_EQ(s1.table.size(), 1u);       // the peers are not held back
  rib.feed->resume();
  scheduler.run_until_idle();
  EXPECT_EQ(rib.tables[0].size(), 4u);

  // The RIB lost everything: the sink forgets and asks for it all again.
  rib.tables[0].clear();
  rib.feed->resend();
  EXPECT_TRUE(rib.feed->resending());
  EXPECT_EQ(pipeline->rib_routes(), 0u);
  Send(e2, {65002}, {"5.0.0.0/8"});
  const std::vector<IpPrefix> gone = {P("1.0.0.0/8")};
  ASSERT_TRUE(pipeline->receive_update(e1, Attrs({.path = {65001}}), {}, gone).ok());
  scheduler.run_until_idle();
  EXPECT_FALSE(rib.feed->resending());
  EXPECT_TRUE(rib.errors.empty()) << rib.errors.front();
  std::vector<IpPrefix> held;
  for (const auto& [p, r] : rib.tables[0]) held.push_back(p);
  EXPECT_EQ(held, (std::vector<IpPrefix>{P("2.0.0.0/8"), P("3.0.0.0/8"), P("4.0.0.0/8"),
                                         P("5.0.0.0/8")}));
  EXPECT_EQ(pipeline->rib_routes(), 4u);
  pipeline.reset();
  EXPECT_EQ(rib.feed, nullptr);
}

TEST_F(PipelineTest, RejectsBadCalls) {
  PeerId e1 = AddPeer(65001, "10.0.0.1");
  PipelinePeerConfig dup;
  dup.address = A("10.0.0.1");
  EXPECT_FALSE(pipeline->add_peer(dup).ok());
  EXPECT_FALSE(pipeline->receive_update(e1, Attrs({}), {}, {}).ok());  // not up
  EXPECT_FALSE(pipeline->peer_down(e1).ok());
  test_util::FakeSessionSink s;
  ASSERT_TRUE(pipeline->peer_up(e1, A("1.1.1.1"), s).ok());
  EXPECT_FALSE(pipeline->peer_up(e1, A("1.1.1.1"), s).ok());
  std::vector<IpPrefix> ps{P("1.0.0.0/8")};
  EXPECT_FALSE(pipeline->receive_update(e1, nullptr, ps, {}).ok());
  EXPECT_FALSE(pipeline->counters(42).ok());
}

}  // namespace
}  // namespace strata::bgp

namespace strata::bgp {
namespace {

// Input flow control: routes received faster than the output branches take them raise the
// fanout's input backlog past the high-water mark; once the branches catch up it drains.
TEST_F(PipelineTest, InputBacklogRisesWithUntakenChangesAndDrains) {
  config.input_high_water = 20;
  config.input_low_water = 5;
  config.fanout_slice = 4;
  Rebuild();
  test_util::FakeSessionSink s1, s2;
  const auto [e1, e2] = TwoPeersUp(s1, s2);
  Send(e1, {65001}, {"10.0.0.0/24"});  // the next hop's answer is then known
  scheduler.run_until_idle();
  EXPECT_FALSE(pipeline->input_congested());
  std::vector<std::string> prefixes;
  for (int i = 0; i < 30; ++i) prefixes.push_back("10.1." + std::to_string(i) + ".0/24");
  Send(e1, {65001}, prefixes);
  EXPECT_EQ(pipeline->input_backlog(), 30u);  // nothing delivered yet
  EXPECT_TRUE(pipeline->input_congested());
  EXPECT_FALSE(pipeline->input_drained());
  scheduler.run_until_idle();
  EXPECT_EQ(pipeline->input_backlog(), 0u);
  EXPECT_FALSE(pipeline->input_congested());
  EXPECT_TRUE(pipeline->input_drained());
  EXPECT_EQ(s2.table.size(), 31u);
}

}  // namespace
}  // namespace strata::bgp
