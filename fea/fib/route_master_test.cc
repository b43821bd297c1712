// RouteMaster: set/replace/remove per VR, masks and pruning, per-VR iteration and removal.
#include "fea/fib/route_master.h"

#include <gtest/gtest.h>

#include <vector>

namespace strata::fib {
namespace {

TEST(RouteMasterTest, SetReplaceFindRemove) {
  RouteMaster<uint32_t> m;
  EXPECT_EQ(m.Set(1, 0x0a000000, 8, 5), kDropNextHop);
  EXPECT_EQ(m.Set(2, 0x0a000000, 8, 6), kDropNextHop);
  EXPECT_EQ(m.Set(1, 0x0a000000, 8, 7), 5);  // replace returns the old next hop
  EXPECT_EQ(m.Find(1, 0x0a000000, 8), 7);
  EXPECT_EQ(m.Find(2, 0x0a000000, 8), 6);
  EXPECT_FALSE(m.Find(3, 0x0a000000, 8).has_value());
  EXPECT_FALSE(m.Find(1, 0x0a000000, 9).has_value());
  EXPECT_EQ(m.Remove(1, 0x0a000000, 8), 7);
  EXPECT_EQ(m.Remove(1, 0x0a000000, 8), kDropNextHop);
  EXPECT_EQ(m.Find(2, 0x0a000000, 8), 6);
}

TEST(RouteMasterTest, MasksTrackVrsBelowAndEmptyPathsArePruned) {
  RouteMaster<uint32_t> m;
  size_t empty = m.node_count();
  m.Set(3, 0xc0a80100, 24, 1);
  EXPECT_EQ(m.node_count(), empty + 24);
  EXPECT_EQ(m.node(RouteMaster<uint32_t>::kRoot).mask, RouteMaster<uint32_t>::VrBit(3));
  m.Set(4, 0xc0000000, 8, 2);
  EXPECT_EQ(m.node(RouteMaster<uint32_t>::kRoot).mask,
            RouteMaster<uint32_t>::VrBit(3) | RouteMaster<uint32_t>::VrBit(4));
  m.Remove(3, 0xc0a80100, 24);
  EXPECT_EQ(m.node_count(), empty + 8);
  EXPECT_EQ(m.node(RouteMaster<uint32_t>::kRoot).mask, RouteMaster<uint32_t>::VrBit(4));
}

TEST(RouteMasterTest, ForEachAndRemoveVr) {
  RouteMaster<Uint128> m;
  Uint128 a = Uint128{0x20010db8} << 96;
  m.Set(1, a, 32, 1);
  m.Set(1, a | (Uint128{1} << 80), 48, 2);
  m.Set(2, a, 32, 3);
  m.Set(1, 0, 0, 4);
  std::vector<int> lens;
  m.ForEach(1, [&](Uint128, int len, NextHopId) { lens.push_back(len); });
  EXPECT_EQ(lens, (std::vector<int>{0, 32, 48}));
  std::vector<NextHopId> removed;
  m.RemoveVr(1, [&](NextHopId nh) { removed.push_back(nh); });
  EXPECT_EQ(removed.size(), 3u);
  EXPECT_FALSE(m.Find(1, a, 32).has_value());
  EXPECT_EQ(m.Find(2, a, 32), 3);
  lens.clear();
  m.ForEach(1, [&](Uint128, int len, NextHopId) { lens.push_back(len); });
  EXPECT_TRUE(lens.empty());
}

}  // namespace
}  // namespace strata::fib
