#include "common/block_pool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

namespace strata {
namespace {

TEST(BlockPoolTest, BlocksAreDistinctReusedAndAllReleasedWithTheLast) {
  BlockPool pool(104, 8);
  std::vector<void*> blocks;
  for (int i = 0; i < 2000; ++i) {  // several slabs
    void* p = pool.allocate();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 8, 0u);
    std::memset(p, i & 0xff, 104);
    blocks.push_back(p);
  }
  EXPECT_EQ(std::set<void*>(blocks.begin(), blocks.end()).size(), blocks.size());
  EXPECT_EQ(pool.live(), 2000u);
  void* freed = blocks[17];
  pool.deallocate(freed);
  EXPECT_EQ(pool.allocate(), freed);  // a freed block is reused first
  for (void* p : blocks) pool.deallocate(p);
  EXPECT_EQ(pool.live(), 0u);
  EXPECT_NE(pool.allocate(), nullptr);  // usable again after releasing its slabs
}

TEST(BlockPoolTest, ThreadsShareOnePool) {
  BlockPool pool(48, 8);
  void* keep = pool.allocate();  // the slabs stay while the threads come and go
  constexpr int kThreads = 4;
  constexpr int kRounds = 20000;
  std::vector<std::thread> threads;
  std::vector<std::vector<void*>> held(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&pool, &mine = held[t], t] {
      for (int i = 0; i < kRounds; ++i) {
        void* p = pool.allocate();
        std::memset(p, t, 48);  // a block given to two threads at once would be overwritten
        mine.push_back(p);
        if (i % 3 == 2) {  // free some as we go: the free list is shared too
          for (int k = 0; k < 2; ++k) {
            void* q = mine.back();
            mine.pop_back();
            EXPECT_EQ(static_cast<unsigned char*>(q)[47], t);
            pool.deallocate(q);
          }
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  std::set<void*> all;
  size_t count = 0;
  for (int t = 0; t < kThreads; ++t) {
    for (void* p : held[t]) {
      EXPECT_EQ(static_cast<unsigned char*>(p)[0], t);
      all.insert(p);
      ++count;
    }
  }
  EXPECT_EQ(all.size(), count);
  EXPECT_EQ(pool.live(), count + 1);
  for (auto& mine : held) {
    for (void* p : mine) pool.deallocate(p);
  }
  pool.deallocate(keep);
  EXPECT_EQ(pool.live(), 0u);
}

TEST(BlockPoolTest, AllocatorTakesSingleObjectsFromItsTypesPool) {
  struct Payload {
    char bytes[88];
  };
  PoolAllocator<Payload> alloc;
  const size_t before = PoolAllocator<Payload>::Pool().live();
  Payload* p = alloc.allocate(1);
  EXPECT_EQ(PoolAllocator<Payload>::Pool().live(), before + 1);
  Payload* many = alloc.allocate(3);  // arrays are not pooled
  EXPECT_EQ(PoolAllocator<Payload>::Pool().live(), before + 1);
  alloc.deallocate(many, 3);
  alloc.deallocate(p, 1);
  EXPECT_EQ(PoolAllocator<Payload>::Pool().live(), before);
  // allocate_shared rebinds the allocator to its control block type: one block per object.
  auto shared = std::allocate_shared<const Payload>(alloc);
  EXPECT_EQ(shared.use_count(), 1);
}

}  // namespace
}  // namespace strata
