// Randomized add/delete/replace sequences (plus admin distance changes, protocol withdrawals and
// graceful-restart sweeps running in slices) across IGP and EGP protocols, checked against a
// simple reference model of the winning route per prefix, and interest registrations checked
// against brute force.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "rib/rib.h"
#include "testing/rib/rib_test_util.h"

namespace strata::rib {
namespace {

using test_util::FakeFea;

struct ModelProtocol {
  ProtocolKind kind;
  uint32_t ad;
  std::map<IpPrefix, RibRoute> routes;
  std::set<IpPrefix> stale;
};

// The winning route per prefix, computed from scratch the obvious way.
class Model {
 public:
  std::map<std::string, ModelProtocol> protocols;

  const RibRoute* best(const IpPrefix& p, ProtocolKind kind) const {
    const RibRoute* b = nullptr;
    for (const auto& [name, proto] : protocols) {
      if (proto.kind != kind) continue;
      auto it = proto.routes.find(p);
      if (it != proto.routes.end() && (!b || RouteBetter(it->second, *b))) b = &it->second;
    }
    return b;
  }
  // Longest internal match for an address.
  const RibRoute* igp_match(const IpAddr& a) const {
    const RibRoute* b = nullptr;
    for (const auto& [name, proto] : protocols) {
      if (proto.kind != ProtocolKind::kIgp) continue;
      for (const auto& [p, r] : proto.routes) {
        if (!p.Contains(a)) continue;
        if (!b || p.len() > b->prefix.len()) {
          b = best(p, ProtocolKind::kIgp);
        }
      }
    }
    return b;
  }
  std::map<IpPrefix, RibRoute> winners() const {
    std::set<IpPrefix> all;
    for (const auto& [name, proto] : protocols) {
      for (const auto& [p, r] : proto.routes) all.insert(p);
    }
    std::map<IpPrefix, RibRoute> out;
    for (const IpPrefix& p : all) {
      const RibRoute* in = best(p, ProtocolKind::kIgp);
      const RibRoute* ex = best(p, ProtocolKind::kEgp);
      std::optional<RibRoute> resolved;
      if (ex) {
        if (const RibRoute* via = igp_match(ex->nexthop())) {
          resolved = *ex;
          resolved->set_resolution(ResolutionRef::Make(
              Resolution{via->protocol() == kConnectedProtocol ? ex->nexthop() : via->nexthop(),
                         via->prefix, via->metric()}));
        }
      }
      if (in && (!resolved || !RouteBetter(*resolved, *in))) {
        out[p] = *in;
      } else if (resolved) {
        out[p] = *resolved;
      }
    }
    return out;
  }
};

// The registration answer computed by brute force over the winning routes.
RouteRange BruteRange(const std::map<IpPrefix, RibRoute>& winners, const IpAddr& a) {
  const RibRoute* m = nullptr;
  for (const auto& [p, r] : winners) {
    if (p.Contains(a) && (!m || p.len() > m->prefix.len())) m = &r;
  }
  for (int len = m ? m->prefix.len() : 0;; ++len) {
    IpPrefix v(a, len);
    bool overlaid = false;
    for (const auto& [p, r] : winners) overlaid |= p.len() > len && v.Contains(p);
    if (!overlaid || len == a.bit_length()) return RouteRange{m ? MakeRoute(*m) : nullptr, v};
  }
}

std::string Show(const RibRoute* r) { return r ? r->ToString() : "none"; }

class RandomRibTest : public ::testing::TestWithParam<int> {};

TEST_P(RandomRibTest, MatchesReferenceModel) {
  std::mt19937 rng(GetParam());
  TaskScheduler sched;
  FakeFea fea;
  Rib::Options opts;
  opts.slice_routes = 3;
  opts.fea.max_batch = 8;
  opts.fea.max_queue = 64;
  Rib rib(sched, fea, nullptr, opts);
  ASSERT_TRUE(rib.add_protocol("ospf", ProtocolKind::kIgp).ok());
  Model model;
  for (auto [name, kind] :
       std::vector<std::pair<std::string, ProtocolKind>>{{"connected", ProtocolKind::kIgp},
                                                         {"static", ProtocolKind::kIgp},
                                                         {"ospf", ProtocolKind::kIgp},
                                                         {"ebgp", ProtocolKind::kEgp},
                                                         {"ibgp", ProtocolKind::kEgp}}) {
    model.protocols[name] = ModelProtocol{kind, rib.table(name)->admin_distance(), {}, {}};
  }
  const std::vector<std::string> names = {"connected", "static", "ospf", "ebgp", "ibgp"};
  auto rand_addr = [&](bool v6) {
    if (v6) {
      std::array<uint8_t, 16> b{0x20, 0x01, 0x0d, 0xb8};
      b[4] = static_cast<uint8_t>(rng() & 3);
      b[15] = static_cast<uint8_t>(rng() & 0xff);
      return IpAddr::V6(b);
    }
    return IpAddr::V4(0x0a000000u | ((rng() & 3) << 16) | ((rng() & 3) << 8) | (rng() & 0xff));
  };
  auto rand_prefix = [&](bool v6) {
    const int len = v6 ? 30 + static_cast<int>(rng() % 99) : 14 + static_cast<int>(rng() % 19);
    return IpPrefix(rand_addr(v6), len);
  };

  auto check = [&](int step) {
    sched.run_until_idle();
    rib.flush_fea();
    sched.run_until_idle();
    const auto want = model.winners();
    ASSERT_TRUE(fea.errors.empty()) << fea.errors.front();
    ASSERT_EQ(fea.table.size(), want.size()) << "step " << step;
    for (const auto& [p, w] : want) {
      RouteRef got = rib.lookup_route(p);
      ASSERT_TRUE(got && *got == w) << "step " << step << " " << p.ToString() << " want "
                                    << w.ToString() << " got " << Show(got.get());
      auto f = fea.table.find(p);
      ASSERT_TRUE(f != fea.table.end() && *f->second == w) << p.ToString();
    }
    // The upstream walk (FEA resync and redistribution dumps) visits exactly the winners, in order.
    auto w = want.begin();
    for (RouteRef r = rib.fea().lookup_next(std::nullopt); r;
         r = rib.fea().lookup_next(r->prefix)) {
      ASSERT_TRUE(w != want.end() && r->prefix == w->first && *r == w->second)
          << "step " << step << " " << r->ToString();
      ++w;
    }
    ASSERT_TRUE(w == want.end()) << "step " << step;
    // Registrations not invalidated must still hold (their subnet may no longer be maximal, if
    // a route outside it went away).
    for (const auto& [subnet, ans] : rib.register_stage().answers()) {
      RouteRange brute = BruteRange(want, subnet.addr());
      EXPECT_TRUE(brute.valid.Contains(subnet)) << "step " << step << " " << subnet.ToString();
      ASSERT_EQ(brute.route == nullptr, ans.route == nullptr) << subnet.ToString();
      if (ans.route) {
        EXPECT_EQ(*brute.route, *ans.route);
      }
    }
  };

  size_t max_resolved = 0;
  for (int step = 0; step < 3000; ++step) {
    const std::string& name = names[rng() % names.size()];
    ModelProtocol& mp = model.protocols[name];
    const bool v6 = rng() % 4 == 0;
    const uint32_t op = rng() % 100;
    if (op < 45) {
      RibRoute r;
      r.prefix = rand_prefix(v6);
      r.set_nexthop(rand_addr(v6));
      r.set_metric(rng() % 3);
      r.set_tag(rng() % 2);
      const bool exists = mp.routes.contains(r.prefix);
      const bool fresh = exists && !mp.stale.contains(r.prefix);
      Status s = fresh && rng() % 2 ? rib.replace_route(name, r) : rib.add_route(name, r);
      if (fresh && s.code() == StatusCode::kAlreadyExists) continue;
      ASSERT_TRUE(s.ok()) << s.ToString();
      r.set_protocol(name);
      r.set_kind(mp.kind);
      r.set_admin_distance(mp.ad);
      mp.routes[r.prefix] = r;
      mp.stale.erase(r.prefix);
    } else if (op < 75) {
      if (mp.routes.empty()) continue;
      auto it = std::next(mp.routes.begin(), static_cast<long>(rng() % mp.routes.size()));
      ASSERT_TRUE(rib.delete_route(name, it->first).ok());
      mp.stale.erase(it->first);
      mp.routes.erase(it);
    } else if (op < 80) {
      const IpPrefix p = rand_prefix(v6);
      if (mp.routes.contains(p)) continue;
      EXPECT_EQ(rib.delete_route(name, p).code(), StatusCode::kNotFound);
    } else if (op < 84) {
      const uint32_t ad = std::vector<uint32_t>{0, 1, 20, 110, 200}[rng() % 5];
      ASSERT_TRUE(rib.set_admin_distance(name, ad).ok());
      mp.ad = ad;
      for (auto& [p, r] : mp.routes) r.set_admin_distance(ad);
    } else if (op < 86) {
      ASSERT_TRUE(rib.delete_all_routes(name).ok());
      mp.routes.clear();
      mp.stale.clear();
    } else if (op < 88) {
      ASSERT_TRUE(rib.mark_stale(name).ok());
      for (auto& [p, r] : mp.routes) mp.stale.insert(p);
    } else if (op < 90) {
      // Routes an earlier sweep has yet to withdraw are counted again; the model dropped them.
      const bool sweeping = rib.table(name)->busy();
      auto n = rib.sweep_stale(name);
      ASSERT_TRUE(n.ok());
      if (!sweeping) {
        EXPECT_EQ(*n, mp.stale.size());
      }
      for (const IpPrefix& p : mp.stale) mp.routes.erase(p);
      mp.stale.clear();
    } else if (op < 94) {
      sched.run_until_idle();
      const IpAddr a = rand_addr(v6);
      RouteRange got = rib.register_interest("bgp", a);
      RouteRange brute = BruteRange(model.winners(), a);
      EXPECT_EQ(got.valid, brute.valid) << a.ToString();
      ASSERT_EQ(got.route == nullptr, brute.route == nullptr) << a.ToString();
      if (got.route) {
        EXPECT_EQ(*got.route, *brute.route);
      }
    } else if (op < 97) {
      for (uint32_t i = rng() % 4; i > 0; --i) sched.run_slice();
    } else if (op < 98) {
      fea.up = !fea.up;
      if (fea.up) rib.fea_drained();  // as a consumer says when it may accept again
      rib.flush_fea();
    } else if (op < 99) {
      rib.fea_reconnected();
    } else {
      rib.flush_fea();
    }
    max_resolved = std::max(max_resolved, rib.ext_int().resolved_count());
    if (step % 50 == 49) {
      fea.up = true;
      rib.fea_drained();
      check(step);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  // The sequence exercised what it is meant to.
  EXPECT_GT(max_resolved, 0u);
  EXPECT_GT(rib.fea().resyncs(), 0u);
  EXPECT_GT(rib.register_stage().invalidations_sent(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomRibTest, ::testing::Range(1, 9));

}  // namespace
}  // namespace strata::rib
