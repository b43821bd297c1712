// Round trips of every path attribute through EncodeUpdate and DecodeUpdateBody, the handling of
// unknown attributes, the AS4 conversions toward 2-octet peers, and AttributeSet.
#include <gtest/gtest.h>

#include <unordered_set>

#include "bgp/wire/attribute_set.h"
#include "bgp/wire/attribute_table.h"
#include "bgp/wire/update_decoder.h"
#include "bgp/wire/update_message.h"
#include "testing/bgp/wire_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::Body;
using test_util::Hex;
using test_util::P;

PathAttributes Base() {
  PathAttributes a;
  a.origin = Origin::kIgp;
  a.as_path = AsPath::Sequence({65001, 65002});
  a.next_hop = A("192.0.2.1");
  return a;
}

PathAttributes Full() {
  PathAttributes a = Base();
  a.origin = Origin::kIncomplete;
  a.as_path = AsPath(
      {{AsSegmentType::kSequence, {65001, 4200000000}}, {AsSegmentType::kSet, {65010, 65011}}});
  a.med = 50;
  a.local_pref = 200;
  a.atomic_aggregate = true;
  a.aggregator() = Aggregator{4200000001, A("198.51.100.1")};
  a.communities = {0xfde90001, 0xffffff01};
  a.originator_id() = A("10.0.0.9");
  a.cluster_list() = {0x0a000001, 0x0a000002};
  a.ext_communities() = {0x0002fde900000064ULL};
  a.large_communities() = {{4200000000, 1, 2}, {65001, 3, 4}};
  return a;
}

UpdateDecodeResult RoundTrip(const UpdateMessage& u, const CodecOptions& options) {
  auto bytes = EncodeUpdate(u, options);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (!bytes.ok()) return {};
  return DecodeUpdateBody(Body(*bytes), options);
}

TEST(AttributeTest, EveryAttributeRoundTrips) {
  for (bool four : {true, false}) {
    UpdateMessage u;
    u.attrs = Full();
    u.nlri = {P("10.0.0.0/8"), P("192.168.1.0/24")};
    CodecOptions options;
    options.four_octet_as = four;
    auto r = RoundTrip(u, options);
    EXPECT_EQ(r.action, ErrorAction::kNone) << r.ToString();
    EXPECT_EQ(r.update, u) << r.update.ToString();
    EXPECT_EQ(r.Announcements(), u.nlri);
  }
}

TEST(AttributeTest, EachAttributeAloneRoundTrips) {
  const PathAttributes full = Full();
  // One row per handler: copy just that attribute from the full set onto the base.
  std::vector<PathAttributes> singles;
  auto with = [&](auto setter) {
    PathAttributes a = Base();
    setter(a);
    singles.push_back(a);
  };
  with([&](PathAttributes& a) { a.med = full.med; });
  with([&](PathAttributes& a) { a.local_pref = full.local_pref; });
  with([&](PathAttributes& a) { a.atomic_aggregate = true; });
  with([&](PathAttributes& a) { a.aggregator() = full.aggregator(); });
  with([&](PathAttributes& a) { a.communities = full.communities; });
  with([&](PathAttributes& a) { a.originator_id() = full.originator_id(); });
  with([&](PathAttributes& a) { a.cluster_list() = full.cluster_list(); });
  with([&](PathAttributes& a) { a.ext_communities() = full.ext_communities(); });
  with([&](PathAttributes& a) { a.large_communities() = full.large_communities(); });
  with([&](PathAttributes& a) { a.origin = Origin::kEgp; });
  with([&](PathAttributes& a) { a.as_path = AsPath(); });
  for (const auto& attrs : singles) {
    UpdateMessage u;
    u.attrs = attrs;
    u.nlri = {P("10.1.0.0/16")};
    auto r = RoundTrip(u, CodecOptions{});
    EXPECT_EQ(r.action, ErrorAction::kNone) << r.ToString();
    EXPECT_EQ(r.update.attrs, attrs) << attrs.ToString();
  }
}

TEST(AttributeTest, LargeValuesUseExtendedLength) {
  UpdateMessage u;
  u.attrs = Base();
  for (uint32_t i = 0; i < 100; ++i) u.attrs.communities.push_back(i);
  u.nlri = {P("10.0.0.0/8")};
  auto bytes = EncodeUpdate(u, CodecOptions{});
  ASSERT_TRUE(bytes.ok());
  auto r = DecodeUpdateBody(Body(*bytes), CodecOptions{});
  EXPECT_EQ(r.action, ErrorAction::kNone);
  EXPECT_EQ(r.update.attrs.communities.size(), 100u);
}

TEST(AttributeTest, UnknownTransitiveIsKeptAndPassedOnAsPartial) {
  // Attribute 99, optional transitive, not yet partial.
  const auto attrs = test_util::Concat({test_util::MandatoryAttrs(), Hex("c0 63 02 ab cd")});
  auto r = DecodeUpdateBody(test_util::UpdateBody({}, attrs, Hex("08 0a")), CodecOptions{});
  EXPECT_EQ(r.action, ErrorAction::kNone);
  ASSERT_EQ(r.update.attrs.unknown().size(), 1u);
  EXPECT_EQ(r.update.attrs.unknown()[0], (RawAttribute{0xe0, 99, {0xab, 0xcd}}));
  auto out = EncodeUpdate(r.update, CodecOptions{});
  ASSERT_TRUE(out.ok());
  const auto tail = Hex("e0 63 02 ab cd 08 0a");
  EXPECT_TRUE(std::equal(tail.begin(), tail.end(), out->end() - static_cast<long>(tail.size())));
}

TEST(AttributeTest, UnknownNonTransitiveIsDropped) {
  const auto attrs = test_util::Concat({test_util::MandatoryAttrs(), Hex("80 63 01 00")});
  auto r = DecodeUpdateBody(test_util::UpdateBody({}, attrs, Hex("08 0a")), CodecOptions{});
  EXPECT_EQ(r.action, ErrorAction::kNone);
  EXPECT_TRUE(r.update.attrs.unknown().empty());
  EXPECT_EQ(r.ignored_attributes, 1u);
}

TEST(AttributeTest, LocalPrefIsNotSentToExternalPeers) {
  UpdateMessage u;
  u.attrs = Base();
  u.attrs.local_pref = 300;
  u.nlri = {P("10.0.0.0/8")};
  CodecOptions ebgp;
  ebgp.peer_type = PeerType::kExternal;
  auto r = RoundTrip(u, ebgp);
  EXPECT_EQ(r.update.attrs.local_pref, std::nullopt);
  EXPECT_EQ(RoundTrip(u, CodecOptions{}).update.attrs.local_pref, 300u);
}

TEST(As4Test, TowardTwoOctetPeerSendsAs4PathAndAs4Aggregator) {
  UpdateMessage u;
  u.attrs = Base();
  u.attrs.as_path = AsPath::Sequence({4200000000, 65002});
  u.attrs.aggregator() = Aggregator{4200000000, A("198.51.100.1")};
  u.nlri = {P("10.0.0.0/8")};
  CodecOptions old;
  old.four_octet_as = false;
  auto bytes = EncodeUpdate(u, old);
  ASSERT_TRUE(bytes.ok());
  // What a 2-octet speaker sees: AS_TRANS in AS_PATH and AGGREGATOR, the rest kept opaquely.
  CodecOptions as_old_speaker = old;
  auto r = DecodeUpdateBody(Body(*bytes), as_old_speaker);
  EXPECT_EQ(r.action, ErrorAction::kNone) << r.ToString();
  // Our decoder merges AS4 data back on a 2-octet session, so the original comes back.
  EXPECT_EQ(r.update.attrs, u.attrs);
  // The raw AS_PATH carries AS_TRANS.
  const auto as_path = Hex("40 02 06 02 02 5ba0 fdea");
  EXPECT_NE(std::search(bytes->begin(), bytes->end(), as_path.begin(), as_path.end()),
            bytes->end());
  const auto as4_path = Hex("c0 11 0a 02 02 fa56ea00 0000fdea");
  EXPECT_NE(std::search(bytes->begin(), bytes->end(), as4_path.begin(), as4_path.end()),
            bytes->end());
  const auto as4_agg = Hex("c0 12 08 fa56ea00 c6336401");
  EXPECT_NE(std::search(bytes->begin(), bytes->end(), as4_agg.begin(), as4_agg.end()),
            bytes->end());
}

TEST(As4Test, NoAs4PathWhenEveryAsFitsTwoOctets) {
  UpdateMessage u;
  u.attrs = Base();
  u.nlri = {P("10.0.0.0/8")};
  CodecOptions old;
  old.four_octet_as = false;
  auto bytes = EncodeUpdate(u, old);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(std::find(bytes->begin(), bytes->end(), 0x11), bytes->end());
}

TEST(As4Test, StaleAs4DataIsIgnoredWhenAggregatorIsNotAsTrans) {
  // A 2-octet speaker aggregated (AGGREGATOR 65009) after an AS4 aggregator: RFC 6793 4.2.3.
  const auto attrs =
      Hex("40 01 01 00  40 02 06 02 02 fded 5ba0  40 03 04 c0 00 02 01"
          "c0 07 06 fdf1 c6336401  c0 11 06 02 01 fa56ea00  c0 12 08 fa56ea00 c6336401");
  CodecOptions old;
  old.four_octet_as = false;
  auto r = DecodeUpdateBody(test_util::UpdateBody({}, attrs, Hex("08 0a")), old);
  EXPECT_EQ(r.action, ErrorAction::kNone);
  EXPECT_EQ(r.update.attrs.as_path->ToString(), "65005 23456");
  EXPECT_EQ(r.update.attrs.aggregator()->asn, 65009u);
}

TEST(As4Test, As4AttributesFromAFourOctetPeerAreIgnored) {
  const auto attrs =
      test_util::Concat({test_util::MandatoryAttrs(), Hex("c0 11 06 02 01 fa56ea00")});
  auto r = DecodeUpdateBody(test_util::UpdateBody({}, attrs, Hex("08 0a")), CodecOptions{});
  EXPECT_EQ(r.action, ErrorAction::kNone);
  EXPECT_EQ(r.update.attrs.as_path->ToString(), "65001");
  EXPECT_EQ(r.ignored_attributes, 1u);
}

TEST(AttributeSetTest, HashAndCompareByValue) {
  auto a = AttributeSet::Make(Full());
  auto b = AttributeSet::Make(Full());
  PathAttributes changed = Full();
  changed.med = 51;
  auto c = AttributeSet::Make(changed);
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(a->hash(), b->hash());
  EXPECT_NE(*a, *c);
  EXPECT_NE(a->hash(), c->hash());
  EXPECT_TRUE((*a < *c) != (*c < *a));
  std::unordered_set<AttributeSetPtr, AttributeSetPtrHash, AttributeSetPtrEq> interned;
  EXPECT_TRUE(interned.insert(a).second);
  EXPECT_FALSE(interned.insert(b).second);  // equal value: shared
  EXPECT_TRUE(interned.insert(c).second);
  EXPECT_EQ(std::hash<PathAttributes>()(Full()), a->hash());
}

TEST(AttributeSetTest, RareAttributesLiveOutOfLineOnlyWhenPresent) {
  PathAttributes plain = Base();
  const PathAttributes& read = plain;
  EXPECT_FALSE(read.originator_id());  // const reads make nothing
  EXPECT_TRUE(read.cluster_list().empty());
  PathAttributes touched = Base();
  touched.cluster_list().clear();  // a non-const access makes an empty out-of-line part
  EXPECT_EQ(touched, plain);       // which compares, orders and hashes as none
  EXPECT_EQ(touched <=> plain, std::strong_ordering::equal);
  EXPECT_EQ(touched.Hash(), plain.Hash());
  PathAttributes copy = touched;
  EXPECT_EQ(copy, plain);

  PathAttributes reflected = Base();
  reflected.originator_id() = A("10.0.0.9");
  reflected.cluster_list() = {1, 2};
  PathAttributes copied = reflected;  // a deep copy
  copied.cluster_list().push_back(3);
  EXPECT_EQ(reflected.cluster_list(), (std::vector<uint32_t>{1, 2}));
  EXPECT_NE(copied, reflected);
  // The order of the former all-fields struct: no ORIGINATOR_ID sorts before one, and the
  // rare attributes rank after the common ones declared before them (MED before AGGREGATOR).
  EXPECT_LT(plain, reflected);
  PathAttributes low_med = Base();
  low_med.med = 1;
  low_med.aggregator() = Aggregator{65001, A("10.0.0.1")};
  PathAttributes high_med = Base();
  high_med.med = 2;
  EXPECT_LT(low_med, high_med);

  auto set = AttributeSet::Make(std::move(touched));
  EXPECT_EQ(*set, *AttributeSet::Make(Base()));
  EXPECT_EQ(&set->attrs().rare(), &AttributeSet::Make(Base())->attrs().rare());  // compacted
}

TEST(AttributeTableTest, RowsAreComplete) {
  for (const AttributeHandler& h : AttributeHandlers()) {
    EXPECT_EQ(FindAttributeHandler(static_cast<uint8_t>(h.code)), &h);
    EXPECT_NE(h.decode, nullptr);
    EXPECT_NE(h.encode, nullptr);
    EXPECT_NE(h.on_malformed, ErrorAction::kNone) << h.name;
  }
  EXPECT_EQ(FindAttributeHandler(99), nullptr);
}

TEST(AttributeTableTest, FormatsForLogs) {
  EXPECT_EQ(Full().ToString(),
            "origin incomplete as-path 65001 4200000000 {65010 65011} next-hop 192.0.2.1 med 50 "
            "local-pref 200 atomic-aggregate aggregator 4200000001 198.51.100.1 communities "
            "65001:1 65535:65281 originator-id 10.0.0.9 cluster-list 10.0.0.1 10.0.0.2 "
            "ext-communities 0x0002fde900000064 large-communities 4200000000:1:2 65001:3:4");
}

}  // namespace
}  // namespace strata::bgp
