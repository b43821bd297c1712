// Route reflection (RFC 4456): the output filter's reflection rules and attributes, the input
// filter's ORIGINATOR_ID / CLUSTER_LIST loop discards, and both through a whole BgpPipeline.
#include <gtest/gtest.h>

#include "bgp/pipeline/bgp_pipeline.h"
#include "bgp/pipeline/input_filter_stage.h"
#include "bgp/pipeline/output_filter_stage.h"
#include "bgp/pipeline/peer_in.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"
#include "testing/bgp/recording_stage.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::P;
using V = std::vector<std::string>;

constexpr uint32_t kLocalAs = 65000;
constexpr uint32_t kClusterId = 0x0a000001;  // 10.0.0.1

// Source number `n` (address 10.1.0.n). Every source's routes enter through the one PeerIn of
// ReflectionOutputTest, whose id (1) they carry.
PeerRef Source(int n, uint32_t as, bool rr_client, const std::string& router_id) {
  auto p = NewPeerInfo();
  p->id = 1;
  p->peer_as = as;
  p->ibgp = as == kLocalAs;
  p->rr_client = rr_client;
  p->address = A("10.1.0." + std::to_string(n));
  p->router_id = A(router_id);
  return p;
}

BgpRouteRef RouteWith(const std::string& prefix, const PeerRef& peer,
                      std::optional<std::string> originator = std::nullopt,
                      std::vector<uint32_t> cluster_list = {}) {
  PathAttributes a;
  a.origin = Origin::kIgp;
  a.as_path = AsPath::Sequence({7});
  a.next_hop = A("192.0.2.1");
  a.local_pref = 100;
  if (originator) a.originator_id() = A(*originator);
  a.cluster_list() = std::move(cluster_list);
  auto r = NewRoute();
  r->prefix = P(prefix);
  r->attrs = AttributeSet::Make(std::move(a));
  r->peer = peer;
  r->resolvable = true;
  return r;
}

// One target peer's output filter fed by one PeerIn, whatever the source.
class ReflectionOutputTest : public ::testing::Test {
 protected:
  void Build(uint32_t target_as, bool target_is_client, const std::string& target_router_id) {
    PipelinePeerConfig c;
    c.address = A("10.1.0.99");
    c.peer_as = target_as;
    c.local_address = A("10.1.0.254");
    c.route_reflector_client = target_is_client;
    filter = std::make_unique<OutputFilterStage>(
        99, kLocalAs, std::move(c), &in,
        ReflectionContext{.cluster_id = kClusterId, .peer_router_id = A(target_router_id)});
    rec = std::make_unique<RecordingStage>(filter.get());
    in.set_next(filter.get());
    filter->set_next(rec.get());
  }
  // The one route the target got, or null.
  BgpRouteRef Sent(const std::string& prefix) const { return rec->current(P(prefix)); }
  void ExpectConsistent() {
    EXPECT_TRUE(rec->violations().empty());
    EXPECT_TRUE(rec->CheckLookups().ok());
  }

  PeerIn in{1};
  PeerRef client = Source(1, kLocalAs, true, "1.1.1.1");
  PeerRef non_client = Source(2, kLocalAs, false, "2.2.2.2");
  PeerRef external = Source(3, 65003, false, "3.3.3.3");
  std::unique_ptr<OutputFilterStage> filter;
  std::unique_ptr<RecordingStage> rec;
};

TEST_F(ReflectionOutputTest, ClientRouteToClientGetsOriginatorAndClusterList) {
  Build(kLocalAs, /*target_is_client=*/true, "9.0.0.1");
  in.announce(RouteWith("1.0.0.0/8", client));
  BgpRouteRef r = Sent("1.0.0.0/8");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->path().originator_id(), A("1.1.1.1"));
  EXPECT_EQ(r->path().cluster_list(), std::vector<uint32_t>{kClusterId});
  EXPECT_EQ(*r->path().next_hop, A("192.0.2.1"));  // a reflector keeps the next hop
  in.withdraw(P("1.0.0.0/8"));
  EXPECT_FALSE(Sent("1.0.0.0/8"));
  ExpectConsistent();
}

TEST_F(ReflectionOutputTest, ClientRouteToNonClient) {
  Build(kLocalAs, /*target_is_client=*/false, "9.0.0.1");
  in.announce(RouteWith("1.0.0.0/8", client));
  BgpRouteRef r = Sent("1.0.0.0/8");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->path().originator_id(), A("1.1.1.1"));
  EXPECT_EQ(r->path().cluster_list(), std::vector<uint32_t>{kClusterId});
  EXPECT_EQ(filter->counters().ibgp_to_ibgp, 0u);
  ExpectConsistent();
}

TEST_F(ReflectionOutputTest, NonClientRouteToClient) {
  Build(kLocalAs, /*target_is_client=*/true, "9.0.0.1");
  in.announce(RouteWith("1.0.0.0/8", non_client));
  BgpRouteRef r = Sent("1.0.0.0/8");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->path().originator_id(), A("2.2.2.2"));
  EXPECT_EQ(r->path().cluster_list(), std::vector<uint32_t>{kClusterId});
  ExpectConsistent();
}

TEST_F(ReflectionOutputTest, NonClientRouteNotToNonClient) {
  Build(kLocalAs, /*target_is_client=*/false, "9.0.0.1");
  in.announce(RouteWith("1.0.0.0/8", non_client));
  in.withdraw(P("1.0.0.0/8"));
  EXPECT_TRUE(rec->events().empty());
  EXPECT_EQ(filter->counters().ibgp_to_ibgp, 1u);
  ExpectConsistent();
}

TEST_F(ReflectionOutputTest, KeepsOriginatorIdAndPrependsToClusterList) {
  Build(kLocalAs, /*target_is_client=*/true, "9.0.0.1");
  in.announce(RouteWith("1.0.0.0/8", client, "5.5.5.5", {0x0b000001, 0x0c000001}));
  BgpRouteRef r = Sent("1.0.0.0/8");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->path().originator_id(), A("5.5.5.5"));
  EXPECT_EQ(r->path().cluster_list(), (std::vector<uint32_t>{kClusterId, 0x0b000001, 0x0c000001}));
  ExpectConsistent();
}

TEST_F(ReflectionOutputTest, NotReflectedToItsOriginator) {
  Build(kLocalAs, /*target_is_client=*/true, "5.5.5.5");
  in.announce(RouteWith("1.0.0.0/8", client, "5.5.5.5"));
  in.announce(RouteWith("2.0.0.0/8", client));
  in.withdraw(P("1.0.0.0/8"));
  EXPECT_EQ(rec->EventStrings().size(), 1u);
  EXPECT_TRUE(Sent("2.0.0.0/8"));
  EXPECT_EQ(filter->counters().to_originator, 1u);
  ExpectConsistent();
}

TEST_F(ReflectionOutputTest, ExternalAndLocalRoutesAreNotReflected) {
  Build(kLocalAs, /*target_is_client=*/false, "9.0.0.1");
  PeerRef local = Source(4, 0, false, "9.9.9.9");
  in.announce(RouteWith("1.0.0.0/8", external));
  in.announce(RouteWith("2.0.0.0/8", local));
  for (const char* prefix : {"1.0.0.0/8", "2.0.0.0/8"}) {
    BgpRouteRef r = Sent(prefix);
    ASSERT_TRUE(r) << prefix;
    EXPECT_FALSE(r->path().originator_id()) << prefix;
    EXPECT_TRUE(r->path().cluster_list().empty()) << prefix;
  }
  ExpectConsistent();
}

TEST_F(ReflectionOutputTest, EbgpPeerGetsClientRouteWithoutReflectionAttributes) {
  Build(65005, /*target_is_client=*/false, "9.0.0.1");
  in.announce(RouteWith("1.0.0.0/8", client, "5.5.5.5", {0x0b000001}));
  BgpRouteRef r = Sent("1.0.0.0/8");
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->path().originator_id());
  EXPECT_TRUE(r->path().cluster_list().empty());
  EXPECT_EQ(r->path().as_path->ToString(), "65000 7");
  ExpectConsistent();
}

TEST_F(ReflectionOutputTest, SameAttributesFromTwoClientsAreNotConfused) {
  // The rewrite memo must key on the source: one attribute set, two originators.
  Build(kLocalAs, /*target_is_client=*/true, "9.0.0.1");
  PeerRef other_client = Source(5, kLocalAs, true, "6.6.6.6");
  BgpRouteRef a = RouteWith("1.0.0.0/8", client);
  auto b = NewRoute(*a);
  b->prefix = P("2.0.0.0/8");
  b->peer = other_client;
  in.announce(a);
  in.announce(b);
  ASSERT_TRUE(Sent("1.0.0.0/8") && Sent("2.0.0.0/8"));
  EXPECT_EQ(Sent("1.0.0.0/8")->path().originator_id(), A("1.1.1.1"));
  EXPECT_EQ(Sent("2.0.0.0/8")->path().originator_id(), A("6.6.6.6"));
}

TEST(ReflectionInputTest, DropsOwnOriginatorIdAndOwnClusterId) {
  PeerRef peer = Source(1, kLocalAs, false, "1.1.1.1");
  PeerIn in(1);
  InputFilterStage filter(1, kLocalAs, A("9.9.9.9"), kClusterId, &in);
  RecordingStage rec(&filter);
  in.set_next(&filter);
  filter.set_next(&rec);
  in.announce(RouteWith("1.0.0.0/8", peer, "9.9.9.9"));
  in.announce(RouteWith("2.0.0.0/8", peer, "5.5.5.5", {0x0b000001, kClusterId}));
  in.announce(RouteWith("3.0.0.0/8", peer, "5.5.5.5", {0x0b000001}));
  EXPECT_EQ(rec.EventStrings(), (V{"+3.0.0.0/8 p1"}));
  EXPECT_EQ(filter.counters().originator_id, 1u);
  EXPECT_EQ(filter.counters().cluster_loop, 1u);
  // A replace into a cluster loop becomes a delete; the loop's withdrawal is dropped.
  in.announce(RouteWith("3.0.0.0/8", peer, "5.5.5.5", {kClusterId}));
  in.withdraw(P("2.0.0.0/8"));
  EXPECT_EQ(rec.EventStrings(), (V{"+3.0.0.0/8 p1", "-3.0.0.0/8 p1"}));
  EXPECT_EQ(filter.counters().cluster_loop, 2u);
  EXPECT_EQ(filter.counters().accepted, 0u);
  EXPECT_TRUE(rec.violations().empty());
  EXPECT_TRUE(rec.CheckLookups().ok());
}

// A whole pipeline as route reflector: clients c1, c2, non-clients n1, n2, eBGP peer e.
class ReflectorPipelineTest : public ::testing::Test {
 protected:
  void Build(uint32_t cluster_id) {
    oracle.set_auto_answer(true);
    oracle.set_route(P("192.0.2.0/24"), 10);
    PipelineConfig config;
    config.local_as = kLocalAs;
    config.router_id = A("9.9.9.9");
    config.cluster_id = cluster_id;
    pipeline = std::make_unique<BgpPipeline>(config, oracle, rib, scheduler);
    c1 = Up(kLocalAs, "10.0.0.1", true, "1.1.1.1", s_c1);
    c2 = Up(kLocalAs, "10.0.0.2", true, "2.2.2.2", s_c2);
    n1 = Up(kLocalAs, "10.0.0.3", false, "3.3.3.3", s_n1);
    n2 = Up(kLocalAs, "10.0.0.4", false, "4.4.4.4", s_n2);
    e = Up(65005, "10.0.0.5", false, "5.5.5.5", s_e);
  }
  PeerId Up(uint32_t as, const std::string& addr, bool client, const std::string& router_id,
            test_util::FakeSessionSink& sink) {
    PipelinePeerConfig c;
    c.address = A(addr);
    c.peer_as = as;
    c.local_address = A("10.0.0.254");
    c.route_reflector_client = client;
    PeerId id = pipeline->add_peer(c).value();
    EXPECT_TRUE(pipeline->peer_up(id, A(router_id), sink).ok());
    return id;
  }
  void Send(PeerId id, const std::string& prefix, std::optional<std::string> originator = {},
            std::vector<uint32_t> cluster_list = {}) {
    PathAttributes a;
    a.origin = Origin::kIgp;
    a.as_path = AsPath::Sequence(id == e ? std::vector<uint32_t>{65005} : std::vector<uint32_t>{});
    a.next_hop = A("192.0.2.1");
    if (originator) a.originator_id() = A(*originator);
    a.cluster_list() = std::move(cluster_list);
    const IpPrefix p = P(prefix);
    ASSERT_TRUE(pipeline->receive_update(id, AttributeSet::Make(std::move(a)), {&p, 1}, {}).ok());
    scheduler.run_until_idle();
  }

  FakeNexthopOracle oracle;
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  std::unique_ptr<BgpPipeline> pipeline;
  test_util::FakeSessionSink s_c1, s_c2, s_n1, s_n2, s_e;
  PeerId c1 = 0, c2 = 0, n1 = 0, n2 = 0, e = 0;
};

TEST_F(ReflectorPipelineTest, ReflectsByClientRules) {
  Build(kClusterId);
  Send(c1, "1.0.0.0/8");
  Send(n1, "3.0.0.0/8");
  Send(e, "5.0.0.0/8");
  // From a client: every other peer.
  for (auto* s : {&s_c2, &s_n1, &s_n2}) {
    ASSERT_TRUE(s->table.contains(P("1.0.0.0/8")));
    const PathAttributes& a = s->table.at(P("1.0.0.0/8"))->attrs();
    EXPECT_EQ(a.originator_id(), A("1.1.1.1"));
    EXPECT_EQ(a.cluster_list(), std::vector<uint32_t>{kClusterId});
  }
  EXPECT_FALSE(s_c1.table.contains(P("1.0.0.0/8")));
  ASSERT_TRUE(s_e.table.contains(P("1.0.0.0/8")));
  EXPECT_FALSE(s_e.table.at(P("1.0.0.0/8"))->attrs().originator_id());
  EXPECT_TRUE(s_e.table.at(P("1.0.0.0/8"))->attrs().cluster_list().empty());
  // From a non-client: clients (and eBGP) only.
  EXPECT_TRUE(s_c1.table.contains(P("3.0.0.0/8")));
  EXPECT_TRUE(s_c2.table.contains(P("3.0.0.0/8")));
  EXPECT_FALSE(s_n2.table.contains(P("3.0.0.0/8")));
  EXPECT_TRUE(s_e.table.contains(P("3.0.0.0/8")));
  EXPECT_EQ(s_c1.table.at(P("3.0.0.0/8"))->attrs().originator_id(), A("3.3.3.3"));
  // From eBGP: everyone, untouched.
  for (auto* s : {&s_c1, &s_c2, &s_n1, &s_n2}) {
    ASSERT_TRUE(s->table.contains(P("5.0.0.0/8")));
    EXPECT_FALSE(s->table.at(P("5.0.0.0/8"))->attrs().originator_id());
    EXPECT_TRUE(s->table.at(P("5.0.0.0/8"))->attrs().cluster_list().empty());
  }
  // Withdrawals follow the same paths.
  const IpPrefix p1 = P("1.0.0.0/8");
  ASSERT_TRUE(pipeline->receive_update(c1, nullptr, {}, {&p1, 1}).ok());
  scheduler.run_until_idle();
  for (auto* s : {&s_c2, &s_n1, &s_n2, &s_e}) EXPECT_FALSE(s->table.contains(p1));
  EXPECT_TRUE(rib.errors.empty());
}

TEST_F(ReflectorPipelineTest, DiscardsLoopsAndCountsThem) {
  Build(kClusterId);
  Send(n1, "1.0.0.0/8", "9.9.9.9");                            // our ORIGINATOR_ID
  Send(n1, "2.0.0.0/8", "7.7.7.7", {0x0b000001, kClusterId});  // our CLUSTER_ID
  Send(n1, "3.0.0.0/8", "7.7.7.7", {0x0b000001});
  PipelinePeerCounters c = pipeline->counters(n1).value();
  EXPECT_EQ(c.received, 3u);
  EXPECT_EQ(c.accepted, 1u);
  EXPECT_EQ(c.originator_id_loop, 1u);
  EXPECT_EQ(c.cluster_loop, 1u);
  EXPECT_FALSE(s_c1.table.contains(P("1.0.0.0/8")));
  EXPECT_FALSE(s_c1.table.contains(P("2.0.0.0/8")));
  ASSERT_TRUE(s_c1.table.contains(P("3.0.0.0/8")));
  EXPECT_EQ(s_c1.table.at(P("3.0.0.0/8"))->attrs().cluster_list(),
            (std::vector<uint32_t>{kClusterId, 0x0b000001}));
  EXPECT_EQ(s_c1.table.at(P("3.0.0.0/8"))->attrs().originator_id(), A("7.7.7.7"));
}

TEST_F(ReflectorPipelineTest, ClusterIdDefaultsToRouterId) {
  Build(0);
  const uint32_t router_id = A("9.9.9.9").v4_host_order();
  Send(c1, "1.0.0.0/8");
  ASSERT_TRUE(s_c2.table.contains(P("1.0.0.0/8")));
  EXPECT_EQ(s_c2.table.at(P("1.0.0.0/8"))->attrs().cluster_list(),
            std::vector<uint32_t>{router_id});
  Send(n1, "2.0.0.0/8", "7.7.7.7", {router_id});
  EXPECT_EQ(pipeline->counters(n1).value().cluster_loop, 1u);
}

}  // namespace
}  // namespace strata::bgp
