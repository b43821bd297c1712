// Confederations (RFC 5065) in the pipeline: the decision steps' confederation rules, the output
// filter's rewriting for each kind of peer, the input filter's loop detection, and all of it
// through a whole BgpPipeline.
#include <gtest/gtest.h>

#include "bgp/pipeline/bgp_pipeline.h"
#include "bgp/pipeline/decision_steps.h"
#include "bgp/pipeline/input_filter_stage.h"
#include "bgp/pipeline/output_filter_stage.h"
#include "bgp/pipeline/peer_in.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"
#include "testing/bgp/recording_stage.h"
#include "testing/common/fake_clock.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::P;

constexpr uint32_t kMember = 64512;  // our member AS
constexpr uint32_t kOtherMember = 64513;
constexpr uint32_t kConfedId = 65000;
const Confederation kConfed{.identifier = kConfedId, .members = {kMember, kOtherMember, 64514}};

PeerRef Source(PeerId id, uint32_t as, const std::string& address) {
  auto p = NewPeerInfo();
  p->id = id;
  p->peer_as = as;
  p->ibgp = as == kMember;
  p->confed = ClassifyPeer(as, kMember, kConfed) == PeerType::kConfedExternal;
  p->address = A(address);
  p->router_id = A(address);
  return p;
}

AsPath ConfedPath(std::vector<uint32_t> confed, std::vector<uint32_t> seq) {
  std::vector<AsSegment> segs;
  if (!confed.empty()) segs.push_back({AsSegmentType::kConfedSequence, std::move(confed)});
  if (!seq.empty()) segs.push_back({AsSegmentType::kSequence, std::move(seq)});
  return AsPath(std::move(segs));
}

BgpRouteRef RouteWith(const std::string& prefix, const PeerRef& peer, AsPath path,
                      std::optional<uint32_t> med = std::nullopt,
                      std::optional<uint32_t> local_pref = std::nullopt) {
  PathAttributes a;
  a.origin = Origin::kIgp;
  a.as_path = std::move(path);
  a.next_hop = A("192.0.2.1");
  a.med = med;
  a.local_pref = local_pref;
  auto r = NewRoute();
  r->prefix = P(prefix);
  r->attrs = AttributeSet::Make(std::move(a));
  r->peer = peer;
  r->resolvable = true;
  return r;
}

const PeerRef kIbgp = Source(1, kMember, "10.0.0.1");
const PeerRef kConfedPeer = Source(2, kOtherMember, "10.0.0.2");
const PeerRef kExternal = Source(3, 65001, "10.0.0.3");

TEST(ConfedDecisionTest, ConfedSegmentsDoNotCountInPathLength) {
  auto a = RouteWith("1.0.0.0/8", kConfedPeer, ConfedPath({kOtherMember, 64514}, {7}));
  auto b = RouteWith("1.0.0.0/8", kExternal, ConfedPath({}, {65001, 7}));
  EXPECT_LT(CompareAsPathLength(*a, *b), 0);  // 1 against 2
  auto c = RouteWith("1.0.0.0/8", kIbgp, ConfedPath({}, {9}));
  EXPECT_EQ(CompareAsPathLength(*a, *c), 0);
}

TEST(ConfedDecisionTest, MedNeighbourAsSkipsConfedSegments) {
  auto a = RouteWith("1.0.0.0/8", kConfedPeer, ConfedPath({kOtherMember}, {7, 9}), 20);
  auto b = RouteWith("1.0.0.0/8", kIbgp, ConfedPath({}, {7, 8}), 10);
  EXPECT_EQ(NeighborAs(*a), 7u);
  EXPECT_GT(CompareMed(*a, *b), 0);  // same neighbour AS 7: lower MED wins
  auto inside = RouteWith("1.0.0.0/8", kConfedPeer, ConfedPath({kOtherMember}, {}), 1);
  EXPECT_EQ(NeighborAs(*inside), 0u);  // originated inside the confederation
  EXPECT_EQ(CompareMed(*inside, *b), 0);
}

TEST(ConfedDecisionTest, ConfedExternalRanksAsInternal) {
  auto confed = RouteWith("1.0.0.0/8", kConfedPeer, ConfedPath({kOtherMember}, {7}));
  auto ibgp = RouteWith("1.0.0.0/8", kIbgp, ConfedPath({}, {7}));
  auto ebgp = RouteWith("1.0.0.0/8", kExternal, ConfedPath({}, {7}));
  EXPECT_EQ(CompareEbgpOverIbgp(*confed, *ibgp), 0);
  EXPECT_GT(CompareEbgpOverIbgp(*confed, *ebgp), 0);
  EXPECT_TRUE(kConfedPeer->internal());
  EXPECT_FALSE(kExternal->internal());
}

// `r` as the PeerIn with id 1 of the fixtures below holds it: its source's description with
// that id (a PeerIn holds its own peer's routes only).
BgpRouteRef Through1(const BgpRouteRef& r) {
  PeerInfo info = *r->peer;
  info.id = 1;
  auto copy = NewRoute(*r);
  copy->peer = NewPeerInfo(info);
  return copy;
}

// One target peer's output filter fed by a PeerIn.
class ConfedOutputTest : public ::testing::Test {
 protected:
  void Build(uint32_t target_as, bool next_hop_self = false) {
    PipelinePeerConfig c;
    c.address = A("10.0.0.99");
    c.peer_as = target_as;
    c.local_address = A("10.0.0.254");
    c.next_hop_self = next_hop_self;
    filter = std::make_unique<OutputFilterStage>(99, kMember, std::move(c), &in,
                                                 ReflectionContext{}, kConfed);
    rec = std::make_unique<RecordingStage>(filter.get());
    in.set_next(filter.get());
    filter->set_next(rec.get());
  }
  const PathAttributes& Sent(const BgpRouteRef& r) {
    in.add_route(Through1(r), nullptr);
    BgpRouteRef out = rec->current(r->prefix);
    EXPECT_NE(out, nullptr);
    return out->path();
  }

  PeerIn in{1};
  std::unique_ptr<OutputFilterStage> filter;
  std::unique_ptr<RecordingStage> rec;
};

TEST_F(ConfedOutputTest, ToConfedPeerPrependsMemberAsInConfedSequenceAndKeepsIbgpAttributes) {
  Build(64514);
  const PathAttributes& a =
      Sent(RouteWith("1.0.0.0/8", kExternal, ConfedPath({}, {65001, 7}), 30, std::nullopt));
  EXPECT_EQ(a.as_path->ToString(), "(64512) 65001 7");
  EXPECT_EQ(a.next_hop, A("192.0.2.1"));  // unchanged, as for iBGP
  EXPECT_EQ(a.med, 30u);
  EXPECT_EQ(a.local_pref, kDefaultLocalPref);
  const PathAttributes& b =
      Sent(RouteWith("2.0.0.0/8", kConfedPeer, ConfedPath({kOtherMember}, {7}), 5, 250));
  EXPECT_EQ(b.as_path->ToString(), "(64512 64513) 7");
  EXPECT_EQ(b.local_pref, 250u);
}

TEST_F(ConfedOutputTest, ToConfedPeerNextHopSelfStillApplies) {
  Build(64514, /*next_hop_self=*/true);
  EXPECT_EQ(Sent(RouteWith("1.0.0.0/8", kExternal, ConfedPath({}, {65001}))).next_hop,
            A("10.0.0.254"));
}

TEST_F(ConfedOutputTest, ToExternalPeerStripsConfedAndPrependsIdentifier) {
  Build(65009);
  const PathAttributes& a =
      Sent(RouteWith("1.0.0.0/8", kConfedPeer, ConfedPath({kOtherMember, 64514}, {7}), 5, 250));
  EXPECT_EQ(a.as_path->ToString(), "65000 7");
  EXPECT_EQ(a.next_hop, A("10.0.0.254"));
  EXPECT_FALSE(a.local_pref.has_value());
  EXPECT_FALSE(a.med.has_value());
  EXPECT_EQ(Sent(RouteWith("2.0.0.0/8", kIbgp, AsPath())).as_path->ToString(), "65000");
}

TEST_F(ConfedOutputTest, ToIbgpPeerPathUnchanged) {
  Build(kMember);
  const PathAttributes& a =
      Sent(RouteWith("1.0.0.0/8", kConfedPeer, ConfedPath({kOtherMember}, {7}), 5));
  EXPECT_EQ(a.as_path->ToString(), "(64513) 7");
  EXPECT_EQ(a.next_hop, A("192.0.2.1"));
  EXPECT_EQ(a.med, 5u);
}

// The input filter of one source peer.
class ConfedInputTest : public ::testing::Test {
 protected:
  ConfedInputTest() : filter(1, kMember, A("10.0.0.100"), 1, &in, nullptr, kConfed), rec(&filter) {
    in.set_next(&filter);
    filter.set_next(&rec);
  }
  bool Accepted(const BgpRouteRef& r) {
    in.add_route(Through1(r), nullptr);
    return rec.current(r->prefix) != nullptr;
  }
  PeerIn in{1};
  InputFilterStage filter;
  RecordingStage rec;
};

TEST_F(ConfedInputTest, OurMemberAsInConfedSegmentIsALoop) {
  EXPECT_FALSE(
      Accepted(RouteWith("1.0.0.0/8", kConfedPeer, ConfedPath({kOtherMember, kMember}, {7}))));
  EXPECT_TRUE(
      Accepted(RouteWith("2.0.0.0/8", kConfedPeer, ConfedPath({kOtherMember, 64514}, {7}))));
  EXPECT_EQ(filter.counters().as_loop, 1u);
}

TEST_F(ConfedInputTest, OurIdentifierFromOutsideIsALoop) {
  EXPECT_FALSE(Accepted(RouteWith("1.0.0.0/8", kExternal, ConfedPath({}, {65001, kConfedId}))));
  EXPECT_TRUE(Accepted(RouteWith("2.0.0.0/8", kExternal, ConfedPath({}, {65001, 65002}))));
  EXPECT_EQ(filter.counters().as_loop, 1u);
}

// The whole pipeline: a route from a true external peer goes to a confederation peer with the
// member AS in a confed sequence, and back out to another external peer with the identifier.
TEST(ConfedPipelineTest, PathsSeenByEachKindOfPeer) {
  FakeNexthopOracle oracle;
  oracle.set_auto_answer(true);
  oracle.set_route(P("10.0.0.0/24"), 10);
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  PipelineConfig config;
  config.local_as = kMember;
  config.router_id = A("10.0.0.100");
  config.confed = kConfed;
  BgpPipeline pipeline(config, oracle, rib, scheduler);
  auto add = [&](uint32_t as, const std::string& addr) {
    PipelinePeerConfig c;
    c.address = A(addr);
    c.peer_as = as;
    c.local_address = A("10.0.0.100");
    return pipeline.add_peer(c).value();
  };
  const PeerId ext = add(65001, "10.0.0.1");
  const PeerId confed = add(kOtherMember, "10.0.0.2");
  const PeerId ext2 = add(65002, "10.0.0.3");
  test_util::FakeSessionSink ext_sink, confed_sink, ext2_sink;
  ASSERT_TRUE(pipeline.peer_up(ext, A("1.1.1.1"), ext_sink).ok());
  ASSERT_TRUE(pipeline.peer_up(confed, A("2.2.2.2"), confed_sink).ok());
  ASSERT_TRUE(pipeline.peer_up(ext2, A("3.3.3.3"), ext2_sink).ok());

  PathAttributes a;
  a.origin = Origin::kIgp;
  a.as_path = AsPath::Sequence({65001});
  a.next_hop = A("10.0.0.1");
  a.med = 7;
  const IpPrefix pfx = P("203.0.113.0/24");
  ASSERT_TRUE(pipeline.receive_update(ext, AttributeSet::Make(a), {&pfx, 1}, {}).ok());
  scheduler.run_until_idle();

  ASSERT_TRUE(confed_sink.table.contains(pfx));
  const PathAttributes& to_confed = confed_sink.table[pfx]->attrs();
  EXPECT_EQ(to_confed.as_path->ToString(), "(64512) 65001");
  EXPECT_EQ(to_confed.next_hop, A("10.0.0.1"));
  EXPECT_EQ(to_confed.local_pref, kDefaultLocalPref);
  ASSERT_TRUE(ext2_sink.table.contains(pfx));
  EXPECT_EQ(ext2_sink.table[pfx]->attrs().as_path->ToString(), "65000 65001");
  ASSERT_EQ(rib.all().size(), 1u);
  EXPECT_EQ(rib.tables[static_cast<int>(RibOrigin::kEbgp)].size(), 1u);

  // The confederation peer's route installs as internal.
  PathAttributes b = a;
  b.as_path = ConfedPath({kOtherMember}, {65005});
  b.next_hop = A("10.0.0.2");
  const IpPrefix pfx2 = P("198.51.100.0/24");
  ASSERT_TRUE(pipeline.receive_update(confed, AttributeSet::Make(b), {&pfx2, 1}, {}).ok());
  scheduler.run_until_idle();
  EXPECT_EQ(rib.tables[static_cast<int>(RibOrigin::kIbgp)].size(), 1u);
  ASSERT_TRUE(ext_sink.table.contains(pfx2));
  EXPECT_EQ(ext_sink.table[pfx2]->attrs().as_path->ToString(), "65000 65005");
  EXPECT_TRUE(rib.errors.empty());
}

// Damping is for true external peers only: a flapping confederation peer's route is not held.
TEST(ConfedPipelineTest, ConfedPeersAreNotDamped) {
  FakeNexthopOracle oracle;
  oracle.set_auto_answer(true);
  oracle.set_route(P("192.0.2.0/24"), 10);
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  FakeClock clock;
  PipelineConfig config;
  config.local_as = kMember;
  config.router_id = A("10.0.0.100");
  config.confed = kConfed;
  config.clock = &clock;
  BgpPipeline pipeline(config, oracle, rib, scheduler);
  ASSERT_TRUE(pipeline.set_damping(DampingParams{}).ok());
  std::map<uint32_t, PeerId> ids;
  std::map<uint32_t, test_util::FakeSessionSink> sinks;
  for (uint32_t as : {kOtherMember, 65001u}) {
    PipelinePeerConfig c;
    c.address = A(as == kOtherMember ? "10.0.0.2" : "10.0.0.3");
    c.peer_as = as;
    c.local_address = A("10.0.0.100");
    ids[as] = pipeline.add_peer(c).value();
    ASSERT_TRUE(pipeline.peer_up(ids[as], c.address, sinks[as]).ok());
  }
  auto flap = [&](uint32_t as, AsPath path, const IpPrefix& pfx) {
    PathAttributes a;
    a.origin = Origin::kIgp;
    a.as_path = std::move(path);
    a.next_hop = A("192.0.2.1");
    const AttributeSetPtr attrs = AttributeSet::Make(std::move(a));
    for (int i = 0; i < 4; ++i) {
      ASSERT_TRUE(pipeline.receive_update(ids[as], attrs, {&pfx, 1}, {}).ok());
      if (i < 3) {
        ASSERT_TRUE(pipeline.receive_update(ids[as], nullptr, {}, {&pfx, 1}).ok());
      }
      scheduler.run_until_idle();
    }
  };
  flap(kOtherMember, ConfedPath({kOtherMember}, {7}), P("10.1.0.0/16"));
  flap(65001, ConfedPath({}, {65001}), P("10.2.0.0/16"));
  EXPECT_TRUE(rib.all().contains(P("10.1.0.0/16")));
  EXPECT_FALSE(rib.all().contains(P("10.2.0.0/16")));  // the external one is suppressed
  auto damped = pipeline.damped_routes();
  ASSERT_EQ(damped.size(), 1u);
  EXPECT_EQ(damped[0].peer, ids[65001]);
}

}  // namespace
}  // namespace strata::bgp
