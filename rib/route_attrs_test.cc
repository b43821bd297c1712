#include "rib/route_attrs.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "rib/rib_route.h"
#include "testing/rib/rib_test_util.h"

namespace strata::rib {
namespace {

using test_util::A;
using test_util::P;

RouteAttrs Attrs(std::string_view nexthop, uint32_t metric = 0) {
  RouteAttrs a;
  a.protocol = "ospf";
  a.nexthop = A(nexthop);
  a.metric = metric;
  return a;
}

TEST(SharedAttrsTest, EqualSetsAreStoredOnceAndFreedWithTheLastHandle) {
  const size_t before = SharedAttrs::Live();
  {
    SharedAttrs a(Attrs("192.0.2.1", 5));
    SharedAttrs b(Attrs("192.0.2.1", 5));
    SharedAttrs c(Attrs("192.0.2.1", 6));
    EXPECT_EQ(a, b);
    EXPECT_FALSE(a == c);
    EXPECT_EQ(SharedAttrs::Live(), before + 2);
    EXPECT_EQ(b->metric, 5u);
    EXPECT_EQ(c->metric, 6u);
    {
      SharedAttrs copy = a;
      a = SharedAttrs();
      b = SharedAttrs();
      EXPECT_EQ(SharedAttrs::Live(), before + 2);  // the copy still holds it
      EXPECT_EQ(copy->nexthop, A("192.0.2.1"));
    }
    EXPECT_EQ(SharedAttrs::Live(), before + 1);
  }
  EXPECT_EQ(SharedAttrs::Live(), before);
}

TEST(SharedAttrsTest, DefaultHandleNeedsNoRecord) {
  const size_t before = SharedAttrs::Live();
  SharedAttrs d;
  SharedAttrs interned{RouteAttrs()};
  EXPECT_EQ(d, interned);
  EXPECT_EQ(d->metric, 0u);
  EXPECT_TRUE(d->protocol.empty());
  EXPECT_EQ(SharedAttrs::Live(), before);
}

TEST(SharedAttrsTest, FreedSlotIsReusedForOtherAttributes) {
  const size_t before = SharedAttrs::Live();
  { SharedAttrs gone(Attrs("192.0.2.9", 1)); }
  SharedAttrs next(Attrs("192.0.2.10", 2));
  EXPECT_EQ(next->nexthop, A("192.0.2.10"));
  EXPECT_EQ(next->metric, 2u);
  EXPECT_EQ(SharedAttrs::Live(), before + 1);
}

TEST(SharedAttrsTest, ResolutionsAreInternedByIdentityButCompareByValue) {
  RouteAttrs x = Attrs("10.9.9.9");
  RouteAttrs y = x;
  x.resolution = ResolutionRef::Make(Resolution{A("192.0.2.1"), P("10.9.0.0/16"), 3});
  y.resolution = ResolutionRef::Make(Resolution{A("192.0.2.1"), P("10.9.0.0/16"), 3});
  SharedAttrs sx(x);
  SharedAttrs sy(y);
  EXPECT_FALSE(sx == sy);
  EXPECT_EQ(*sx, *sy);
  RouteAttrs z = x;  // the same resolution object
  EXPECT_EQ(SharedAttrs(z), sx);
  EXPECT_EQ(sx->resolution->igp_metric, 3u);
}

TEST(SharedAttrsTest, RoutesShareTheirAttributesAndChangeThemAlone) {
  static_assert(sizeof(RibRoute) == 32);
  const size_t before = SharedAttrs::Live();
  RibRoute r1(P("10.1.0.0/16"), Attrs("192.0.2.1", 4));
  RibRoute r2(P("10.2.0.0/16"), Attrs("192.0.2.1", 4));
  EXPECT_EQ(r1.shared_attrs(), r2.shared_attrs());
  EXPECT_EQ(SharedAttrs::Live(), before + 1);
  r2.set_metric(7);
  EXPECT_EQ(r1.metric(), 4u);
  EXPECT_EQ(r2.metric(), 7u);
  EXPECT_EQ(r2.nexthop(), A("192.0.2.1"));
  EXPECT_EQ(r2.protocol(), "ospf");
  EXPECT_EQ(SharedAttrs::Live(), before + 2);
  RibRoute r3 = r1;
  r3.prefix = r2.prefix;
  EXPECT_FALSE(r3 == r2);
  r3.set_metric(7);
  EXPECT_EQ(r3, r2);
}

TEST(SharedAttrsTest, ThreadsInterningAndDroppingTheSameSetsKeepCountsRight) {
  const size_t before = SharedAttrs::Live();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      std::vector<SharedAttrs> held;
      for (int i = 0; i < 20000; ++i) {
        held.emplace_back(Attrs("192.0.2.1", static_cast<uint32_t>((i + t) % 17)));
        if (held.size() > 50) held.erase(held.begin(), held.begin() + 25);
      }
      for (const SharedAttrs& h : held) EXPECT_LT(h->metric, 17u);
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(SharedAttrs::Live(), before);
}

}  // namespace
}  // namespace strata::rib
