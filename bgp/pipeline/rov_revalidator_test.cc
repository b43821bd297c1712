#include "bgp/pipeline/rov_revalidator.h"

#include <gtest/gtest.h>

#include <vector>

#include "bgp/pipeline/bgp_pipeline.h"
#include "bgp/rpki/vrp_table.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::P;

TEST(RovRevalidatorTest, WalksOnlyTheRangesOfChangedVrps) {
  std::vector<IpPrefix> held = {P("10.0.0.0/8"),   P("10.1.0.0/16"), P("10.1.2.0/24"),
                                P("10.2.0.0/16"),  P("11.0.0.0/8"),  P("2001:db8::/32"),
                                P("2001:db8::/48")};
  std::vector<IpPrefix> visited;
  RovRevalidator r(
      [&](const std::optional<IpPrefix>& after) -> std::optional<IpPrefix> {
        for (const IpPrefix& p : held) {
          if (!after || *after < p) return p;
        }
        return std::nullopt;
      },
      [&](const IpPrefix& p) {
        visited.push_back(p);
        return size_t{0};
      });
  // 10.1.2.0/24 lies inside 10.1.0.0/16: walked once, as part of it.
  r.Changed(std::vector<IpPrefix>{P("10.1.2.0/24"), P("10.1.0.0/16"), P("2001:db8::/32")});
  EXPECT_EQ(visited, (std::vector<IpPrefix>{P("10.1.0.0/16"), P("10.1.2.0/24"), P("2001:db8::/32"),
                                            P("2001:db8::/48")}));
  EXPECT_EQ(r.stats().ranges, 2u);
  EXPECT_FALSE(r.walking());
  visited.clear();
  // A VRP prefix nobody holds is visited once (nothing there) and nothing under it.
  r.Changed(std::vector<IpPrefix>{P("10.3.0.0/16")});
  EXPECT_EQ(visited, (std::vector<IpPrefix>{P("10.3.0.0/16")}));
  visited.clear();
  r.ChangedAll();
  EXPECT_EQ(visited.size(), held.size() + 2);  // and the two default prefixes themselves
}

TEST(RovRevalidatorTest, SlicesAndThrottle) {
  std::vector<IpPrefix> held;
  for (int i = 0; i < 10; ++i) held.push_back(P("10.0." + std::to_string(i) + ".0/24"));
  size_t visits = 0;
  bool hold = true;
  TaskScheduler scheduler;
  RovRevalidator::Background bg;
  bg.scheduler = &scheduler;
  bg.slice = 4;
  bg.throttle = [&] { return hold; };
  RovRevalidator r(
      [&](const std::optional<IpPrefix>& after) -> std::optional<IpPrefix> {
        for (const IpPrefix& p : held) {
          if (!after || *after < p) return p;
        }
        return std::nullopt;
      },
      [&](const IpPrefix&) {
        ++visits;
        return size_t{1};
      },
      bg);
  r.Changed(std::vector<IpPrefix>{P("10.0.0.0/16")});
  EXPECT_TRUE(r.walking());
  scheduler.run_slice();
  EXPECT_EQ(visits, 0u);  // held
  hold = false;
  scheduler.run_slice();
  EXPECT_EQ(visits, 4u);  // the /16 itself (nothing there) and three /24s
  // A change meanwhile joins the walk.
  r.Changed(std::vector<IpPrefix>{P("10.0.9.0/24")});
  scheduler.run_until_idle();
  EXPECT_EQ(visits, 11u + 1u);
  EXPECT_FALSE(r.walking());
  EXPECT_EQ(r.stats().held, 1u);
}

// A whole pipeline (AS 65000) with origin validation on an empty VRP table.
class RovPipelineTest : public ::testing::Test {
 protected:
  RovPipelineTest() {
    oracle.set_route(P("192.0.2.0/24"), 1);
    pipeline.set_vrps(&vrps);
  }
  static PipelineConfig Config() {
    PipelineConfig c;
    c.local_as = 65000;
    c.router_id = A("9.9.9.9");
    return c;
  }
  void settle() {
    while (oracle.answer_all() > 0 || scheduler.run_until_idle() > 0) {
    }
  }

  // External peer i: 10.255.1.(i+1) in AS 65001+i, our side 10.255.0.(i+1).
  static PipelinePeerConfig Peer(int i) {
    PipelinePeerConfig c;
    c.address = A("10.255.1." + std::to_string(i + 1));
    c.peer_as = 65001 + i;
    c.local_address = A("10.255.0." + std::to_string(i + 1));
    return c;
  }
  // A policy passing every route but the RPKI-invalid ones.
  static BgpRouteRef DropInvalid(const BgpRouteRef& r) {
    return r->rov_state() == RovState::kInvalid ? nullptr : r;
  }

  FakeNexthopOracle oracle;
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  BgpPipeline pipeline{Config(), oracle, rib, scheduler};
  VrpTable vrps;
};

// The pipeline end to end: an import policy rejecting invalid routes, and a VRP that turns a
// route invalid: it is withdrawn from the other peer, and comes back when the VRP goes.
TEST_F(RovPipelineTest, VrpChangeWithdrawsNewlyInvalidRouteDownstream) {
  PeerId ids[2];
  for (int i = 0; i < 2; ++i) {
    PipelinePeerConfig c = Peer(i);
    c.import_policy = DropInvalid;
    ids[i] = pipeline.add_peer(c).value();
  }
  test_util::FakeSessionSink up_sink;
  test_util::FakeSessionSink down_sink;
  ASSERT_TRUE(pipeline.peer_up(ids[0], A("10.255.1.1"), up_sink).ok());
  ASSERT_TRUE(pipeline.peer_up(ids[1], A("10.255.1.2"), down_sink).ok());
  test_util::AttrSpec spec;
  spec.path = {65001, 64501};
  const std::vector<IpPrefix> announced = {P("203.0.113.0/24"), P("198.51.100.0/24")};
  ASSERT_TRUE(pipeline.receive_update(ids[0], test_util::Attrs(spec), announced, {}).ok());
  settle();
  EXPECT_EQ(down_sink.table.size(), 2u);
  EXPECT_EQ(pipeline.counters(ids[0]).value().rov_not_found, 2u);

  const uint64_t visited = pipeline.revalidator().stats().visited;
  const Vrp other{P("203.0.113.0/24"), 24, 64999};
  ASSERT_TRUE(vrps.Add(other));
  pipeline.vrps_changed(std::vector<IpPrefix>{other.prefix});
  settle();
  EXPECT_EQ(down_sink.table.size(), 1u);
  EXPECT_FALSE(down_sink.table.contains(P("203.0.113.0/24")));
  EXPECT_EQ(pipeline.counters(ids[0]).value().rov_invalid, 1u);
  EXPECT_EQ(pipeline.counters(ids[0]).value().policy_rejected, 1u);
  // Only the VRP's range was walked.
  EXPECT_EQ(pipeline.revalidator().stats().visited, visited + 1);

  const Vrp mine{P("198.51.100.0/22"), 24, 64501};
  ASSERT_TRUE(vrps.Add(mine));
  pipeline.vrps_changed(std::vector<IpPrefix>{mine.prefix});
  const size_t batches = down_sink.batches.size();
  settle();
  // valid now, but the route was already passed: no UPDATE for a state the policy accepts.
  EXPECT_EQ(pipeline.counters(ids[0]).value().rov_valid, 1u);
  EXPECT_EQ(down_sink.batches.size(), batches);

  ASSERT_TRUE(vrps.Remove(other));
  pipeline.vrps_changed(std::vector<IpPrefix>{other.prefix});
  settle();
  EXPECT_EQ(down_sink.table.size(), 2u);
  EXPECT_EQ(pipeline.counters(ids[0]).value().rov_invalid, 0u);

  // Off: every route unverified again, all accepted.
  pipeline.set_vrps(nullptr);
  settle();
  EXPECT_EQ(pipeline.counters(ids[0]).value().rov_valid, 0u);
  EXPECT_EQ(pipeline.counters(ids[0]).value().rov_not_found, 0u);
  EXPECT_EQ(down_sink.table.size(), 2u);
}

// RFC 8893: origin validation on export. An export policy rejecting invalid routes keeps them
// from its peer alone; our own routes validate with our AS as origin (RFC 6811 2: an empty
// path); a VRP change re-evaluates what each peer is sent.
TEST_F(RovPipelineTest, ExportPolicyOnOriginValidationOfOwnAndReceivedRoutes) {
  PipelinePeerConfig own;
  own.address = IpAddr();
  own.local = true;
  const PeerId local = pipeline.add_peer(own).value();
  test_util::FakeSessionSink null_sink;
  ASSERT_TRUE(pipeline.peer_up(local, A("9.9.9.9"), null_sink).ok());
  test_util::FakeSessionSink sinks[3];
  PeerId ids[3];
  for (int i = 0; i < 3; ++i) {
    PipelinePeerConfig c = Peer(i);
    // Strict on export, as RFC 8893 suggests for a transit's customers.
    if (i == 1) c.export_policy = DropInvalid;
    ids[i] = pipeline.add_peer(c).value();
    ASSERT_TRUE(pipeline.peer_up(ids[i], c.address, sinks[i]).ok());
  }
  test_util::AttrSpec own_spec;
  own_spec.path = {};
  own_spec.next_hop = "0.0.0.0";
  const IpPrefix ours[] = {P("198.51.100.0/24")};
  ASSERT_TRUE(pipeline.receive_update(local, test_util::Attrs(own_spec), ours, {}).ok());
  test_util::AttrSpec spec;
  spec.path = {65001, 64501};
  const IpPrefix theirs[] = {P("203.0.113.0/24")};
  ASSERT_TRUE(pipeline.receive_update(ids[0], test_util::Attrs(spec), theirs, {}).ok());
  settle();
  ASSERT_EQ(sinks[1].table.size(), 2u);
  ASSERT_EQ(sinks[2].table.size(), 2u);

  // Someone else's ROAs for both: each turns invalid; peer 2 loses both, peer 3 keeps them and
  // gets no UPDATE (what it would be sent is the same).
  const size_t batches = sinks[2].batches.size();
  for (const Vrp& v : {Vrp{P("198.51.100.0/24"), 24, 64999}, Vrp{P("203.0.113.0/24"), 24, 64999}}) {
    ASSERT_TRUE(vrps.Add(v));
    pipeline.vrps_changed(std::vector<IpPrefix>{v.prefix});
  }
  settle();
  EXPECT_TRUE(sinks[1].table.empty());
  EXPECT_EQ(pipeline.counters(local).value().rov_invalid, 1u);
  EXPECT_EQ(pipeline.counters(ids[0]).value().rov_invalid, 1u);
  EXPECT_EQ(sinks[2].table.size(), 2u);
  EXPECT_EQ(sinks[2].batches.size(), batches);
  EXPECT_EQ(pipeline.counters(ids[1]).value().policy_rejected, 0u) << "import is not touched";

  // A ROA for our AS makes our own route valid again: peer 2 gets it back, and only it.
  const Vrp mine{P("198.51.100.0/22"), 24, 65000};
  ASSERT_TRUE(vrps.Add(mine));
  pipeline.vrps_changed(std::vector<IpPrefix>{mine.prefix});
  settle();
  ASSERT_EQ(sinks[1].table.size(), 1u);
  EXPECT_TRUE(sinks[1].table.contains(P("198.51.100.0/24")));
  EXPECT_EQ(sinks[2].table.size(), 2u);
}

}  // namespace
}  // namespace strata::bgp
