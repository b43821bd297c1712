// Tests of AsPath: encodings, malformed values, lengths and the RFC 6793 AS4_PATH merge.
#include "bgp/wire/as_path.h"

#include <gtest/gtest.h>

#include "bgp/wire/bgp_types.h"
#include "testing/bgp/wire_test_util.h"

namespace strata::bgp {
namespace {

using test_util::Hex;

AsPath Mixed() {
  return AsPath({{AsSegmentType::kConfedSequence, {64512, 64513}},
                 {AsSegmentType::kSequence, {65001, 70000}},
                 {AsSegmentType::kSet, {65003, 65004}}});
}

std::vector<uint8_t> Encoded(const AsPath& p, bool four) {
  ByteWriter w;
  p.Encode(w, four);
  return w.Take();
}

TEST(AsPathTest, FourOctetRoundTrip) {
  const auto bytes = Encoded(Mixed(), true);
  EXPECT_EQ(bytes,
            Hex("03 02 0000fc00 0000fc01  02 02 0000fde9 00011170  01 02 0000fdeb 0000fdec"));
  auto back = AsPath::Decode(bytes, true);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, Mixed());
}

TEST(AsPathTest, TwoOctetUsesAsTrans) {
  const auto bytes = Encoded(Mixed(), false);
  EXPECT_EQ(bytes, Hex("03 02 fc00 fc01  02 02 fde9 5ba0  01 02 fdeb fdec"));
  auto back = AsPath::Decode(bytes, false);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->ToString(), "(64512 64513) 65001 23456 {65003 65004}");
}

TEST(AsPathTest, LongSegmentsAreSplit) {
  std::vector<uint32_t> asns(300);
  for (size_t i = 0; i < asns.size(); ++i) asns[i] = static_cast<uint32_t>(i + 1);
  const auto bytes = Encoded(AsPath::Sequence(asns), true);
  ASSERT_EQ(bytes.size(), 2 + 255 * 4 + 2 + 45 * 4u);
  EXPECT_EQ(bytes[1], 255);
  auto back = AsPath::Decode(bytes, true);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->segments().size(), 2u);
  EXPECT_EQ(back->PathLength(), 300u);
}

TEST(AsPathTest, MalformedValues) {
  const char* bad[] = {
      "05 01 0000fde9",     // segment type 5
      "02 00",              // empty segment
      "02 02 0000fde9",     // overrun
      "02 01 0000fde9 02",  // trailing fragment
  };
  for (const char* v : bad) EXPECT_FALSE(AsPath::Decode(Hex(v), true).ok()) << v;
  EXPECT_FALSE(AsPath::Decode(Hex("02 02 fde9"), false).ok());
  EXPECT_TRUE(AsPath::Decode({}, true).ok());  // the empty path of an iBGP route
}

TEST(AsPathTest, LengthAndQueries) {
  const AsPath p = Mixed();
  EXPECT_EQ(p.PathLength(), 3u);  // two in the sequence, one for the set, confed counts none
  EXPECT_TRUE(p.Contains(65004));
  EXPECT_FALSE(p.Contains(1));
  EXPECT_TRUE(p.HasConfedSegments());
  EXPECT_TRUE(p.NeedsAs4());
  EXPECT_EQ(p.FirstAs(), std::nullopt);  // leading segment is a confed sequence
  EXPECT_EQ(p.WithoutConfed().FirstAs(), 65001u);
  EXPECT_EQ(p.WithoutConfed().Prepend(65000).ToString(), "65000 65001 70000 {65003 65004}");
  EXPECT_EQ(AsPath().Prepend(1).ToString(), "1");
  EXPECT_EQ(AsPath({{AsSegmentType::kConfedSet, {1, 2}}}).ToString(), "[1 2]");
}

TEST(AsPathTest, MergeAs4FillsInTransAses) {
  // A 2-octet speaker (65005) prepended itself to a path that holds 4-octet ASes.
  const AsPath as_path = AsPath::Sequence({65005, 23456, 65001});
  const AsPath as4_path = AsPath::Sequence({70000, 65001});
  EXPECT_EQ(AsPath::MergeAs4(as_path, as4_path).ToString(), "65005 70000 65001");
}

TEST(AsPathTest, MergeAs4IgnoresALongerAs4Path) {
  const AsPath as_path = AsPath::Sequence({65005, 23456});
  const AsPath as4_path = AsPath::Sequence({1, 70000, 65001});
  EXPECT_EQ(AsPath::MergeAs4(as_path, as4_path), as_path);
}

TEST(AsPathTest, MergeAs4KeepsLeadingConfedAndCountsSets) {
  const AsPath as_path({{AsSegmentType::kConfedSequence, {64512}},
                        {AsSegmentType::kSequence, {65005, 23456}},
                        {AsSegmentType::kSet, {23456, 65009}}});
  const AsPath as4_path(
      {{AsSegmentType::kSequence, {70000}}, {AsSegmentType::kSet, {70001, 65009}}});
  EXPECT_EQ(AsPath::MergeAs4(as_path, as4_path).ToString(), "(64512) 65005 70000 {70001 65009}");
}

TEST(AsPathTest, MergeAs4KeepsOnlyTheLeadingConfedSegments) {
  // AS_PATH SEQ(23456 7) CONFED_SEQ(5) + AS4_PATH SEQ(70000): the decoder refuses such an
  // AS_PATH; the merge on its own drops the trailing confederation segment, so what is encoded
  // for a 2-octet peer and decoded again stays the same path.
  const AsPath as_path(
      {{AsSegmentType::kSequence, {23456, 7}}, {AsSegmentType::kConfedSequence, {5}}});
  EXPECT_TRUE(as_path.HasTrailingConfedSegment());
  const AsPath merged = AsPath::MergeAs4(as_path, AsPath::Sequence({70000}));
  EXPECT_EQ(merged.ToString(), "23456 70000");
  EXPECT_FALSE(merged.HasTrailingConfedSegment());
  const AsPath leading({{AsSegmentType::kConfedSequence, {5}}, {AsSegmentType::kSequence, {7}}});
  EXPECT_FALSE(leading.HasTrailingConfedSegment());
}

TEST(AsPathTest, SegmentsAreKeptAsGivenAndOrderedSegmentBySegment) {
  // Two sequences in a row stay two segments (as decoded, so as re-encoded).
  const AsPath two({{AsSegmentType::kSequence, {1, 2}}, {AsSegmentType::kSequence, {3}}});
  ASSERT_EQ(two.segments().size(), 2u);
  EXPECT_EQ(two.segments()[1].type, AsSegmentType::kSequence);
  EXPECT_EQ(std::vector<uint32_t>(two.segments()[1].asns.begin(), two.segments()[1].asns.end()),
            std::vector<uint32_t>{3});
  ByteWriter w;
  two.Encode(w, true);
  EXPECT_EQ(w.bytes(), Hex("02 02 00000001 00000002  02 01 00000003"));
  // Prepend builds the path anew, merging sequences that follow one another.
  EXPECT_EQ(two.Prepend(9).segments().size(), 1u);
  EXPECT_EQ(two.Prepend(9).ToString(), "9 1 2 3");

  // The order is that of the segment lists: type first, then the ASes, a prefix before longer.
  std::vector<std::vector<AsSegment>> lists = {
      {},
      {{AsSegmentType::kSet, {5}}},
      {{AsSegmentType::kSequence, {1}}},
      {{AsSegmentType::kSequence, {1}}, {AsSegmentType::kSet, {2}}},
      {{AsSegmentType::kSequence, {1, 2}}},
      {{AsSegmentType::kSequence, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}},
      {{AsSegmentType::kSequence, {2}}},
      {{AsSegmentType::kConfedSequence, {1}}},
  };
  for (const auto& a : lists) {
    for (const auto& b : lists) {
      EXPECT_EQ(AsPath(a) <=> AsPath(b), a <=> b);
      EXPECT_EQ(AsPath(a) == AsPath(b), a == b);
    }
  }
}

TEST(AsPathTest, LongPathsRoundTrip) {
  std::vector<uint32_t> asns;
  for (uint32_t i = 1; i <= 300; ++i) asns.push_back(65000 + i);
  const AsPath path = AsPath::Sequence(asns).Prepend(64999);
  EXPECT_EQ(path.PathLength(), 301u);
  ByteWriter w;
  path.Encode(w, true);  // split into segments of 255 and 46
  auto back = AsPath::Decode(w.bytes(), true);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->segments().size(), 2u);
  EXPECT_EQ(back->PathLength(), 301u);
  EXPECT_EQ(back->FirstAs(), 64999u);
  EXPECT_TRUE(back->Contains(65300));
}

}  // namespace
}  // namespace strata::bgp
