// ECMP next-hop groups: interning in the per-VR NextHopTable, weighted Select, and the FIB
// returning the whole group for a lookup.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "fea/fib/multi_vr_fib.h"
#include "fea/fib/next_hop_table.h"

namespace strata::fib {
namespace {

NextHop Hop(uint32_t n, uint32_t weight = 1) {
  return NextHop{IpAddr::V4(0x0a000000 + n), n, weight};
}

TEST(NextHopTableTest, InternsGroupsInAnyOrderAndMergesDuplicates) {
  NextHopTable t;
  std::vector<NextHop> abc = {Hop(3), Hop(1), Hop(2, 4)};
  std::vector<NextHop> bca = {Hop(2, 4), Hop(3), Hop(1)};
  StatusOr<NextHopId> a = t.Acquire(abc);
  StatusOr<NextHopId> b = t.Acquire(bca);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, kDropNextHop);
  const NextHopGroup& g = t.Get(*a);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0], Hop(1));  // sorted by address
  EXPECT_EQ(g[1], Hop(2, 4));
  EXPECT_EQ(g[2], Hop(3));
  EXPECT_EQ(g.total_weight(), 6u);
  // A plain next hop is a different group from every ECMP group containing it.
  StatusOr<NextHopId> one = t.Acquire(Hop(1));
  ASSERT_TRUE(one.ok());
  EXPECT_NE(*one, *a);
  EXPECT_EQ(t.Get(*one).size(), 1u);
  // The same address and interface twice: one member with the summed weight.
  std::vector<NextHop> dup = {Hop(5, 2), Hop(6), Hop(5, 3)};
  StatusOr<NextHopId> d = t.Acquire(dup);
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(t.Get(*d).size(), 2u);
  EXPECT_EQ(t.Get(*d)[0], Hop(5, 5));
  EXPECT_EQ(t.size(), 3u);
}

TEST(NextHopTableTest, RejectsBadGroups) {
  NextHopTable t;
  EXPECT_EQ(t.Acquire(std::span<const NextHop>()).status().code(), StatusCode::kInvalidArgument);
  std::vector<NextHop> zero = {Hop(1), Hop(2, 0)};
  EXPECT_EQ(t.Acquire(zero).status().code(), StatusCode::kInvalidArgument);
  std::vector<NextHop> many;
  for (uint32_t i = 0; i <= NextHopGroup::kMaxMembers; ++i) many.push_back(Hop(i + 1));
  EXPECT_EQ(t.Acquire(many).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(t.size(), 0u);
}

TEST(NextHopTableTest, ReleasedGroupIdIsReusedOnlyAfterReclaim) {
  NextHopTable t;
  std::vector<NextHop> g1 = {Hop(1), Hop(2)};
  NextHopId a = *t.Acquire(g1);
  EXPECT_EQ(*t.Acquire(g1), a);  // second reference
  t.Release(a);
  EXPECT_EQ(t.size(), 1u);
  t.Release(a);
  EXPECT_EQ(t.size(), 0u);
  t.Stamp(5);
  // Still readable by a section that began before the release.
  EXPECT_EQ(t.Get(a).size(), 2u);
  std::vector<NextHop> g2 = {Hop(3), Hop(4), Hop(5)};
  NextHopId b = *t.Acquire(g2);
  EXPECT_NE(b, a);  // not reused before the grace period
  t.Reclaim(6);
  std::vector<NextHop> g3 = {Hop(7), Hop(8)};
  NextHopId c = *t.Acquire(g3);
  EXPECT_EQ(c, a);  // reused after it
  EXPECT_EQ(t.Get(c)[0], Hop(7));
  EXPECT_EQ(t.Get(b).size(), 3u);
}

TEST(NextHopGroupTest, SelectSplitsTheHashSpaceByWeight) {
  NextHopTable t;
  std::vector<NextHop> hops = {Hop(1, 1), Hop(2, 3), Hop(3, 4)};
  const NextHopGroup& g = t.Get(*t.Acquire(hops));
  std::array<uint32_t, 3> count{};
  constexpr uint32_t kSteps = 1u << 16;
  for (uint32_t i = 0; i < kSteps; ++i) {
    const NextHop& nh = Select(g, i << 16);  // evenly spaced hashes
    ++count[nh.ifindex - 1];
    EXPECT_EQ(&g.Select(i << 16), &nh);  // the same hash picks the same member
  }
  // Shares 1/8, 3/8, 4/8 of the hash space (exact up to rounding at the boundaries).
  EXPECT_NEAR(count[0], kSteps / 8, 1);
  EXPECT_NEAR(count[1], kSteps * 3 / 8, 1);
  EXPECT_NEAR(count[2], kSteps / 2, 1);
  EXPECT_EQ(g.Select(0).ifindex, 1u);
  EXPECT_EQ(g.Select(~uint32_t{0}).ifindex, 3u);
  // Large weights do not overflow.
  std::vector<NextHop> big = {Hop(1, ~uint32_t{0}), Hop(2, ~uint32_t{0})};
  const NextHopGroup& gb = t.Get(*t.Acquire(big));
  EXPECT_EQ(gb.Select(0x7fffffff).ifindex, 1u);
  EXPECT_EQ(gb.Select(0x80000001).ifindex, 2u);
  // One member: always it.
  const NextHopGroup& g1 = t.Get(*t.Acquire(Hop(9)));
  EXPECT_EQ(g1.Select(12345).ifindex, 9u);
}

TEST(MultiVrFibEcmpTest, LookupReturnsTheWholeGroup) {
  Fib4 fib;
  ASSERT_TRUE(fib.AddVr(1).ok());
  ASSERT_TRUE(fib.AddVr(2).ok());
  const IpPrefix p = *IpPrefix::Parse("10.0.0.0/8");
  std::vector<NextHop> ecmp = {Hop(3, 2), Hop(1), Hop(2)};
  ASSERT_TRUE(fib.AddRoute(1, p, ecmp).ok());
  ASSERT_TRUE(fib.AddRoute(2, p, Hop(1)).ok());
  ASSERT_TRUE(fib.AddRoute(1, *IpPrefix::Parse("10.1.0.0/16"), Hop(7)).ok());
  EXPECT_EQ(fib.AddRoute(1, p, std::span<const NextHop>()).code(), StatusCode::kInvalidArgument);
  Fib4::ReaderSlot slot(fib);
  {
    Fib4::ReadSection rs(fib, slot);
    const NextHopGroup* g = rs.Resolve(1, rs.Lookup(1, *IpAddr::Parse("10.2.3.4")));
    ASSERT_NE(g, nullptr);
    ASSERT_EQ(g->size(), 3u);
    EXPECT_EQ((*g)[0], Hop(1));
    EXPECT_EQ((*g)[2], Hop(3, 2));
    EXPECT_EQ(g->total_weight(), 4u);
    const NextHopGroup* more = rs.Resolve(1, rs.Lookup(1, *IpAddr::Parse("10.1.3.4")));
    ASSERT_NE(more, nullptr);
    EXPECT_EQ(more->size(), 1u);
    EXPECT_EQ((*more)[0], Hop(7));
    const NextHopGroup* other = rs.Resolve(2, rs.Lookup(2, *IpAddr::Parse("10.2.3.4")));
    ASSERT_NE(other, nullptr);
    EXPECT_EQ(other->size(), 1u);
  }
  // Replace the group by a smaller one (through a batch), then by a plain route.
  std::vector<NextHop> two = {Hop(4), Hop(5)};
  RouteUpdate<uint32_t> u;
  u.vr = 1;
  u.key = 0x0a000000;
  u.len = 8;
  u.ecmp = two;
  ASSERT_TRUE(fib.ApplyBatch(std::span(&u, 1)).ok());
  {
    Fib4::ReadSection rs(fib, slot);
    const NextHopGroup* g = rs.Resolve(1, rs.Lookup(1, *IpAddr::Parse("10.2.3.4")));
    ASSERT_NE(g, nullptr);
    ASSERT_EQ(g->size(), 2u);
    EXPECT_EQ((*g)[0], Hop(4));
    EXPECT_EQ((*g)[1], Hop(5));
  }
  ASSERT_TRUE(fib.AddRoute(1, p, Hop(6)).ok());
  fib.Rebuild();
  {
    Fib4::ReadSection rs(fib, slot);
    const NextHopGroup* g = rs.Resolve(1, rs.Lookup(1, *IpAddr::Parse("10.2.3.4")));
    ASSERT_NE(g, nullptr);
    ASSERT_EQ(g->size(), 1u);
    EXPECT_EQ((*g)[0], Hop(6));
  }
  EXPECT_EQ(fib.Stats().routes, 3u);
}

TEST(MultiVrFibEcmpTest, EqualGroupsShareOneIdAcrossPrefixes) {
  Fib6 fib;
  ASSERT_TRUE(fib.AddVr(0).ok());
  auto h6 = [](uint32_t n, uint32_t w) {
    return NextHop{*IpAddr::Parse("fe80::" + std::to_string(n)), n, w};
  };
  std::vector<NextHop> a = {h6(1, 1), h6(2, 2)};
  std::vector<NextHop> b = {h6(2, 2), h6(1, 1)};
  ASSERT_TRUE(fib.AddRoute(0, *IpPrefix::Parse("2001:db8::/32"), a).ok());
  ASSERT_TRUE(fib.AddRoute(0, *IpPrefix::Parse("2001:db9::/32"), b).ok());
  Fib6::ReaderSlot slot(fib);
  Fib6::ReadSection rs(fib, slot);
  NextHopId x = rs.Lookup(0, *IpAddr::Parse("2001:db8::1"));
  NextHopId y = rs.Lookup(0, *IpAddr::Parse("2001:db9::1"));
  EXPECT_NE(x, kDropNextHop);
  EXPECT_EQ(x, y);
  EXPECT_EQ(rs.Resolve(0, x)->Select(0xffffffff).ifindex, 2u);
}

}  // namespace
}  // namespace strata::fib
