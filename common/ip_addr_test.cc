#include "common/ip_addr.h"

#include <gtest/gtest.h>

#include <set>

namespace strata {
namespace {

TEST(IpAddrTest, ParsesAndPrintsIpv4) {
  auto a = IpAddr::Parse("192.0.2.1");
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->is_v4());
  EXPECT_EQ(a->v4_host_order(), 0xC0000201u);
  EXPECT_EQ(a->ToString(), "192.0.2.1");
  EXPECT_EQ(*a, IpAddr::V4(0xC0000201u));
}

TEST(IpAddrTest, ParsesAndPrintsIpv6) {
  auto a = IpAddr::Parse("2001:db8::1");
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->is_v6());
  EXPECT_EQ(a->ToString(), "2001:db8::1");
  EXPECT_EQ(a->hi64(), 0x20010db800000000ULL);
  EXPECT_EQ(a->lo64(), 1u);
}

TEST(IpAddrTest, RejectsMalformed) {
  for (const char* bad : {"", "1.2.3", "1.2.3.256", "1.2.3.4.5", "2001:db8:::1", "2001:db8::g",
                          "1:2:3:4:5:6:7:8:9", "::ffff:1.2.3", "abc"}) {
    EXPECT_FALSE(IpAddr::Parse(bad).ok()) << bad;
  }
}

TEST(IpAddrTest, BitsAndMasking) {
  auto a = *IpAddr::Parse("10.255.1.1");
  EXPECT_FALSE(a.bit(0));
  EXPECT_TRUE(a.bit(4));
  EXPECT_EQ(a.Masked(8).ToString(), "10.0.0.0");
  EXPECT_EQ(a.Masked(12).ToString(), "10.240.0.0");
  EXPECT_EQ(a.Masked(0).ToString(), "0.0.0.0");
  EXPECT_EQ(a.Masked(32), a);
  EXPECT_EQ(IpAddr::V4(0).WithBit(0, true).ToString(), "128.0.0.0");
}

TEST(IpAddrTest, OrdersByFamilyThenBytes) {
  auto v4 = *IpAddr::Parse("255.255.255.255");
  auto v6 = *IpAddr::Parse("::");
  EXPECT_LT(v4, v6);
  EXPECT_LT(*IpAddr::Parse("10.0.0.1"), *IpAddr::Parse("10.0.0.2"));
}

TEST(IpAddrTest, OrdersIpv6ByBothWords) {
  // The inline comparison reads two words; the order must stay the bytes' order.
  EXPECT_LT(*IpAddr::Parse("2001:db8::ffff"), *IpAddr::Parse("2001:db8:0:1::"));
  EXPECT_LT(*IpAddr::Parse("2001:db8::1"), *IpAddr::Parse("2001:db8::2"));
  EXPECT_GT(*IpAddr::Parse("8000::"), *IpAddr::Parse("7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"));
  EXPECT_EQ(*IpAddr::Parse("2001:db8::1") <=> *IpAddr::Parse("2001:db8::1"),
            std::strong_ordering::equal);
  EXPECT_EQ(IpAddr::Parse("2001:db8::1")->lo64(), 1u);
}

TEST(IpAddrTest, EqualityNeedsSameFamily) {
  // 0.0.0.0 and :: have the same (zero) bytes.
  EXPECT_NE(IpAddr::Zero(Family::kIpv4), IpAddr::Zero(Family::kIpv6));
  EXPECT_NE(std::hash<IpAddr>()(IpAddr::Zero(Family::kIpv4)),
            std::hash<IpAddr>()(IpAddr::Zero(Family::kIpv6)));
  EXPECT_EQ(*IpAddr::Parse("192.0.2.1"), IpAddr::V4(0xC0000201));
  EXPECT_NE(*IpAddr::Parse("2001:db8::1"), *IpAddr::Parse("2001:db8::2"));
}

TEST(IpAddrTest, HashSpreadsNeighbouringAddressesOverLowBits) {
  // Tables that index by the low bits (absl) must not see consecutive IPv4 addresses collide.
  std::set<size_t> low16;
  for (uint32_t i = 0; i < 65536; ++i)
    low16.insert(std::hash<IpAddr>()(IpAddr::V4(i << 8)) & 0xFFFF);
  // A random function fills 1 - 1/e (63%) of 65536 slots with 65536 keys.
  EXPECT_GT(low16.size(), 38000u);
}

TEST(IpAddrTest, FromBytesChecksSize) {
  const uint8_t four[] = {1, 2, 3, 4};
  EXPECT_EQ(IpAddr::FromBytes(four)->ToString(), "1.2.3.4");
  const uint8_t five[] = {1, 2, 3, 4, 5};
  EXPECT_EQ(IpAddr::FromBytes(five).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace strata
