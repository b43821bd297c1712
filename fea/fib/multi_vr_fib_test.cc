// MultiVrFib against a naive per-VR longest-prefix match, IPv4 and IPv6, every grouping policy.
#include "fea/fib/multi_vr_fib.h"

#include <gtest/gtest.h>

#include <random>

#include "testing/fea/fib_test_util.h"

namespace strata::fib {
namespace {

using test_util::LpmModel;
using test_util::MakeNextHop;

template <typename Key>
class Harness {
 public:
  static constexpr int kBits = KeyTraits<Key>::kBits;
  explicit Harness(GroupingPolicy policy, uint64_t seed = 1) : fib_(Options(policy)), rng_(seed) {}

  static FibOptions Options(GroupingPolicy policy) {
    FibOptions o;
    o.policy = policy;
    o.trie.root_bits = 8;
    return o;
  }
  void AddVr(VrId vr) { ASSERT_TRUE(fib_.AddVr(vr).ok()); }
  void Add(VrId vr, Key key, int len, uint32_t nh) {
    ASSERT_TRUE(fib_.AddRoute(vr, key, len, MakeNextHop<Key>(nh)).ok());
    model_.Add(vr, key, len, nh);
  }
  void Delete(VrId vr, Key key, int len) {
    ASSERT_TRUE(fib_.DeleteRoute(vr, key, len).ok());
    model_.Delete(vr, key, len);
  }
  // A prefix near earlier ones, so that tables nest and overlap.
  std::pair<Key, int> RandomPrefix() {
    int len;
    int r = static_cast<int>(rng_() % 100);
    if (r < 3) {
      len = 0;
    } else if (r < 10) {
      len = kBits;
    } else {
      len = static_cast<int>(rng_() % (kBits + 1));
    }
    Key base = bases_.empty() || rng_() % 4 == 0 ? LpmModel<Key>::RandomKey(rng_)
                                                 : bases_[rng_() % bases_.size()];
    if (bases_.size() < 64) bases_.push_back(base);
    // Flip a bit near the end of the prefix to make siblings.
    if (len > 0 && rng_() % 2) base ^= Key{1} << (kBits - len);
    return {MaskKey(base, len), len};
  }
  void Check(const std::vector<VrId>& vrs, int random = 300) {
    typename MultiVrFib<Key>::ReaderSlot slot(fib_);
    ASSERT_TRUE(slot.ok());
    typename MultiVrFib<Key>::ReadSection rs(fib_, slot);
    for (Key a : model_.Probes(rng_, random)) {
      for (VrId vr : vrs) {
        uint32_t want = model_.Lookup(vr, a);
        NextHopId id = rs.Lookup(vr, a);
        const NextHopGroup* g = rs.Resolve(vr, id);
        uint32_t got = g == nullptr ? 0 : (*g)[0].ifindex;
        ASSERT_EQ(got, want) << "vr " << vr << " addr " << KeyTraits<Key>::ToAddr(a).ToString();
      }
    }
  }

  MultiVrFib<Key> fib_;
  LpmModel<Key> model_;
  std::mt19937_64 rng_;
  std::vector<Key> bases_;
};

template <typename Key>
class MultiVrFibTest : public ::testing::Test {};
using KeyTypes = ::testing::Types<uint32_t, Uint128>;
TYPED_TEST_SUITE(MultiVrFibTest, KeyTypes);

TYPED_TEST(MultiVrFibTest, RandomUpdatesMatchModelForEveryPolicy) {
  for (auto policy : {GroupingPolicy::kAdaptive, GroupingPolicy::kShared, GroupingPolicy::kPerVr}) {
    Harness<TypeParam> h(policy, 7 + static_cast<int>(policy));
    std::vector<VrId> vrs = {0, 1, 2, 5};
    for (VrId vr : vrs) h.AddVr(vr);
    h.fib_.Rebuild();  // groups the (empty) VRs per policy
    std::vector<std::pair<VrId, std::pair<TypeParam, int>>> added;
    for (int op = 0; op < 2400; ++op) {
      VrId vr = vrs[h.rng_() % 3];  // VR 5 stays empty
      if (!added.empty() && h.rng_() % 3 == 0) {
        size_t i = h.rng_() % added.size();
        auto [dvr, p] = added[i];
        added[i] = added.back();
        added.pop_back();
        if (h.model_.table(dvr).count(p)) h.Delete(dvr, p.first, p.second);
      } else {
        auto p = h.RandomPrefix();
        h.Add(vr, p.first, p.second, 1 + static_cast<uint32_t>(h.rng_() % 6));
        added.push_back({vr, p});
      }
      if (op % 600 == 599) h.Check(vrs);
      if (op == 1200) {
        h.fib_.Rebuild();
        h.Check(vrs);
      }
    }
    h.fib_.Rebuild();
    h.Check(vrs);
  }
}

// VR ids 1, 65 and 129 share one bit of the master's 64-bit VR masks: a withdraw must keep the
// bit where another of them still has routes below (and clear it where none has).
TYPED_TEST(MultiVrFibTest, VrsSharingAMaskBitMatchModel) {
  Harness<TypeParam> h(GroupingPolicy::kShared, 13);
  std::vector<VrId> vrs = {1, 65, 129, 2};
  for (VrId vr : vrs) h.AddVr(vr);
  h.fib_.Rebuild();
  std::vector<std::pair<VrId, std::pair<TypeParam, int>>> added;
  for (int op = 0; op < 3000; ++op) {
    if (!added.empty() && h.rng_() % 2 == 0) {
      size_t i = h.rng_() % added.size();
      auto [dvr, p] = added[i];
      added[i] = added.back();
      added.pop_back();
      if (h.model_.table(dvr).count(p)) h.Delete(dvr, p.first, p.second);
    } else {
      VrId vr = vrs[h.rng_() % vrs.size()];
      auto p = h.RandomPrefix();
      h.Add(vr, p.first, p.second, 1 + static_cast<uint32_t>(h.rng_() % 6));
      added.push_back({vr, p});
    }
    if (op % 300 == 299) h.Check(vrs);
    if (op == 1500) h.fib_.Rebuild();
  }
}

TYPED_TEST(MultiVrFibTest, AdversarialDefaultRoutesHostRoutesAndDeepNesting) {
  using Key = TypeParam;
  constexpr int kBits = KeyTraits<Key>::kBits;
  Harness<Key> h(GroupingPolicy::kShared);
  for (VrId vr : {0, 1, 2}) h.AddVr(vr);  // VR 2 stays empty throughout
  Key base = LpmModel<Key>::RandomKey(h.rng_);
  for (int len = 0; len <= kBits; ++len) h.Add(0, base, len, 1 + len % 5);  // deep nesting
  h.Add(1, base, kBits, 9);                                                 // a lone host route
  h.Check({0, 1, 2});
  h.fib_.Rebuild();
  h.Check({0, 1, 2});
  h.Add(1, 0, 0, 3);  // default route appears
  h.Check({0, 1, 2});
  h.Add(1, 0, 0, 4);  // and changes
  h.Add(0, 0, 0, 4);
  h.Check({0, 1, 2});
  for (int len = kBits; len >= 0; len -= 3) h.Delete(0, base, len);  // unnest from the bottom
  h.Check({0, 1, 2});
  h.Delete(1, 0, 0);
  h.Delete(1, base, kBits);
  h.Check({0, 1, 2});
  h.fib_.Rebuild();
  h.Check({0, 1, 2});
}

TYPED_TEST(MultiVrFibTest, VrsComeAndGoAtRunTime) {
  using Key = TypeParam;
  Harness<Key> h(GroupingPolicy::kAdaptive);
  for (VrId vr : {0, 1, 2}) h.AddVr(vr);
  for (int i = 0; i < 300; ++i) {
    auto p = h.RandomPrefix();
    h.Add(static_cast<VrId>(i % 3), p.first, p.second, 1 + i % 4);
  }
  h.fib_.Rebuild();
  h.Check({0, 1, 2});
  EXPECT_TRUE(h.fib_.AddVr(1).code() == StatusCode::kAlreadyExists);
  h.AddVr(7);  // joins at run time, in a group of its own
  for (int i = 0; i < 100; ++i) {
    auto p = h.RandomPrefix();
    h.Add(7, p.first, p.second, 2 + i % 3);
  }
  h.Check({0, 1, 2, 7});
  ASSERT_TRUE(h.fib_.RemoveVr(1).ok());
  h.model_.DropVr(1);
  h.Check({0, 1, 2, 7});  // VR 1 now answers drop
  EXPECT_EQ(h.fib_.RemoveVr(1).code(), StatusCode::kNotFound);
  h.fib_.Rebuild();
  h.Check({0, 1, 2, 7});
  h.AddVr(1);  // the same id again, empty
  h.Check({0, 1, 2, 7});
  EXPECT_EQ(h.fib_.Vrs(), (std::vector<VrId>{0, 1, 2, 7}));
}

TEST(MultiVrFibApiTest, RejectsBadInput) {
  Fib4 fib;
  NextHop nh{IpAddr::V4(0x0a000001), 1};
  EXPECT_EQ(fib.AddRoute(3, IpPrefix::Default(Family::kIpv4), nh).code(), StatusCode::kNotFound);
  ASSERT_TRUE(fib.AddVr(3).ok());
  EXPECT_EQ(fib.AddRoute(3, IpPrefix::Default(Family::kIpv6), nh).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(fib.AddRoute(3, uint32_t{0}, 33, nh).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(fib.DeleteRoute(3, *IpPrefix::Parse("10.0.0.0/8")).code(), StatusCode::kNotFound);
  EXPECT_EQ(fib.AddVr(FibOptions::kMaxVrs).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(fib.AddRoute(3, *IpPrefix::Parse("10.0.0.0/8"), nh).ok());
  Fib4::ReaderSlot slot(fib);
  Fib4::ReadSection rs(fib, slot);
  NextHopId id = rs.Lookup(3, *IpAddr::Parse("10.1.2.3"));
  ASSERT_NE(id, kDropNextHop);
  ASSERT_EQ(rs.Resolve(3, id)->size(), 1u);
  EXPECT_EQ((*rs.Resolve(3, id))[0], nh);
  EXPECT_EQ(rs.Lookup(3, *IpAddr::Parse("11.1.2.3")), kDropNextHop);
  EXPECT_EQ(rs.Lookup(3, *IpAddr::Parse("::1")), kDropNextHop);
  EXPECT_EQ(rs.Lookup(4, *IpAddr::Parse("10.1.2.3")), kDropNextHop);
}

// Alike tables share one group. Unlike ones (every VR covers all /10s with its own next hops and
// adds its own /20s, so rows are as many as leaves and the union is far bigger than one table)
// split, and the split is smaller than the forced single group.
TEST(MultiVrFibPolicyTest, AdaptiveSharesAlikeTablesAndSplitsDissimilarOnes) {
  constexpr VrId kVrs = 32;
  std::mt19937_64 rng(3);
  struct R {
    VrId vr;
    uint32_t key;
    int len;
    uint32_t nh;
  };
  std::vector<R> alike_routes, unlike_routes;
  for (int i = 0; i < 2000; ++i) {
    int len = 16 + int(rng() % 9);
    uint32_t key = MaskKey(static_cast<uint32_t>(rng()), len);
    for (VrId vr = 0; vr < kVrs; ++vr) {
      alike_routes.push_back({vr, key, len, 1 + (i % 3 + vr) % 3u});  // a few shared upstreams
    }
  }
  for (VrId vr = 0; vr < kVrs; ++vr) {
    for (uint32_t i = 0; i < 1024; ++i) {
      unlike_routes.push_back({vr, i << 22, 10, 1 + static_cast<uint32_t>(rng() % 8)});
    }
    for (int i = 0; i < 1000; ++i) {
      unlike_routes.push_back({vr, MaskKey(static_cast<uint32_t>(rng()), 20), 20,
                               1 + static_cast<uint32_t>(rng() % 8)});
    }
  }
  auto load = [&](GroupingPolicy policy, const std::vector<R>& routes) {
    // The classic fill below the root too: wider nodes there (the default) make the trie
    // outweigh these rows, and the policy tries a split only when rows outweigh the trie.
    auto fib = std::make_unique<Fib4>(
        FibOptions{.trie = {.root_bits = 12, .fill_below_root = 0.5}, .policy = policy});
    for (VrId vr = 0; vr < kVrs; ++vr) EXPECT_TRUE(fib->AddVr(vr).ok());
    fib->BeginBulkLoad();
    for (const R& r : routes) {
      EXPECT_TRUE(fib->AddRoute(r.vr, r.key, r.len, MakeNextHop<uint32_t>(r.nh)).ok());
    }
    fib->EndBulkLoad();
    return fib->Stats();
  };
  FibStats a = load(GroupingPolicy::kAdaptive, alike_routes);
  FibStats u = load(GroupingPolicy::kAdaptive, unlike_routes);
  FibStats u_shared = load(GroupingPolicy::kShared, unlike_routes);
  EXPECT_EQ(a.groups.size(), 1u);
  EXPECT_LE(a.shared_rows, 10u);
  EXPECT_GT(u.groups.size(), 1u);
  EXPECT_EQ(u_shared.groups.size(), 1u);
  EXPECT_LT(u.trie_bytes + u.row_bytes, u_shared.trie_bytes + u_shared.row_bytes);
  EXPECT_EQ(a.rebuilds, 1u);
  EXPECT_GT(a.routes, 2000u);
  uint64_t leaves = 0;
  for (uint64_t n : a.depth_histogram) leaves += n;
  EXPECT_EQ(leaves, a.groups[0].leaves);
  EXPECT_GT(a.trie_nodes, leaves);
}

}  // namespace
}  // namespace strata::fib
