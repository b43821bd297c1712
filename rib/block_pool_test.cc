#include "rib/block_pool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

namespace strata::rib {
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
}  // namespace strata::rib
