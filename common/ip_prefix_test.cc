#include "common/ip_prefix.h"

#include <gtest/gtest.h>

#include <set>

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

TEST(IpPrefixTest, EqualityAndHashSeeTheLength) {
  const auto a = *IpPrefix::Parse("10.0.0.0/8");
  const auto b = *IpPrefix::Parse("10.0.0.0/16");
  EXPECT_NE(a, b);
  EXPECT_NE(std::hash<IpPrefix>()(a), std::hash<IpPrefix>()(b));
  EXPECT_EQ(a, *IpPrefix::Parse("10.1.2.3/8", /*allow_host_bits=*/true));
  EXPECT_EQ(std::hash<IpPrefix>()(a),
            std::hash<IpPrefix>()(*IpPrefix::Parse("10.1.2.3/8", /*allow_host_bits=*/true)));
  EXPECT_NE(*IpPrefix::Parse("0.0.0.0/0"), *IpPrefix::Parse("::/0"));
}

TEST(IpPrefixTest, HashSpreadsATableOfSlash24s) {
  // 65536 consecutive /24s, as a full table holds: their low 16 hash bits fill about 1 - 1/e of
  // the slots, as a random function's would.
  std::set<size_t> low16;
  for (uint32_t i = 0; i < 65536; ++i) {
    low16.insert(std::hash<IpPrefix>()(IpPrefix(IpAddr::V4((0x0A0000 + i) << 8), 24)) & 0xFFFF);
  }
  EXPECT_GT(low16.size(), 38000u);
}

}  // namespace
}  // namespace strata
