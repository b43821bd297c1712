// Routes come from the pool of their type (rib/block_pool.h): a freed route's block serves the
// next, and a route may be freed on another thread than the one that made it.
#include "bgp/pipeline/bgp_route.h"

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

namespace strata::bgp {
namespace {

TEST(BgpRouteTest, RoutesAreSharedFromPooledBlocks) {
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

TEST(BgpRouteTest, RoutesMayBeFreedOnAnotherThread) {
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
