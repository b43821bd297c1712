// DiscardLog: bounded, oldest dropped first, one reason text per UPDATE, a total of every
// prefix discarded.
#include "bgp/process/discard_log.h"

#include <gtest/gtest.h>

#include <vector>

namespace strata::bgp {
namespace {

std::vector<IpPrefix> Prefixes(int first, int n) {
  std::vector<IpPrefix> out;
  for (int i = first; i < first + n; ++i) {
    out.push_back(*IpPrefix::Parse("10." + std::to_string(i) + ".0.0/16"));
  }
  return out;
}

TEST(DiscardLogTest, KeepsTheLastCapacityPrefixesWithTheirReason) {
  DiscardLog log(4);
  log.Add(Prefixes(0, 3), DiscardLog::Reason::kMalformed, "ORIGIN 7", 1000);
  log.Add(Prefixes(3, 2), DiscardLog::Reason::kOwnNextHop, "NEXT_HOP 10.0.0.1 is ours", 2000);
  ASSERT_EQ(log.entries().size(), 4u);
  EXPECT_EQ(log.total(), 5u);
  EXPECT_EQ(log.entries().front().prefix.ToString(), "10.1.0.0/16");  // 10.0/16 dropped
  EXPECT_EQ(log.entries().front().reason, DiscardLog::Reason::kMalformed);
  EXPECT_EQ(*log.entries().front().why, "ORIGIN 7");
  EXPECT_EQ(log.entries().back().prefix.ToString(), "10.4.0.0/16");
  EXPECT_EQ(log.entries().back().unix_ms, 2000);
  EXPECT_EQ(DiscardReasonName(log.entries().back().reason), "own-nexthop");
  // The prefixes of one UPDATE share their text.
  EXPECT_EQ(log.entries()[2].why.get(), log.entries()[3].why.get());
}

TEST(DiscardLogTest, AnUpdateLongerThanTheLogKeepsItsLastPrefixes) {
  DiscardLog log(3);
  log.Add(Prefixes(0, 10), DiscardLog::Reason::kMaxPrefix, "over 5", 1);
  ASSERT_EQ(log.entries().size(), 3u);
  EXPECT_EQ(log.entries().front().prefix.ToString(), "10.7.0.0/16");
  EXPECT_EQ(log.total(), 10u);
}

TEST(DiscardLogTest, NothingDiscardedCostsNothing) {
  DiscardLog log;
  log.Add({}, DiscardLog::Reason::kFirstAs, "x", 1);
  EXPECT_TRUE(log.entries().empty());
  EXPECT_EQ(log.total(), 0u);
}

}  // namespace
}  // namespace strata::bgp
