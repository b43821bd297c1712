// Randomized: announcements, withdrawals and session flaps of three eBGP peers interleaved with
// VRP additions and removals and partial background work, through a whole pipeline whose import
// policies reject RPKI-invalid routes. Whenever the pipeline has settled, every peer's counts of
// valid / invalid / not-found routes and what a fourth peer is advertised equal a brute-force
// model: each route validated by scanning every VRP (RFC 6811 2), the invalid ones dropped.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "bgp/pipeline/bgp_pipeline.h"
#include "bgp/rpki/origin_as.h"
#include "bgp/rpki/vrp_table.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::P;

constexpr uint32_t kLocalAs = 65000;
constexpr uint32_t kOrigins[] = {0, 64501, 64502, 64503};

// RFC 6811 2, stated independently of VrpTable: scan every VRP.
RovState BruteForce(const std::vector<Vrp>& vrps, const IpPrefix& prefix,
                    std::optional<uint32_t> origin) {
  bool covered = false;
  for (const Vrp& v : vrps) {
    if (!v.prefix.Contains(prefix)) continue;
    covered = true;
    if (origin && *origin != 0 && v.asn == *origin && prefix.len() <= v.max_len) {
      return RovState::kValid;
    }
  }
  return covered ? RovState::kInvalid : RovState::kNotFound;
}

struct Upstream {
  PeerId id = 0;
  uint32_t as = 0;
  bool up = false;
  std::map<IpPrefix, AttributeSetPtr> adj_in;
  std::unique_ptr<test_util::FakeSessionSink> sink;
};

class RovRevalidationRandomTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    rng.seed(GetParam());
    oracle.set_route(P("192.0.2.0/24"), 10);
    PipelineConfig config;
    config.local_as = kLocalAs;
    config.router_id = A("9.9.9.9");
    config.deletion_slice = 3;
    config.fanout_slice = 4;
    config.peer_out_batch = 5;
    pipeline = std::make_unique<BgpPipeline>(config, oracle, rib, scheduler);
    pipeline->set_vrps(&table);
    RoutePolicy reject_invalid = [](const BgpRouteRef& r) {
      return r->rov_state() == RovState::kInvalid ? nullptr : r;
    };
    for (int i = 0; i < 4; ++i) {
      PipelinePeerConfig c;
      c.address = A("10.255.1." + std::to_string(i + 1));
      c.peer_as = 65001 + i;
      c.local_address = A("10.255.0." + std::to_string(i + 1));
      c.import_policy = reject_invalid;
      Upstream u;
      u.as = c.peer_as;
      u.id = pipeline->add_peer(c).value();
      peers.push_back(std::move(u));
    }
    for (int i = 0; i < 3; ++i) {
      peers[i].sink = std::make_unique<test_util::FakeSessionSink>();
      ASSERT_TRUE(
          pipeline->peer_up(peers[i].id, A("10.255.1." + std::to_string(i + 1)), *peers[i].sink)
              .ok());
      peers[i].up = true;
    }
    // The last peer only listens.
    down = &peers.back();
    down->sink = std::make_unique<test_util::FakeSessionSink>();
    ASSERT_TRUE(pipeline->peer_up(down->id, A("10.255.1.4"), *down->sink).ok());
    down->up = true;
  }
  int Rand(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
  IpPrefix RandRoutePrefix() {
    const std::string a = std::to_string(Rand(3));
    const std::string b = std::to_string(Rand(3));
    switch (Rand(4)) {
      case 0:
        return P("10." + a + ".0.0/16");
      case 1:
        return P("10." + a + "." + b + ".0/24");
      case 2:
        return P("10." + a + "." + b + ".128/25");
      default:
        return P("10." + a + "." + std::to_string(2 * Rand(2)) + ".0/23");
    }
  }
  Vrp RandVrp() {
    const std::string a = std::to_string(Rand(3));
    const std::string b = std::to_string(Rand(3));
    IpPrefix p = P("10.0.0.0/8");
    switch (Rand(4)) {
      case 0:
        p = P("10." + a + ".0.0/16");
        break;
      case 1:
        p = P("10." + a + "." + b + ".0/24");
        break;
      case 2:
        p = P("10." + a + "." + std::to_string(2 * Rand(2)) + ".0/23");
        break;
      default:
        break;
    }
    const int lens[] = {p.len(), 24, 25};
    return Vrp{p, static_cast<uint8_t>(std::max(p.len(), lens[Rand(3)])), kOrigins[Rand(4)]};
  }
  AttributeSetPtr RandAttrs(const Upstream& u) {
    PathAttributes a;
    a.origin = Origin::kIgp;
    const uint32_t origin = kOrigins[1 + Rand(3)];
    if (Rand(8) == 0) {
      a.as_path = AsPath({{AsSegmentType::kSequence, {u.as}}, {AsSegmentType::kSet, {origin}}});
    } else if (Rand(6) == 0) {
      a.as_path = AsPath::Sequence({u.as});  // the peer's own route
    } else {
      a.as_path = AsPath::Sequence({u.as, origin});
    }
    a.next_hop = A("192.0.2.1");
    return AttributeSet::Make(std::move(a));
  }

  void ChangeVrp() {
    // About ten VRPs at a time (some given twice, as by two caches): most changes flip states.
    Vrp v = RandVrp();
    bool changed = false;
    if (!model.empty() && Rand(20) < static_cast<int>(model.size())) {
      auto it = model.begin() + Rand(static_cast<int>(model.size()));
      v = *it;
      model.erase(it);
      changed = table.Remove(v);
    } else {
      model.push_back(v);
      changed = table.Add(v);
    }
    if (changed) pipeline->vrps_changed(std::vector<IpPrefix>{v.prefix});
  }

  void Step() {
    Upstream& u = peers[Rand(3)];
    switch (Rand(10)) {
      case 0:
        if (Rand(3) > 0) break;  // flaps are rarer
        if (u.up) {
          ASSERT_TRUE(pipeline->peer_down(u.id).ok());
          u.up = false;
          u.adj_in.clear();
          u.sink.reset();
        } else {
          u.sink = std::make_unique<test_util::FakeSessionSink>();
          ASSERT_TRUE(pipeline->peer_up(u.id, A("10.255.1." + std::to_string(u.id)), *u.sink).ok());
          u.up = true;
        }
        break;
      case 1:
      case 2:
      case 3:
        ChangeVrp();
        break;
      case 4:
        for (int n = Rand(4); n > 0; --n) scheduler.run_slice();
        break;
      case 5: {
        if (!u.up) break;
        std::vector<IpPrefix> w{RandRoutePrefix()};
        ASSERT_TRUE(pipeline->receive_update(u.id, nullptr, {}, w).ok());
        u.adj_in.erase(w[0]);
        break;
      }
      default: {
        if (!u.up) break;
        AttributeSetPtr attrs = RandAttrs(u);
        std::vector<IpPrefix> a;
        for (int n = 1 + Rand(3); n > 0; --n) a.push_back(RandRoutePrefix());
        ASSERT_TRUE(pipeline->receive_update(u.id, attrs, a, {}).ok());
        for (const IpPrefix& x : a) u.adj_in[x] = attrs;
      }
    }
  }

  void Verify() {
    while (oracle.answer_all() > 0 || scheduler.run_until_idle() > 0) {
    }
    ASSERT_FALSE(pipeline->revalidator().walking());
    // Every Adj-RIB-In's states, and what passes import policy.
    std::map<IpPrefix, std::vector<PathAttributes>> passing;
    for (const Upstream& u : peers) {
      size_t counts[4] = {};
      for (const auto& [prefix, attrs] : u.adj_in) {
        const RovState s = BruteForce(model, prefix, OriginAs(*attrs->attrs().as_path, kLocalAs));
        ++counts[static_cast<size_t>(s)];
        if (s != RovState::kInvalid) passing[prefix].push_back(attrs->attrs());
      }
      const PipelinePeerCounters c = pipeline->counters(u.id).value();
      EXPECT_EQ(c.rov_valid, counts[static_cast<size_t>(RovState::kValid)]) << "peer " << u.id;
      EXPECT_EQ(c.rov_invalid, counts[static_cast<size_t>(RovState::kInvalid)]) << "peer " << u.id;
      EXPECT_EQ(c.rov_not_found, counts[static_cast<size_t>(RovState::kNotFound)])
          << "peer " << u.id;
      EXPECT_EQ(c.accepted, u.adj_in.size() - counts[static_cast<size_t>(RovState::kInvalid)]);
    }
    ASSERT_EQ(down->sink->table.size(), passing.size());
    for (const auto& [prefix, cands] : passing) {
      auto it = down->sink->table.find(prefix);
      ASSERT_NE(it, down->sink->table.end()) << "missing " << prefix.ToString();
      // What the peer got is one of the routes that passed, as sent to it.
      bool found = false;
      for (PathAttributes a : cands) {
        a.as_path = a.as_path->Prepend(kLocalAs);
        a.next_hop = A("10.255.0.4");
        found = found || a == it->second->attrs();
      }
      EXPECT_TRUE(found) << prefix.ToString() << " got " << it->second->attrs().as_path->ToString();
    }
    ASSERT_TRUE(rib.errors.empty()) << rib.errors.front();
  }

  std::mt19937 rng;
  FakeNexthopOracle oracle;
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  VrpTable table;
  std::vector<Vrp> model;  // with repeats: one per Add not yet removed
  std::unique_ptr<BgpPipeline> pipeline;
  std::vector<Upstream> peers;
  Upstream* down = nullptr;
};

TEST_P(RovRevalidationRandomTest, MatchesBruteForceModel) {
  for (int round = 0; round < 60; ++round) {
    for (int i = 0; i < 50; ++i) {
      Step();
      if (HasFatalFailure()) return;
    }
    Verify();
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(pipeline->revalidator().stats().changed, 100u);
}

INSTANTIATE_TEST_SUITE_P(Seeds, RovRevalidationRandomTest, ::testing::Range(1, 9));

}  // namespace
}  // namespace strata::bgp
