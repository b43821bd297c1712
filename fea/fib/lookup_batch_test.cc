// ReadSection::LookupBatch (interleaved trie walks) against Lookup() and a naive per-VR LPM:
// IPv4 and IPv6, one shared group and per-VR tries (walks of one batch in different tries),
// batch sizes around the lane count, unknown VRs in the batch.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "fea/fib/multi_vr_fib.h"
#include "testing/fea/fib_test_util.h"

namespace strata::fib {
namespace {

using test_util::LpmModel;
using test_util::MakeNextHop;

template <typename Key>
class LookupBatchTest : public ::testing::Test {};
using Keys = ::testing::Types<uint32_t, Uint128>;
TYPED_TEST_SUITE(LookupBatchTest, Keys);

TYPED_TEST(LookupBatchTest, MatchesLookupAndModel) {
  using Key = TypeParam;
  constexpr int kBits = KeyTraits<Key>::kBits;
  constexpr VrId kVrs = 6;
  for (GroupingPolicy policy : {GroupingPolicy::kShared, GroupingPolicy::kPerVr}) {
    FibOptions o;
    o.policy = policy;
    o.trie.root_bits = 8;
    MultiVrFib<Key> fib(o);
    LpmModel<Key> model;
    std::mt19937_64 rng(static_cast<uint64_t>(policy) + 17);
    for (VrId vr = 0; vr < kVrs; ++vr) ASSERT_TRUE(fib.AddVr(vr).ok());
    std::vector<Key> bases;
    for (int i = 0; i < 16; ++i) bases.push_back(LpmModel<Key>::RandomKey(rng));
    for (int i = 0; i < 1500; ++i) {
      VrId vr = static_cast<VrId>(rng() % (kVrs - 1));  // the last VR stays empty
      int len = static_cast<int>(rng() % (kBits + 1));
      Key key = bases[rng() % bases.size()] ^ (LpmModel<Key>::RandomKey(rng) >> (kBits / 4));
      uint32_t nh = 1 + static_cast<uint32_t>(rng() % 7);
      ASSERT_TRUE(fib.AddRoute(vr, key, len, MakeNextHop<Key>(nh)).ok());
      model.Add(vr, key, len, nh);
      if (i == 700) fib.Rebuild();  // a mix of built and incrementally updated leaves
    }
    std::vector<Key> probes = model.Probes(rng, 2000);
    std::vector<VrId> vrs;
    std::vector<Key> addrs;
    for (size_t i = 0; i < probes.size(); ++i) {
      addrs.push_back(probes[i]);
      vrs.push_back(static_cast<VrId>(rng() % (kVrs + 2)));  // kVrs, kVrs + 1: no such VR
    }
    typename MultiVrFib<Key>::ReaderSlot slot(fib);
    typename MultiVrFib<Key>::ReadSection rs(fib, slot);
    size_t at = 0;
    for (size_t n : {1, 31, 32, 33, 64, 100, 1000}) {
      n = std::min(n, addrs.size() - at);
      std::vector<NextHopId> out(n, 0xffff);
      rs.LookupBatch(std::span(vrs.data() + at, n), std::span(addrs.data() + at, n),
                     std::span(out));
      for (size_t i = 0; i < n; ++i) {
        const VrId vr = vrs[at + i];
        ASSERT_EQ(out[i], rs.Lookup(vr, addrs[at + i])) << "policy " << int(policy) << " #" << i;
        const NextHopGroup* g = rs.Resolve(vr, out[i]);
        ASSERT_EQ(g == nullptr ? 0u : (*g)[0].ifindex, model.Lookup(vr, addrs[at + i]));
      }
      at += n;
    }
    EXPECT_GT(at, 1000u);
  }
}

}  // namespace
}  // namespace strata::fib
