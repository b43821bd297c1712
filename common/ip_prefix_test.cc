#include "common/ip_prefix.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(IpPrefixTest, ParsesIpv4AndIpv6) {
  EXPECT_EQ(IpPrefix::Parse("10.0.0.0/8")->ToString(), "10.0.0.0/8");
  EXPECT_EQ(IpPrefix::Parse("2001:db8::/32")->ToString(), "2001:db8::/32");
  EXPECT_EQ(IpPrefix::Parse("0.0.0.0/0")->len(), 0);
}

TEST(IpPrefixTest, RejectsBadLengthsAndHostBits) {
  EXPECT_FALSE(IpPrefix::Parse("10.0.0.0/33").ok());
  EXPECT_FALSE(IpPrefix::Parse("2001:db8::/129").ok());
  EXPECT_FALSE(IpPrefix::Parse("10.0.0.0/-1").ok());
  EXPECT_FALSE(IpPrefix::Parse("10.0.0.0/").ok());
  EXPECT_FALSE(IpPrefix::Parse("10.0.0.0").ok());
  EXPECT_FALSE(IpPrefix::Parse("10.0.0.0/8x").ok());
  auto host = IpPrefix::Parse("10.0.0.1/8");
  ASSERT_FALSE(host.ok());
  EXPECT_NE(host.status().message().find("host bits"), std::string::npos);
  EXPECT_EQ(IpPrefix::Parse("10.0.0.1/8", true)->ToString(), "10.0.0.0/8");
}

TEST(IpPrefixTest, Containment) {
  auto p16 = *IpPrefix::Parse("128.16.0.0/16");
  auto p18 = *IpPrefix::Parse("128.16.0.0/18");
  EXPECT_TRUE(p16.Contains(p18));
  EXPECT_FALSE(p18.Contains(p16));
  EXPECT_TRUE(p16.Contains(*IpAddr::Parse("128.16.200.1")));
  EXPECT_FALSE(p16.Contains(*IpAddr::Parse("128.17.0.1")));
  EXPECT_FALSE(p16.Contains(*IpAddr::Parse("::1")));
  EXPECT_EQ(p16.Right().ToString(), "128.16.128.0/17");
  EXPECT_EQ(p16.Left().ToString(), "128.16.0.0/17");
  EXPECT_EQ(p18.Parent().ToString(), "128.16.0.0/17");
  EXPECT_EQ(p16.Last().ToString(), "128.16.255.255");
}

TEST(IpPrefixTest, SortsCoveringPrefixFirst) {
  EXPECT_LT(*IpPrefix::Parse("10.0.0.0/8"), *IpPrefix::Parse("10.0.0.0/16"));
  EXPECT_LT(*IpPrefix::Parse("10.0.0.0/16"), *IpPrefix::Parse("10.1.0.0/16"));
}

}  // namespace
}  // namespace strata
