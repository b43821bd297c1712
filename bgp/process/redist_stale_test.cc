#include "bgp/process/redist_stale.h"

#include <gtest/gtest.h>

namespace strata::bgp {
namespace {

IpPrefix P(std::string_view s) { return *IpPrefix::Parse(s); }

TEST(RedistStaleTest, SweepNamesOnlyWhatTheNewRibDidNotSend) {
  RedistStale stale;
  stale.mark({P("10.5.0.0/16"), P("10.6.0.0/16"), P("2001:db8::/32")});
  EXPECT_EQ(stale.size(), 3u);
  EXPECT_TRUE(stale.refresh(P("10.6.0.0/16")));   // sent again by the new RIB
  EXPECT_FALSE(stale.refresh(P("10.7.0.0/16")));  // new: was never stale
  EXPECT_FALSE(stale.refresh(P("10.6.0.0/16")));  // once is enough
  EXPECT_TRUE(stale.contains(P("10.5.0.0/16")));
  EXPECT_FALSE(stale.contains(P("10.6.0.0/16")));
  EXPECT_EQ(stale.sweep(), (std::vector<IpPrefix>{P("10.5.0.0/16"), P("2001:db8::/32")}));
  EXPECT_TRUE(stale.empty());
  EXPECT_TRUE(stale.sweep().empty());  // a second sweep withdraws nothing
}

TEST(RedistStaleTest, ASecondDeathBeforeTheSweepKeepsEarlierMarks) {
  RedistStale stale;
  stale.mark({P("10.5.0.0/16"), P("10.6.0.0/16")});
  EXPECT_TRUE(stale.refresh(P("10.6.0.0/16")));
  // The new RIB dies too: what it sent (10.6, 10.7) is stale again, 10.5 still is.
  stale.mark({P("10.5.0.0/16"), P("10.6.0.0/16"), P("10.7.0.0/16")});
  EXPECT_EQ(stale.size(), 3u);
  EXPECT_TRUE(stale.refresh(P("10.7.0.0/16")));
  EXPECT_EQ(stale.sweep(), (std::vector<IpPrefix>{P("10.5.0.0/16"), P("10.6.0.0/16")}));
}

TEST(RedistStaleTest, ClearForgetsEveryMark) {
  RedistStale stale;
  stale.mark({P("10.5.0.0/16")});
  stale.clear();
  EXPECT_TRUE(stale.empty());
  EXPECT_FALSE(stale.refresh(P("10.5.0.0/16")));
  EXPECT_TRUE(stale.sweep().empty());
}

}  // namespace
}  // namespace strata::bgp
