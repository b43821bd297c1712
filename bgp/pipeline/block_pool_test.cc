// BlockPool and BlockAllocator: blocks are reused, distinct while live, and serve shared_ptr.
#include "bgp/pipeline/block_pool.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "bgp/pipeline/bgp_route.h"

namespace strata::bgp {
namespace {

TEST(BlockPoolTest, LiveBlocksAreDistinctAndFreedOnesComeBack) {
  using Pool = BlockPool<48>;
  std::set<void*> live;
  std::vector<void*> blocks;
  for (int i = 0; i < 5000; ++i) {  // several chunks
    void* b = Pool::Allocate();
    EXPECT_TRUE(live.insert(b).second);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % alignof(std::max_align_t), 0u);
    blocks.push_back(b);
  }
  void* last = blocks.back();
  Pool::Deallocate(last);
  EXPECT_EQ(Pool::Allocate(), last);  // the free list first
  for (void* b : blocks) Pool::Deallocate(b);
}

TEST(BlockPoolTest, RoutesAreSharedFromPooledBlocks) {
  AttributeSetPtr attrs = AttributeSet::Make(PathAttributes{});
  BgpRouteRef a = MakeRoute(IpPrefix::Default(Family::kIpv4), attrs, nullptr);
  BgpRouteRef b = WithAttrs(*a, attrs);
  EXPECT_NE(a.get(), b.get());
  EXPECT_EQ(b->prefix, a->prefix);
  const BgpRoute* old = b.get();
  b.reset();
  BgpRouteRef c = WithAttrs(*a, attrs);  // the block b left
  EXPECT_EQ(c.get(), old);
}

TEST(BlockPoolTest, BlocksMayBeFreedOnAnotherThread) {
  std::vector<BgpRouteRef> made;
  std::thread t([&] {
    for (int i = 0; i < 1000; ++i)
      made.push_back(MakeRoute(IpPrefix::Default(Family::kIpv4), nullptr, nullptr));
  });
  t.join();
  made.clear();  // to this thread's list
  BgpRouteRef again = MakeRoute(IpPrefix::Default(Family::kIpv4), nullptr, nullptr);
  EXPECT_NE(again, nullptr);
}

}  // namespace
}  // namespace strata::bgp
