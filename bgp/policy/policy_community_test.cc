// Community text forms and patterns of the policy language, and ORIGIN names.
#include "bgp/policy/policy_community.h"

#include <gtest/gtest.h>

namespace strata::bgp {
namespace {

TEST(PolicyCommunityTest, StandardPatterns) {
  auto any_local = ParseCommunityPattern("65001:*");
  ASSERT_TRUE(any_local.ok());
  EXPECT_TRUE(any_local->Matches((65001u << 16) | 7));
  EXPECT_FALSE(any_local->Matches((65002u << 16) | 7));
  auto any_as = ParseCommunityPattern("*:7");
  ASSERT_TRUE(any_as.ok());
  EXPECT_TRUE(any_as->Matches((65002u << 16) | 7));
  auto exact = ParseCommunityPattern("no-export");
  ASSERT_TRUE(exact.ok());
  EXPECT_TRUE(exact->Matches(0xFFFFFF01u));
  EXPECT_FALSE(ParseCommunityPattern("65536:*").ok());
  EXPECT_FALSE(ParseCommunityPattern("*").ok());
}

TEST(PolicyCommunityTest, LargeValuesAndPatterns) {
  auto lc = ParseLargeCommunity("4200000000:1:2");
  ASSERT_TRUE(lc.ok());
  EXPECT_EQ(*lc, (LargeCommunity{4200000000u, 1, 2}));
  EXPECT_FALSE(ParseLargeCommunity("1:*:2").ok());
  EXPECT_FALSE(ParseLargeCommunity("1:2").ok());
  EXPECT_FALSE(ParseLargeCommunity("4294967296:1:2").ok());
  auto p = ParseLargeCommunityPattern("1:*:2");
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->Matches({1, 99, 2}));
  EXPECT_FALSE(p->Matches({1, 99, 3}));
}

TEST(PolicyCommunityTest, ExtendedForms) {
  EXPECT_EQ(*ParseExtCommunity("rt:65000:1"), 0x0002FDE800000001ull);
  EXPECT_EQ(*ParseExtCommunity("soo:65000:1"), 0x0003FDE800000001ull);
  EXPECT_EQ(*ParseExtCommunity("rt:192.0.2.1:7"), 0x0102C00002010007ull);
  EXPECT_EQ(*ParseExtCommunity("rt:4200000000:7"), 0x0202FA56EA000007ull);
  EXPECT_EQ(*ParseExtCommunity("0x0002fde800000064"), 0x0002FDE800000064ull);
  EXPECT_FALSE(ParseExtCommunity("rt:4200000000:65536").ok());
  EXPECT_FALSE(ParseExtCommunity("xx:1:2").ok());
  EXPECT_FALSE(ParseExtCommunity("0x12").ok());
  EXPECT_FALSE(ParseExtCommunity("rt:2001:db8::1:5").ok());
}

TEST(PolicyCommunityTest, Origins) {
  EXPECT_EQ(*ParseOrigin("igp"), Origin::kIgp);
  EXPECT_EQ(*ParseOrigin("egp"), Origin::kEgp);
  EXPECT_EQ(*ParseOrigin("incomplete"), Origin::kIncomplete);
  EXPECT_FALSE(ParseOrigin("IGP").ok());
}

}  // namespace
}  // namespace strata::bgp
