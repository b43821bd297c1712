// The automatic rebuild: the garbage criterion of the policy (freed trie slots and rows against
// used bytes), the worker started by the writer API itself (FibOptions::auto_rebuild, on by
// default), its count in FibStats, and lookups by a concurrent reader across the swaps.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "fea/fib/multi_vr_fib.h"
#include "testing/fea/fib_test_util.h"

namespace strata::fib {
namespace {

using test_util::LpmModel;
using test_util::MakeNextHop;

// /24s under 10.0.0.0/8 with next hop 1 + (i % 3).
uint32_t Net(uint32_t i) { return 0x0a000000u | (i << 8); }

TEST(FibAutoRebuildTest, AutoRebuildIsOnByDefault) {
  FibOptions o;
  EXPECT_TRUE(o.auto_rebuild);
  EXPECT_DOUBLE_EQ(o.rebuild_growth, 1.0);
  EXPECT_DOUBLE_EQ(o.rebuild_dead_fraction, 0.5);
}

TEST(FibAutoRebuildTest, GarbageAsksForARebuildThatGivesItBack) {
  FibOptions o;
  o.trie.root_bits = 8;
  o.policy = GroupingPolicy::kShared;
  o.auto_rebuild = false;
  o.rebuild_after_updates = 0;
  o.rebuild_growth = 1e9;  // garbage only
  Fib4 fib(o);
  LpmModel<uint32_t> model;
  constexpr VrId kVrs = 8;
  constexpr uint32_t kNets = 2000;
  for (VrId vr = 0; vr < kVrs; ++vr) ASSERT_TRUE(fib.AddVr(vr).ok());
  fib.BeginBulkLoad();
  for (uint32_t i = 0; i < kNets; ++i) {
    for (VrId vr = 0; vr < kVrs; ++vr) {
      ASSERT_TRUE(fib.AddRoute(vr, Net(i), 24, MakeNextHop<uint32_t>(1 + i % 3)).ok());
      model.Add(vr, Net(i), 24, 1 + i % 3);
    }
  }
  fib.EndBulkLoad();
  EXPECT_FALSE(fib.NeedsRebuild());
  EXPECT_EQ(fib.Stats().dead_bytes, 0u);
  // VR 0 moves every /24 to a next hop of its own (a row per leaf), then back: the rows are
  // freed, and nothing reuses them.
  for (uint32_t nh : {10u, 0u}) {
    for (uint32_t i = 0; i < kNets; ++i) {
      uint32_t hop = nh == 0 ? 1 + i % 3 : nh + i;
      ASSERT_TRUE(fib.AddRoute(0, Net(i), 24, MakeNextHop<uint32_t>(hop)).ok());
      model.Add(0, Net(i), 24, hop);
    }
  }
  FibStats before = fib.Stats();
  EXPECT_GE(before.dead_bytes, kNets * kVrs * sizeof(uint16_t));
  // The garbage is the rows VR 0's detour made (in-place patches free no trie node).
  EXPECT_GE(before.dead_rows, kNets);
  EXPECT_EQ(before.dead_bytes,
            before.dead_rows * kVrs * sizeof(uint16_t) + before.dead_trie_nodes * 4);
  EXPECT_EQ(before.rebuilds, 1u);  // EndBulkLoad()'s
  EXPECT_GT(before.last_rebuild_unix_ms, 0);
  EXPECT_GT(before.last_rebuild_seconds, 0.0);
  EXPECT_TRUE(fib.NeedsRebuild());
  ASSERT_TRUE(fib.RebuildConcurrently());
  FibStats after = fib.Stats();
  EXPECT_EQ(after.rebuilds, before.rebuilds + 1);
  EXPECT_EQ(after.background_rebuilds_started, 0u);  // called directly, not by the worker
  EXPECT_EQ(after.background_rebuilds, 0u);
  EXPECT_GE(after.last_rebuild_unix_ms, before.last_rebuild_unix_ms);
  EXPECT_GT(after.last_rebuild_seconds, 0.0);
  EXPECT_EQ(after.dead_rows, 0u);
  EXPECT_EQ(after.dead_trie_nodes, 0u);
  EXPECT_EQ(after.dead_bytes, 0u);
  EXPECT_LT(after.row_bytes, before.row_bytes);
  EXPECT_FALSE(fib.NeedsRebuild());
  Fib4::ReaderSlot slot(fib);
  Fib4::ReadSection rs(fib, slot);
  std::mt19937_64 rng(3);
  for (uint32_t a : model.Probes(rng, 500)) {
    for (VrId vr = 0; vr < kVrs; ++vr) {
      const NextHopGroup* g = rs.Resolve(vr, rs.Lookup(vr, a));
      ASSERT_EQ(g == nullptr ? 0u : (*g)[0].ifindex, model.Lookup(vr, a)) << a;
    }
  }
}

// VR 0 holds a fixed table that a reader checks without pause; VR 1 (same group) flaps its
// routes to a detour and back, so the group fills with split leaves and the writer's own checks
// start background rebuilds. The reader must see VR 0's answers throughout; VR 1 must match the
// model at the end.
TEST(FibAutoRebuildTest, BackgroundRebuildsKeepReadersAndWritesCorrect) {
  FibOptions o;
  o.trie.root_bits = 8;
  o.policy = GroupingPolicy::kShared;
  o.rebuild_after_updates = 20000;  // small, so that the test rebuilds several times
  Fib4 fib(o);
  LpmModel<uint32_t> model;
  constexpr uint32_t kNets = 3000;
  for (VrId vr = 0; vr < 2; ++vr) ASSERT_TRUE(fib.AddVr(vr).ok());
  for (uint32_t i = 0; i < kNets; ++i) {
    for (VrId vr = 0; vr < 2; ++vr) {
      ASSERT_TRUE(fib.AddRoute(vr, Net(i), 24, MakeNextHop<uint32_t>(1 + i % 3)).ok());
      model.Add(vr, Net(i), 24, 1 + i % 3);
    }
  }
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> wrong{0}, reads{0};
  std::thread reader([&] {
    Fib4::ReaderSlot slot(fib);
    std::mt19937_64 rng(5);
    while (!stop.load(std::memory_order_relaxed)) {
      Fib4::ReadSection rs(fib, slot);
      // Half one by one, half through LookupBatch.
      uint32_t nets[64], addrs[64];
      VrId vrs[64] = {};
      NextHopId ids[64];
      for (int n = 0; n < 64; ++n) {
        nets[n] = static_cast<uint32_t>(rng() % kNets);
        addrs[n] = Net(nets[n]) | static_cast<uint32_t>(rng() & 0xff);
        ids[n] = n < 32 ? rs.Lookup(0, addrs[n]) : 0;
      }
      rs.LookupBatch(std::span(vrs + 32, 32), std::span(addrs + 32, 32), std::span(ids + 32, 32));
      for (int n = 0; n < 64; ++n) {
        const NextHopGroup* g = rs.Resolve(0, ids[n]);
        if (g == nullptr || (*g)[0].ifindex != 1 + nets[n] % 3) wrong.fetch_add(1);
        reads.fetch_add(1, std::memory_order_relaxed);
      }
    }
  });
  std::mt19937_64 rng(9);
  for (int round = 0; round < 100000; ++round) {
    uint32_t i = static_cast<uint32_t>(rng() % kNets);
    uint32_t len = 24 + static_cast<uint32_t>(rng() % 3);  // /25 and /26 split the /24 leaves
    uint32_t key = Net(i) | (static_cast<uint32_t>(rng()) & 0xff);
    ASSERT_TRUE(fib.AddRoute(1, key, static_cast<int>(len), MakeNextHop<uint32_t>(4)).ok());
    if (len == 24) {
      ASSERT_TRUE(fib.AddRoute(1, key, 24, MakeNextHop<uint32_t>(1 + i % 3)).ok());
    } else {
      ASSERT_TRUE(fib.DeleteRoute(1, key, static_cast<int>(len)).ok());
    }
  }
  fib.WaitForBackgroundRebuild();
  stop = true;
  reader.join();
  FibStats s = fib.Stats();
  EXPECT_GE(s.background_rebuilds, 2u);
  EXPECT_EQ(s.rebuilds, s.background_rebuilds);
  // Every worker run has ended (WaitForBackgroundRebuild): each completed or was abandoned.
  EXPECT_EQ(s.background_rebuilds_started, s.background_rebuilds + s.abandoned_rebuilds);
  EXPECT_GT(s.last_rebuild_unix_ms, 0);
  EXPECT_GT(s.last_rebuild_seconds, 0.0);
  EXPECT_EQ(wrong.load(), 0u) << "of " << reads.load();
  EXPECT_GT(reads.load(), 0u);
  Fib4::ReaderSlot slot(fib);
  Fib4::ReadSection rs(fib, slot);
  std::mt19937_64 probe_rng(11);
  for (uint32_t a : model.Probes(probe_rng, 2000)) {
    for (VrId vr = 0; vr < 2; ++vr) {
      const NextHopGroup* g = rs.Resolve(vr, rs.Lookup(vr, a));
      ASSERT_EQ(g == nullptr ? 0u : (*g)[0].ifindex, model.Lookup(vr, a)) << vr << " " << a;
    }
  }
}

}  // namespace
}  // namespace strata::fib
