#include "bgp/rpki/vrp_table.h"

#include <gtest/gtest.h>

#include "bgp/rpki/origin_as.h"
#include "testing/common/value_literals.h"

namespace strata::bgp {
namespace {

using test_util::P;

Vrp V(const char* prefix, int max_len, uint32_t asn) {
  return Vrp{P(prefix), static_cast<uint8_t>(max_len), asn};
}

TEST(VrpTableTest, UncoveredPrefixIsNotFound) {
  VrpTable t;
  EXPECT_EQ(t.Validate(P("192.0.2.0/24"), 65001), RovState::kNotFound);
  t.Add(V("198.51.100.0/24", 24, 65001));
  EXPECT_EQ(t.Validate(P("192.0.2.0/24"), 65001), RovState::kNotFound);
  // A VRP more specific than the route does not cover it (RFC 6811 2: "covered").
  t.Add(V("192.0.2.128/25", 25, 65002));
  EXPECT_EQ(t.Validate(P("192.0.2.0/24"), 65002), RovState::kNotFound);
}

TEST(VrpTableTest, MatchingOriginAndLengthIsValid) {
  VrpTable t;
  t.Add(V("192.0.2.0/24", 24, 65001));
  EXPECT_EQ(t.Validate(P("192.0.2.0/24"), 65001), RovState::kValid);
  EXPECT_EQ(t.Validate(P("192.0.2.0/24"), 65002), RovState::kInvalid);
}

TEST(VrpTableTest, MaxLengthBoundsMoreSpecifics) {
  VrpTable t;
  t.Add(V("10.0.0.0/16", 20, 65001));
  EXPECT_EQ(t.Validate(P("10.0.0.0/16"), 65001), RovState::kValid);
  EXPECT_EQ(t.Validate(P("10.0.16.0/20"), 65001), RovState::kValid);
  EXPECT_EQ(t.Validate(P("10.0.16.0/21"), 65001), RovState::kInvalid);  // too long
  EXPECT_EQ(t.Validate(P("10.0.0.0/8"), 65001), RovState::kNotFound);   // not covered
}

TEST(VrpTableTest, AnyMatchingCandidateMakesItValid) {
  VrpTable t;
  t.Add(V("10.0.0.0/8", 8, 65001));    // covers, too short a max length
  t.Add(V("10.1.0.0/16", 24, 65002));  // covers, other AS
  t.Add(V("10.1.2.0/24", 24, 65003));  // matches
  EXPECT_EQ(t.Validate(P("10.1.2.0/24"), 65003), RovState::kValid);
  EXPECT_EQ(t.Validate(P("10.1.2.0/24"), 65002), RovState::kValid);
  EXPECT_EQ(t.Validate(P("10.1.2.0/24"), 65001), RovState::kInvalid);
  EXPECT_EQ(t.Validate(P("10.1.3.0/24"), 65003), RovState::kInvalid);
  EXPECT_EQ(t.Covering(P("10.1.2.0/24")).size(), 3u);
}

TEST(VrpTableTest, As0VrpMakesCoveredRoutesInvalid) {
  VrpTable t;
  t.Add(V("203.0.113.0/24", 32, 0));  // RFC 6483 4 / RFC 7607: must not be routed
  EXPECT_EQ(t.Validate(P("203.0.113.0/24"), 65001), RovState::kInvalid);
  EXPECT_EQ(t.Validate(P("203.0.113.0/24"), 0), RovState::kInvalid);  // AS 0 never matches
  t.Add(V("203.0.113.0/24", 24, 65001));
  EXPECT_EQ(t.Validate(P("203.0.113.0/24"), 65001), RovState::kValid);
  EXPECT_EQ(t.Validate(P("203.0.113.0/25"), 65001), RovState::kInvalid);
}

TEST(VrpTableTest, OriginNoneIsInvalidWhenCovered) {
  VrpTable t;
  t.Add(V("192.0.2.0/24", 24, 65001));
  EXPECT_EQ(t.Validate(P("192.0.2.0/24"), std::nullopt), RovState::kInvalid);
  EXPECT_EQ(t.Validate(P("198.51.100.0/24"), std::nullopt), RovState::kNotFound);
}

TEST(VrpTableTest, Ipv6) {
  VrpTable t;
  t.Add(V("2001:db8::/32", 48, 65001));
  EXPECT_EQ(t.Validate(P("2001:db8:1::/48"), 65001), RovState::kValid);
  EXPECT_EQ(t.Validate(P("2001:db8:1::/49"), 65001), RovState::kInvalid);
  EXPECT_EQ(t.Validate(P("2001:db9::/32"), 65001), RovState::kNotFound);
  // IPv4 VRPs do not cover IPv6 routes.
  t.Add(V("0.0.0.0/0", 32, 65009));
  EXPECT_EQ(t.Validate(P("2001:db9::/32"), 65001), RovState::kNotFound);
  EXPECT_EQ(t.v4_count(), 1u);
  EXPECT_EQ(t.v6_count(), 1u);
}

TEST(VrpTableTest, SourcesCountedAndSetChangesReported) {
  VrpTable t;
  const Vrp v = V("192.0.2.0/24", 24, 65001);
  EXPECT_TRUE(t.Add(v));
  EXPECT_FALSE(t.Add(v));  // a second cache
  EXPECT_EQ(t.size(), 1u);
  EXPECT_FALSE(t.Remove(v));
  EXPECT_EQ(t.Validate(v.prefix, 65001), RovState::kValid);
  EXPECT_TRUE(t.Remove(v));
  EXPECT_FALSE(t.Remove(v));
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.prefixes(), 0u);
  EXPECT_EQ(t.Validate(v.prefix, 65001), RovState::kNotFound);
  // Same prefix, another max length: another VRP.
  EXPECT_TRUE(t.Add(V("192.0.2.0/24", 24, 65001)));
  EXPECT_TRUE(t.Add(V("192.0.2.0/24", 25, 65001)));
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.prefixes(), 1u);
  t.Clear();
  EXPECT_EQ(t.size(), 0u);
}

TEST(OriginAsTest, Rfc6811Origin) {
  EXPECT_EQ(OriginAs(AsPath::Sequence({65001, 65002}), 64512), 65002u);
  EXPECT_EQ(OriginAs(AsPath(), 64512), 64512u);  // our own route
  EXPECT_EQ(
      OriginAs(AsPath({{AsSegmentType::kSequence, {65001}}, {AsSegmentType::kSet, {65002, 65003}}}),
               64512),
      std::nullopt);
  // A set before the final sequence does not matter.
  EXPECT_EQ(OriginAs(AsPath({{AsSegmentType::kSet, {65002}}, {AsSegmentType::kSequence, {65004}}}),
                     64512),
            65004u);
  // Confederation segments are ours: skipped; only them means originated inside.
  EXPECT_EQ(OriginAs(AsPath({{AsSegmentType::kConfedSequence, {64601}},
                             {AsSegmentType::kSequence, {65001}}}),
                     64512),
            65001u);
  EXPECT_EQ(OriginAs(AsPath({{AsSegmentType::kConfedSequence, {64601, 64602}}}), 64512), 64512u);
}

}  // namespace
}  // namespace strata::bgp
