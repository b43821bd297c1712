// Readers looking up while a writer updates: every answer must be one that was valid just before
// or after some update that overlapped the lookup. Also runs the writer across group rebuilds and
// array growth so that reclaimed memory is exercised (run under ASan/TSan in CI).
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>
#include <vector>

#include "fea/fib/multi_vr_fib.h"
#include "testing/fea/fib_test_util.h"

namespace strata::fib {
namespace {

using test_util::LpmModel;
using test_util::MakeNextHop;

struct Op {
  bool add;
  VrId vr;
  uint32_t key;
  int len;
  uint32_t nh;
};

TEST(FibConcurrencyTest, ReadersSeeOnlyStatesBeforeOrAfterEachUpdate) {
  constexpr int kOps = 3000;
  constexpr VrId kVrs = 3;
  std::mt19937_64 rng(11);
  FibOptions o;
  o.trie.root_bits = 8;
  o.trie.reserve = 1.0;  // force node array growth during the run
  Fib4 fib(o);
  LpmModel<uint32_t> model;
  for (VrId vr = 0; vr < kVrs; ++vr) ASSERT_TRUE(fib.AddVr(vr).ok());
  // A starting table, then a script of adds and deletes (with rebuilds in between).
  std::vector<std::pair<uint32_t, int>> pool;
  for (int i = 0; i < 200; ++i) {
    int len = static_cast<int>(rng() % 33);
    pool.push_back({MaskKey(static_cast<uint32_t>(rng()) & 0xff00ffff, len), len});
  }
  pool.push_back({0, 0});
  for (const auto& p : pool) {
    VrId vr = static_cast<VrId>(rng() % kVrs);
    ASSERT_TRUE(fib.AddRoute(vr, p.first, p.second, MakeNextHop<uint32_t>(1)).ok());
    model.Add(vr, p.first, p.second, 1);
  }
  fib.Rebuild();
  std::vector<Op> ops;
  {
    LpmModel<uint32_t> m = model;
    for (int i = 0; i < kOps; ++i) {
      const auto& p = pool[rng() % pool.size()];
      VrId vr = static_cast<VrId>(rng() % kVrs);
      bool present = m.table(vr).count({p.first, p.second}) != 0;
      Op op{!present || rng() % 2 == 0, vr, p.first, p.second, 1 + uint32_t(rng() % 4)};
      if (op.add) {
        m.Add(vr, op.key, op.len, op.nh);
      } else {
        m.Delete(vr, op.key, op.len);
      }
      ops.push_back(op);
    }
  }
  std::vector<uint32_t> probes = model.Probes(rng, 200);
  // expected[s][probe * kVrs + vr]: the answer after the first s ops.
  std::vector<std::vector<uint8_t>> expected;
  {
    LpmModel<uint32_t> m = model;
    auto snapshot = [&] {
      std::vector<uint8_t> e;
      for (uint32_t a : probes) {
        for (VrId vr = 0; vr < kVrs; ++vr) e.push_back(static_cast<uint8_t>(m.Lookup(vr, a)));
      }
      expected.push_back(std::move(e));
    };
    snapshot();
    for (const Op& op : ops) {
      if (op.add) {
        m.Add(op.vr, op.key, op.len, op.nh);
      } else {
        m.Delete(op.vr, op.key, op.len);
      }
      snapshot();
    }
  }
  std::atomic<int> done_ops{0};
  std::atomic<bool> stop{false};
  std::atomic<int> started{0};
  std::atomic<long> checked{0}, bad{0};
  // Reader 1 looks up one address at a time, reader 2 eight through LookupBatch.
  auto reader = [&](uint64_t seed) {
    std::mt19937_64 r(seed);
    Fib4::ReaderSlot slot(fib);
    ASSERT_TRUE(slot.ok());
    started.fetch_add(1);
    const size_t batch = seed == 2 ? 8 : 1;
    while (!stop.load()) {
      Fib4::ReadSection rs(fib, slot);
      for (int i = 0; i < 64; ++i) {
        size_t p[8];
        VrId vrs[8];
        uint32_t addrs[8];
        NextHopId ids[8];
        for (size_t j = 0; j < batch; ++j) {
          p[j] = r() % probes.size();
          vrs[j] = static_cast<VrId>(r() % kVrs);
          addrs[j] = probes[p[j]];
        }
        int before = done_ops.load(std::memory_order_acquire);
        if (batch == 1) {
          ids[0] = rs.Lookup(vrs[0], addrs[0]);
        } else {
          rs.LookupBatch(std::span(vrs, batch), std::span(addrs, batch), std::span(ids, batch));
        }
        int after = done_ops.load(std::memory_order_acquire);
        for (size_t j = 0; j < batch; ++j) {
          const NextHopGroup* g = rs.Resolve(vrs[j], ids[j]);
          uint32_t got = g == nullptr ? 0 : (*g)[0].ifindex;
          bool ok = false;
          for (int s = before; s <= std::min(after + 1, kOps) && !ok; ++s) {
            ok = expected[s][p[j] * kVrs + vrs[j]] == got;
          }
          checked.fetch_add(1, std::memory_order_relaxed);
          if (!ok) bad.fetch_add(1, std::memory_order_relaxed);
        }
      }
    }
  };
  std::thread t1(reader, 1), t2(reader, 2);
  // On a loaded machine the readers may not get a core before the writer is done: wait for them.
  while (started.load() < 2) std::this_thread::yield();
  for (int i = 0; i < kOps; ++i) {
    const Op& op = ops[i];
    Status s = op.add ? fib.AddRoute(op.vr, op.key, op.len, MakeNextHop<uint32_t>(op.nh))
                      : fib.DeleteRoute(op.vr, op.key, op.len);
    ASSERT_TRUE(s.ok()) << s.ToString();
    done_ops.store(i + 1, std::memory_order_release);
    if (i % 1000 == 999) {
      fib.Rebuild();  // swaps every group while readers run
    }
  }
  while (checked.load() <= 1000) std::this_thread::yield();
  stop.store(true);
  t1.join();
  t2.join();
  EXPECT_GT(checked.load(), 1000);
  EXPECT_EQ(bad.load(), 0);
}

}  // namespace
}  // namespace strata::fib
