// Tests of the RFC 5065 rules in Confederation and of the confederation AsPath operations.
#include "bgp/wire/confederation.h"

#include <gtest/gtest.h>

#include "testing/bgp/wire_test_util.h"

namespace strata::bgp {
namespace {

using test_util::Hex;

const Confederation kConfed{.identifier = 65000, .members = {64512, 64513, 64514}};
constexpr uint32_t kMember = 64512;  // our member AS

TEST(ConfederationTest, ClassifiesPeers) {
  EXPECT_EQ(ClassifyPeer(64512, kMember, kConfed), PeerType::kInternal);
  EXPECT_EQ(ClassifyPeer(64513, kMember, kConfed), PeerType::kConfedExternal);
  EXPECT_EQ(ClassifyPeer(65001, kMember, kConfed), PeerType::kExternal);
  // Without a confederation a member list means nothing.
  EXPECT_EQ(ClassifyPeer(64513, kMember, Confederation{}), PeerType::kExternal);
}

TEST(ConfederationTest, NamesPeerTypes) {
  EXPECT_EQ(PeerTypeName(PeerType::kConfedExternal), "confed-external");
  EXPECT_EQ(PeerTypeName(PeerType::kInternal), "internal");
  EXPECT_EQ(PeerTypeName(PeerType::kExternal), "external");
}

TEST(ConfederationTest, ExternalPeersSeeTheIdentifier) {
  EXPECT_EQ(AsSeenBy(PeerType::kExternal, kMember, kConfed), 65000u);
  EXPECT_EQ(AsSeenBy(PeerType::kConfedExternal, kMember, kConfed), kMember);
  EXPECT_EQ(AsSeenBy(PeerType::kInternal, kMember, kConfed), kMember);
  EXPECT_EQ(AsSeenBy(PeerType::kExternal, kMember, Confederation{}), kMember);
}

TEST(ConfederationTest, LoopWhenOurMemberAsIsInAConfedSegment) {
  const AsPath p(
      {{AsSegmentType::kConfedSequence, {64513, kMember}}, {AsSegmentType::kSequence, {65001}}});
  EXPECT_TRUE(IsAsLoop(p, kMember, kConfed));
  const AsPath other(
      {{AsSegmentType::kConfedSequence, {64513, 64514}}, {AsSegmentType::kSequence, {65001}}});
  EXPECT_FALSE(IsAsLoop(other, kMember, kConfed));
  EXPECT_TRUE(IsAsLoop(AsPath({{AsSegmentType::kConfedSet, {kMember}}}), kMember, kConfed));
}

TEST(ConfederationTest, LoopWhenTheIdentifierIsOutsideConfedSegments) {
  EXPECT_TRUE(IsAsLoop(AsPath::Sequence({65001, 65000}), kMember, kConfed));
  EXPECT_TRUE(IsAsLoop(AsPath({{AsSegmentType::kSet, {65000, 7}}}), kMember, kConfed));
  EXPECT_FALSE(IsAsLoop(AsPath::Sequence({65001, 65002}), kMember, kConfed));
  // Without a confederation AS 65000 is just another AS.
  EXPECT_FALSE(IsAsLoop(AsPath::Sequence({65001, 65000}), kMember, Confederation{}));
}

TEST(ConfederationTest, ConfedFirstAsMustLeadAConfedSequence) {
  const AsPath good(
      {{AsSegmentType::kConfedSequence, {64513, 64514}}, {AsSegmentType::kSequence, {65001}}});
  EXPECT_TRUE(ConfedFirstAsMatches(good, 64513));
  EXPECT_FALSE(ConfedFirstAsMatches(good, 64514));
  EXPECT_FALSE(ConfedFirstAsMatches(AsPath::Sequence({64513}), 64513));
  EXPECT_FALSE(ConfedFirstAsMatches(AsPath({{AsSegmentType::kConfedSet, {64513}}}), 64513));
  EXPECT_FALSE(ConfedFirstAsMatches(AsPath(), 64513));
}

TEST(AsPathConfedTest, PrependConfedJoinsALeadingConfedSequence) {
  EXPECT_EQ(AsPath().PrependConfed(kMember).ToString(), "(64512)");
  EXPECT_EQ(AsPath::Sequence({65001}).PrependConfed(kMember).ToString(), "(64512) 65001");
  const AsPath in({{AsSegmentType::kConfedSequence, {64513}}, {AsSegmentType::kSequence, {7}}});
  EXPECT_EQ(in.PrependConfed(kMember).ToString(), "(64512 64513) 7");
  // Leaving the confederation: confed segments go, the identifier goes in front.
  EXPECT_EQ(in.PrependConfed(kMember).WithoutConfed().Prepend(65000).ToString(), "65000 7");
}

TEST(AsPathConfedTest, FirstAsAfterConfedSkipsConfedSegments) {
  const AsPath p({{AsSegmentType::kConfedSequence, {64513}},
                  {AsSegmentType::kConfedSet, {64514, 64515}},
                  {AsSegmentType::kSequence, {65001, 7}}});
  EXPECT_EQ(p.FirstAsAfterConfed(), 65001u);
  EXPECT_EQ(AsPath::Sequence({9}).FirstAsAfterConfed(), 9u);
  EXPECT_EQ(AsPath({{AsSegmentType::kConfedSequence, {64513}}}).FirstAsAfterConfed(), std::nullopt);
  EXPECT_EQ(AsPath({{AsSegmentType::kSet, {1, 2}}}).FirstAsAfterConfed(), std::nullopt);
}

TEST(AsPathConfedTest, ConfedSetRoundTrip) {
  const AsPath p({{AsSegmentType::kConfedSet, {64513, 64514}},
                  {AsSegmentType::kConfedSequence, {64512}},
                  {AsSegmentType::kSequence, {65001}}});
  ByteWriter w;
  p.Encode(w, /*four_octet=*/false);
  const std::vector<uint8_t> bytes = w.Take();
  EXPECT_EQ(bytes, Hex("04 02 fc01 fc02  03 01 fc00  02 01 fde9"));
  auto back = AsPath::Decode(bytes, false);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, p);
  EXPECT_EQ(back->ToString(), "[64513 64514] (64512) 65001");
  EXPECT_EQ(back->PathLength(), 1u);
}

}  // namespace
}  // namespace strata::bgp
