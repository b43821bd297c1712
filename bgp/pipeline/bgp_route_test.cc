// Routes come from the pool of their type (common/block_pool.h) and count their own references: a
// freed route's block serves the next, and a route may be freed on another thread than the one
// that made it (once the maker has let go: references are not thread-safe).
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

// A route counts its own references: a copy starts with none of the original's, and the last
// reference gone returns the block to the pool.
TEST(BgpRouteTest, RoutesCountTheirReferences) {
  AttributeSetPtr attrs = AttributeSet::Make(PathAttributes{});
  BgpRoutePtr made = NewRoute();
  made->prefix = *IpPrefix::Parse("10.1.0.0/16");
  made->attrs = attrs;
  made->igp_metric = 7;
  made->resolvable = true;  // the flags share the count's word: a copy keeps them
  BgpRouteRef a = made;
  made.reset();
  BgpRouteRef a2 = a;
  EXPECT_EQ(a->use_count(), 2u);
  BgpRoutePtr copy = NewRoute(*a);
  EXPECT_EQ(copy->use_count(), 1u);
  EXPECT_EQ(copy->prefix, a->prefix);
  EXPECT_TRUE(copy->resolvable);
  EXPECT_FALSE(copy->annotated);
  EXPECT_EQ(copy->igp_metric, 7u);
  copy->annotated = true;  // and setting one leaves the count alone
  EXPECT_EQ(copy->use_count(), 1u);
  EXPECT_TRUE(a->resolvable);
  a2.reset();
  EXPECT_EQ(a->use_count(), 1u);
  const BgpRoute* freed = copy.get();
  copy.reset();
  EXPECT_EQ(NewRoute().get(), freed);  // (made and freed again at once)
}

TEST(BgpRouteTest, ARouteIsOneBlockAndItsCountSaturates) {
  EXPECT_EQ(sizeof(BgpRoute), 40u);
  BgpRouteRef r = MakeRoute(IpPrefix::Default(Family::kIpv4), nullptr, nullptr);
  std::vector<BgpRouteRef> refs(BgpRoute::kSaturated - 2, r);
  EXPECT_EQ(r->use_count(), BgpRoute::kSaturated - 1);
  BgpRouteRef one_more = r;  // reaches the limit: from now on the count stays there
  BgpRouteRef beyond = r;
  EXPECT_EQ(r->use_count(), BgpRoute::kSaturated);
  refs.clear();
  one_more.reset();
  beyond.reset();
  EXPECT_EQ(r->use_count(), BgpRoute::kSaturated);  // never freed, never reused
  EXPECT_EQ(r->prefix, IpPrefix::Default(Family::kIpv4));
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
