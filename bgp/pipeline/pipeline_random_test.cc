// Randomized operations across several peers (announce, withdraw, flaps, IGP changes, busy
// sessions, partial background work) checked against a simple reference model: the best route
// per prefix over the live Adj-RIBs-In, and what each peer should then be advertised.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "bgp/pipeline/bgp_pipeline.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::P;

constexpr uint32_t kLocalAs = 65000;
const char* const kNexthops[] = {"192.0.2.1", "192.0.2.2", "198.51.100.1", "203.0.113.1",
                                 "203.0.113.200"};
const char* const kIgp[] = {"192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/25", "203.0.113.0/24",
                            "192.0.2.0/25"};

struct RefPeer {
  PeerId id = 0;
  uint32_t as = 0;
  IpAddr address;
  bool up = false;
  PeerRef session;  // the pipeline's view is compared by value, this only carries fields
  std::map<IpPrefix, AttributeSetPtr> adj_in;
  std::unique_ptr<test_util::FakeSessionSink> sink;
};

// Independent statement of the selection rules: a beats b at some step, steps in order.
bool Beats(int step, const BgpRoute& a, const BgpRoute& b) {
  const PathAttributes& x = a.path();
  const PathAttributes& y = b.path();
  switch (step) {
    case 0:
      return x.local_pref.value_or(100) > y.local_pref.value_or(100);
    case 1:
      return x.as_path->PathLength() < y.as_path->PathLength();
    case 2:
      return *x.origin < *y.origin;
    case 3:
      return x.as_path->FirstAs() == y.as_path->FirstAs() && x.med.value_or(0) < y.med.value_or(0);
    case 4:
      return !a.peer->ibgp && b.peer->ibgp;
    case 5:
      return a.igp_metric < b.igp_metric;
    case 6:
      return a.peer->router_id < b.peer->router_id;
    case 7:
      return x.cluster_list().size() < y.cluster_list().size();
    default:
      return a.peer->address < b.peer->address;
  }
}

BgpRouteRef RefBest(std::vector<BgpRouteRef> c) {
  for (int step = 0; step < 9 && c.size() > 1; ++step) {
    std::vector<BgpRouteRef> kept;
    for (const auto& r : c) {
      bool beaten = false;
      for (const auto& o : c) beaten = beaten || (o != r && Beats(step, *o, *r));
      if (!beaten) kept.push_back(r);
    }
    c = kept;
  }
  return c.empty() ? nullptr : c.front();
}

class PipelineRandomTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    rng.seed(GetParam());
    oracle.set_route(P(kIgp[0]), 10);
    oracle.set_route(P(kIgp[1]), 20);
    oracle.set_route(P(kIgp[2]), 5);
    PipelineConfig config;
    config.local_as = kLocalAs;
    config.router_id = A("9.9.9.9");
    config.deletion_slice = 3;
    config.fanout_slice = 4;
    config.peer_out_batch = 5;
    pipeline = std::make_unique<BgpPipeline>(config, oracle, rib, scheduler);
    const uint32_t as[] = {65001, 65002, 65001, kLocalAs, kLocalAs};
    for (int i = 0; i < 5; ++i) {
      RefPeer p;
      p.as = as[i];
      p.address = A("10.0.0." + std::to_string(i + 1));
      PipelinePeerConfig c;
      c.address = p.address;
      c.peer_as = p.as;
      c.local_address = A("10.255.0." + std::to_string(i + 1));
      p.id = pipeline->add_peer(c).value();
      peers.push_back(std::move(p));
    }
  }
  int Rand(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
  IpPrefix RandPrefix() {
    return P("10." + std::to_string(Rand(3)) + "." + std::to_string(Rand(10)) + ".0/24");
  }
  AttributeSetPtr RandAttrs(const RefPeer& p) {
    test_util::AttrSpec s;
    if (p.as != kLocalAs) s.path.push_back(p.as);
    for (int n = Rand(3); n > 0; --n) s.path.push_back(Rand(5) == 0 ? kLocalAs : 100 + Rand(3));
    s.next_hop = kNexthops[Rand(5)];
    s.origin = static_cast<Origin>(Rand(3));
    if (Rand(2)) s.med = Rand(3);
    if (p.as == kLocalAs && Rand(2)) s.local_pref = 100 + 50 * Rand(2);
    return test_util::Attrs(s);
  }

  void Step() {
    RefPeer& p = peers[Rand(peers.size())];
    switch (Rand(12)) {
      case 0:
        if (p.up) {
          ASSERT_TRUE(pipeline->peer_down(p.id).ok());
          p.up = false;
          p.adj_in.clear();
          p.sink.reset();
        } else {
          p.sink = std::make_unique<test_util::FakeSessionSink>();
          ASSERT_TRUE(pipeline->peer_up(p.id, p.address, *p.sink).ok());
          p.up = true;
        }
        break;
      case 1: {
        const IpPrefix& igp = P(kIgp[Rand(5)]);
        if (Rand(3) == 0) {
          oracle.remove_route(igp);
        } else {
          oracle.set_route(igp, 1 + Rand(30));
        }
        break;
      }
      case 2:
        oracle.answer_all();
        break;
      case 3:
        if (p.sink) {
          p.sink->is_busy = !p.sink->is_busy;
          if (!p.sink->is_busy) {
            ASSERT_TRUE(pipeline->peer_output_ready(p.id).ok());
          }
        }
        break;
      case 4:
        for (int n = Rand(4); n > 0; --n) scheduler.run_slice();
        break;
      case 5: {
        if (!p.up) break;
        std::vector<IpPrefix> w{RandPrefix()};
        ASSERT_TRUE(pipeline->receive_update(p.id, nullptr, {}, w).ok());
        p.adj_in.erase(w[0]);
        break;
      }
      default: {
        if (!p.up) break;
        AttributeSetPtr attrs = RandAttrs(p);
        std::vector<IpPrefix> a;
        for (int n = 1 + Rand(3); n > 0; --n) a.push_back(RandPrefix());
        ASSERT_TRUE(pipeline->receive_update(p.id, attrs, a, {}).ok());
        for (const IpPrefix& x : a) p.adj_in[x] = attrs;
      }
    }
  }

  void Settle() {
    for (RefPeer& p : peers) {
      if (p.sink && p.sink->is_busy) {
        p.sink->is_busy = false;
        ASSERT_TRUE(pipeline->peer_output_ready(p.id).ok());
      }
    }
    while (oracle.answer_all() > 0 || scheduler.run_until_idle() > 0) {
    }
  }

  std::map<IpPrefix, BgpRouteRef> ReferenceBest() {
    std::map<IpPrefix, std::vector<BgpRouteRef>> cands;
    for (const RefPeer& p : peers) {
      if (!p.up) continue;
      auto info = NewPeerInfo(PeerInfo{p.id, p.as, p.address, p.address, p.as == kLocalAs});
      for (const auto& [prefix, attrs] : p.adj_in) {
        if (attrs->attrs().as_path->Contains(kLocalAs)) continue;
        const NexthopAnswer ans = oracle.Answer(*attrs->attrs().next_hop);
        if (!ans.resolvable) continue;
        BgpRoutePtr r = NewRoute();
        r->prefix = prefix;
        r->attrs = attrs;
        r->peer = info;
        r->igp_metric = ans.metric;
        r->resolvable = true;
        cands[prefix].push_back(r);
      }
    }
    std::map<IpPrefix, BgpRouteRef> best;
    for (auto& [prefix, c] : cands) best[prefix] = RefBest(c);
    return best;
  }

  void Verify() {
    Settle();
    for (const char* nh : kNexthops) {
      auto c = pipeline->nexthop_cache().lookup(A(nh));
      auto o = oracle.Answer(A(nh));
      if (c && (c->resolvable != o.resolvable || c->metric != o.metric)) {
        ADD_FAILURE() << "cache " << nh << " " << c->covering.ToString() << " " << c->resolvable
                      << "/" << c->metric << " oracle " << o.covering.ToString() << " "
                      << o.resolvable << "/" << o.metric;
      }
    }
    const auto best = ReferenceBest();
    const auto got = rib.all();
    ASSERT_TRUE(rib.errors.empty()) << rib.errors.front();
    for (const auto& [prefix, r] : got) {
      if (!best.contains(prefix))
        ADD_FAILURE() << "extra " << r->ToString() << " m" << r->igp_metric;
    }
    for (const auto& [prefix, r] : best) {
      if (!got.contains(prefix))
        ADD_FAILURE() << "missing " << r->ToString() << " m" << r->igp_metric;
    }
    ASSERT_EQ(got.size(), best.size());
    for (const auto& [prefix, want] : best) {
      auto it = got.find(prefix);
      ASSERT_NE(it, got.end()) << prefix.ToString();
      EXPECT_EQ(it->second->peer->id, want->peer->id) << prefix.ToString();
      EXPECT_EQ(*it->second->attrs, *want->attrs) << prefix.ToString();
      EXPECT_EQ(it->second->igp_metric, want->igp_metric)
          << it->second->ToString() << " cache "
          << (pipeline->nexthop_cache().lookup(*want->path().next_hop) ? "has" : "none");
      EXPECT_TRUE(rib.tables[want->peer->ibgp ? 1 : 0].contains(prefix));
    }
    for (const RefPeer& p : peers) {
      ASSERT_EQ(pipeline->counters(p.id).value().received, p.adj_in.size());
      if (!p.up) continue;
      const bool ibgp = p.as == kLocalAs;
      std::map<IpPrefix, PathAttributes> expect;
      for (const auto& [prefix, r] : best) {
        if (r->peer->id == p.id || (ibgp && r->peer->ibgp)) continue;
        PathAttributes a = r->path();
        if (ibgp) {
          a.local_pref = a.local_pref.value_or(100);
        } else {
          a.as_path = a.as_path->Prepend(kLocalAs);
          a.next_hop = A("10.255.0." + std::to_string(p.id));
          a.local_pref.reset();
          a.med.reset();
        }
        expect[prefix] = a;
      }
      ASSERT_EQ(p.sink->table.size(), expect.size()) << "peer " << p.id;
      for (const auto& [prefix, a] : expect) {
        ASSERT_TRUE(p.sink->table.contains(prefix));
        EXPECT_EQ(p.sink->table.at(prefix)->attrs(), a)
            << "peer " << p.id << " " << prefix.ToString();
      }
      EXPECT_EQ(pipeline->counters(p.id).value().advertised, expect.size());
    }
  }

  std::mt19937 rng;
  FakeNexthopOracle oracle;
  test_util::FakeRibSink rib;
  TaskScheduler scheduler;
  std::unique_ptr<BgpPipeline> pipeline;
  std::vector<RefPeer> peers;
};

TEST_P(PipelineRandomTest, MatchesReferenceModel) {
  for (int round = 0; round < 80; ++round) {
    for (int i = 0; i < 60; ++i) {
      Step();
      if (HasFatalFailure()) return;
    }
    Verify();
    if (HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, PipelineRandomTest, ::testing::Range(1, 9));

}  // namespace
}  // namespace strata::bgp
