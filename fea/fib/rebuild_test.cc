// The rebuild policy (NeedsRebuild), RebuildConcurrently with route changes applied while it
// builds, and the background worker; results compared against a naive per-VR LPM.
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "fea/fib/multi_vr_fib.h"
#include "testing/fea/fib_test_util.h"

namespace strata::fib {
namespace {

using test_util::LpmModel;
using test_util::MakeNextHop;

constexpr VrId kVrs = 4;

struct Change {
  bool add;
  VrId vr;
  uint32_t key;
  int len;
  uint32_t nh;
};

// Random prefixes (some nested, a default route in VR 0), random changes of them.
class RebuildHarness {
 public:
  explicit RebuildHarness(FibOptions o, uint64_t seed) : fib_(std::move(o)), rng_(seed) {
    for (VrId vr = 0; vr < kVrs; ++vr) EXPECT_TRUE(fib_.AddVr(vr).ok());
    for (int i = 0; i < 300; ++i) {
      int len = static_cast<int>(rng_() % 33);
      pool_.push_back({MaskKey(static_cast<uint32_t>(rng_()) & 0xff0fffff, len), len});
    }
    pool_.push_back({0, 0});
  }
  Change RandomChange() {
    const auto& p = pool_[rng_() % pool_.size()];
    VrId vr = static_cast<VrId>(rng_() % kVrs);
    bool present = model_.table(vr).count({p.first, p.second}) != 0;
    return Change{!present || rng_() % 3 != 0, vr, p.first, p.second, 1 + uint32_t(rng_() % 5)};
  }
  void Apply(const Change& c) {
    if (c.add) {
      ASSERT_TRUE(fib_.AddRoute(c.vr, c.key, c.len, MakeNextHop<uint32_t>(c.nh)).ok());
      model_.Add(c.vr, c.key, c.len, c.nh);
    } else {
      ASSERT_TRUE(fib_.DeleteRoute(c.vr, c.key, c.len).ok());
      model_.Delete(c.vr, c.key, c.len);
    }
  }
  // Random changes through ApplyBatch (withdraws of absent routes included: no-ops).
  void ApplyRandomBatch(size_t n) {
    std::vector<RouteUpdate<uint32_t>> batch;
    for (size_t i = 0; i < n; ++i) {
      Change c = RandomChange();
      if (rng_() % 8 == 0) c.add = false;
      RouteUpdate<uint32_t> u;
      u.vr = c.vr;
      u.key = c.key | (c.len < 32 ? static_cast<uint32_t>(rng_()) >> c.len : 0);  // host bits
      u.len = c.len;
      u.withdraw = !c.add;
      u.nh = MakeNextHop<uint32_t>(c.nh);
      batch.push_back(u);
      if (c.add) {
        model_.Add(c.vr, c.key, c.len, c.nh);
      } else {
        model_.Delete(c.vr, c.key, c.len);
      }
    }
    ASSERT_TRUE(fib_.ApplyBatch(batch).ok());
  }
  void ApplyRandom(int n) {
    for (int i = 0; i < n; ++i) Apply(RandomChange());
  }
  void Check() {
    Fib4::ReaderSlot slot(fib_);
    Fib4::ReadSection rs(fib_, slot);
    for (uint32_t a : model_.Probes(rng_, 300)) {
      for (VrId vr = 0; vr < kVrs; ++vr) {
        const NextHopGroup* g = rs.Resolve(vr, rs.Lookup(vr, a));
        uint32_t got = g == nullptr ? 0 : (*g)[0].ifindex;
        ASSERT_EQ(got, model_.Lookup(vr, a)) << "vr " << vr << " addr " << a;
      }
    }
  }
  Fib4& fib() { return fib_; }

 private:
  Fib4 fib_;
  LpmModel<uint32_t> model_;
  std::mt19937_64 rng_;
  std::vector<std::pair<uint32_t, int>> pool_;
};

FibOptions SmallOptions() {
  FibOptions o;
  o.trie.root_bits = 8;
  return o;
}

TEST(FibRebuildPolicyTest, CountsChangesSinceTheLastRebuild) {
  FibOptions o = SmallOptions();
  o.rebuild_after_updates = 100;
  o.rebuild_growth = 1e9;  // count only
  o.rebuild_dead_fraction = 1e9;
  RebuildHarness h(o, 1);
  h.fib().Rebuild();
  EXPECT_FALSE(h.fib().NeedsRebuild());
  h.ApplyRandom(99);
  EXPECT_FALSE(h.fib().NeedsRebuild());
  h.ApplyRandom(1);
  EXPECT_TRUE(h.fib().NeedsRebuild());
  h.fib().Rebuild();
  EXPECT_FALSE(h.fib().NeedsRebuild());
  EXPECT_TRUE(h.fib().RebuildConcurrently());
  EXPECT_FALSE(h.fib().NeedsRebuild());
}

TEST(FibRebuildPolicyTest, TrieGrowthOverItsBuiltSizeAsksForARebuild) {
  FibOptions o = SmallOptions();
  o.rebuild_after_updates = 0;  // growth only
  o.rebuild_growth = 0.25;
  o.rebuild_dead_fraction = 1e9;
  RebuildHarness h(o, 2);
  h.ApplyRandom(50);
  h.fib().Rebuild();
  EXPECT_FALSE(h.fib().NeedsRebuild());
  // Starting from a small table, adding hundreds of routes grows the groups well past 125%.
  h.ApplyRandom(2000);
  EXPECT_TRUE(h.fib().NeedsRebuild());
  h.Check();
  h.fib().Rebuild();
  EXPECT_FALSE(h.fib().NeedsRebuild());
  h.Check();
}

TEST(FibRebuildTest, ChangesDuringAConcurrentRebuildAreReplayed) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    FibOptions o = SmallOptions();
    o.policy = seed % 3 == 0 ? GroupingPolicy::kPerVr : GroupingPolicy::kAdaptive;
    RebuildHarness* hp = nullptr;
    int replayed = 0;
    // Route changes while the new groups are built from the master copy, without the lock.
    o.during_concurrent_rebuild = [&] {
      hp->ApplyRandom(400);
      replayed += 400;
    };
    RebuildHarness h(o, seed);
    hp = &h;
    h.ApplyRandom(600);
    h.Check();
    const uint64_t before = h.fib().Stats().rebuilds;
    ASSERT_TRUE(h.fib().RebuildConcurrently());
    EXPECT_EQ(h.fib().Stats().rebuilds, before + 1);
    EXPECT_EQ(replayed, 400);
    h.Check();
    // The rebuilt groups keep taking incremental updates.
    h.ApplyRandom(300);
    h.Check();
  }
}

TEST(FibRebuildTest, ConcurrentRebuildGivesUpWhenVrsChange) {
  FibOptions o = SmallOptions();
  Fib4* fp = nullptr;
  o.during_concurrent_rebuild = [&] { ASSERT_TRUE(fp->AddVr(9).ok()); };
  RebuildHarness h(o, 7);
  fp = &h.fib();
  h.ApplyRandom(200);
  const uint64_t before = h.fib().Stats().rebuilds;
  EXPECT_FALSE(h.fib().RebuildConcurrently());
  EXPECT_EQ(h.fib().Stats().rebuilds, before);
  h.Check();
}

TEST(FibRebuildTest, ConcurrentRebuildGivesUpWhenTheLogOverflows) {
  FibOptions o = SmallOptions();
  o.rebuild_log_limit = 10;
  RebuildHarness* hp = nullptr;
  o.during_concurrent_rebuild = [&] { hp->ApplyRandom(100); };
  RebuildHarness h(o, 8);
  hp = &h;
  h.ApplyRandom(200);
  EXPECT_FALSE(h.fib().RebuildConcurrently());
  h.Check();  // the live groups took every change
}

TEST(FibRebuildTest, AutoRebuildRunsOnTheWorkerWhileTheWriterContinues) {
  FibOptions o = SmallOptions();
  o.auto_rebuild = true;
  o.rebuild_after_updates = 4000;
  RebuildHarness h(o, 9);
  h.ApplyRandom(20000);  // checks every 4096 changes; starts the worker when due
  h.fib().WaitForBackgroundRebuild();
  EXPECT_GE(h.fib().Stats().rebuilds, 1u);
  h.Check();
  h.fib().Rebuild();
  EXPECT_FALSE(h.fib().NeedsRebuild());
  EXPECT_FALSE(h.fib().MaybeStartBackgroundRebuild());  // nothing due
  h.Check();
}

TEST(FibBatchTest, RandomBatchesMatchModel) {
  for (uint64_t seed = 20; seed < 24; ++seed) {
    FibOptions o = SmallOptions();
    o.policy = seed % 2 == 0 ? GroupingPolicy::kShared : GroupingPolicy::kAdaptive;
    RebuildHarness h(o, seed);
    h.ApplyRandom(300);
    h.fib().Rebuild();
    for (size_t n : {1, 2, 7, 40, 300, 1000}) {
      h.ApplyRandomBatch(n);
      h.Check();
    }
  }
}

}  // namespace
}  // namespace strata::fib
