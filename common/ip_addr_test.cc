#include "common/ip_addr.h"

#include <gtest/gtest.h>

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

TEST(IpAddrTest, FromBytesChecksSize) {
  const uint8_t four[] = {1, 2, 3, 4};
  EXPECT_EQ(IpAddr::FromBytes(four)->ToString(), "1.2.3.4");
  const uint8_t five[] = {1, 2, 3, 4, 5};
  EXPECT_EQ(IpAddr::FromBytes(five).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace strata
