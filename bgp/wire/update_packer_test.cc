// Tests of packing many prefixes into UPDATEs: counts, sizes, and every prefix exactly once.
#include "bgp/wire/update_packer.h"

#include <gtest/gtest.h>

#include "bgp/wire/update_decoder.h"
#include "bgp/wire/update_message.h"
#include "testing/bgp/wire_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::Body;

PathAttributes Attrs(const IpAddr& next_hop) {
  PathAttributes a;
  a.origin = Origin::kIgp;
  a.as_path = AsPath::Sequence({65001, 65002, 65003});
  a.next_hop = next_hop;
  a.local_pref = 100;
  a.communities = {1, 2, 3};
  return a;
}

std::vector<IpPrefix> V4Prefixes(size_t n) {  // distinct /24s
  std::vector<IpPrefix> out;
  for (uint32_t i = 0; i < n; ++i) out.emplace_back(IpAddr::V4(0x0a000000 + (i << 8)), 24);
  return out;
}

std::vector<IpPrefix> V6Prefixes(size_t n, int len) {
  std::vector<IpPrefix> out;
  for (uint32_t i = 0; i < n; ++i) {
    std::array<uint8_t, 16> b{0x20, 0x01, 0x0d, 0xb8};
    b[4] = static_cast<uint8_t>(i >> 8);
    b[5] = static_cast<uint8_t>(i);
    b[7] = static_cast<uint8_t>(i);
    out.emplace_back(IpAddr::V6(b), len);
  }
  return out;
}

size_t CeilDiv(size_t a, size_t b) { return (a + b - 1) / b; }

// Decodes every message, checks size and attributes, and returns the prefixes in order.
std::vector<IpPrefix> Unpack(const EncodedMessages& messages, const CodecOptions& options,
                             const PathAttributes* attrs, Family family) {
  std::vector<IpPrefix> out;
  for (const auto& m : messages) {
    EXPECT_LE(m.size(), options.max_message_size());
    auto r = DecodeUpdateBody(Body(m), options);
    EXPECT_EQ(r.action, ErrorAction::kNone) << r.ToString();
    if (attrs != nullptr) {
      EXPECT_EQ(r.update.AttributesFor(family), *attrs);
      for (const auto& p : r.Announcements()) out.push_back(p);
    } else {
      for (const auto& p : r.Withdrawals()) out.push_back(p);
    }
  }
  return out;
}

// The two steps a sender keeps the first of (EncodeNlriBase per attribute set, PackNlri per
// batch) make the same messages as PackAnnouncements.
TEST(UpdatePackerTest, NlriBaseAndPackNlriArePackAnnouncements) {
  for (const CodecOptions& options : {CodecOptions{}, CodecOptions{.extended_message = true}}) {
    const auto attrs = Attrs(A("192.0.2.1"));
    const auto prefixes = V4Prefixes(20000);  // several messages, extended too
    auto base = EncodeNlriBase(attrs, options);
    ASSERT_TRUE(base.ok()) << base.status().ToString();
    UpdateMessage empty;
    empty.attrs = attrs;
    EXPECT_EQ(*base, *EncodeUpdate(empty, options));
    auto two_steps = PackNlri(*base, prefixes, options);
    auto one = PackAnnouncements(attrs, kIpv4Unicast, prefixes, options);
    ASSERT_TRUE(two_steps.ok() && one.ok());
    EXPECT_GT(two_steps->size(), 1u);
    EXPECT_EQ(*two_steps, *one);
    EXPECT_EQ(Unpack(*two_steps, options, &attrs, Family::kIpv4), prefixes);
    // The base is reusable: a second batch on it.
    auto again = PackNlri(*base, {prefixes.data(), 1}, options);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(Unpack(*again, options, &attrs, Family::kIpv4),
              std::vector<IpPrefix>{prefixes.front()});
  }
}

TEST(UpdatePackerTest, NlriBaseNeedsAnIpv4NextHopAndPackNlriIpv4Prefixes) {
  const CodecOptions options;
  EXPECT_EQ(EncodeNlriBase(Attrs(A("2001:db8::1")), options).status().code(),
            StatusCode::kInvalidArgument);
  PathAttributes no_next_hop = Attrs(A("192.0.2.1"));
  no_next_hop.next_hop.reset();
  EXPECT_EQ(EncodeNlriBase(no_next_hop, options).status().code(), StatusCode::kInvalidArgument);
  auto base = EncodeNlriBase(Attrs(A("192.0.2.1")), options);
  ASSERT_TRUE(base.ok());
  EXPECT_EQ(PackNlri(*base, V6Prefixes(1, 64), options).status().code(),
            StatusCode::kInvalidArgument);
  // A base with no room left for a prefix.
  std::vector<uint8_t> full(kMaxMessageSize, 0);
  EXPECT_EQ(PackNlri(full, V4Prefixes(1), options).status().code(), StatusCode::kResourceExhausted);
  EXPECT_TRUE(PackNlri(*base, {}, options)->empty());
}

TEST(UpdatePackerTest, Ipv4AnnouncementsFillMessages) {
  const CodecOptions options;
  const auto attrs = Attrs(A("192.0.2.1"));
  UpdateMessage empty;
  empty.attrs = attrs;
  const size_t base = EncodeUpdate(empty, options)->size();
  const size_t per = (kMaxMessageSize - base) / 4;
  const auto prefixes = V4Prefixes(3000);
  auto packed = PackAnnouncements(attrs, kIpv4Unicast, prefixes, options);
  ASSERT_TRUE(packed.ok()) << packed.status().ToString();
  EXPECT_EQ(packed->size(), CeilDiv(prefixes.size(), per));
  EXPECT_EQ(packed->front().size(), base + per * 4);
  EXPECT_EQ(Unpack(*packed, options, &attrs, Family::kIpv4), prefixes);
}

// IPv4 messages are made by appending prefixes to the encoded empty one: each is byte for byte
// what encoding a whole UPDATE with its prefixes gives.
TEST(UpdatePackerTest, Ipv4MessagesAreTheirFullEncoding) {
  for (const CodecOptions& options : {CodecOptions{}, CodecOptions{.extended_message = true}}) {
    const auto attrs = Attrs(A("192.0.2.1"));
    std::vector<IpPrefix> prefixes;
    for (uint32_t i = 0; i < 5000; ++i) {
      prefixes.emplace_back(IpAddr::V4(0x0a000000 + i * 0x1234), 8 + static_cast<int>(i % 25));
    }
    auto packed = PackAnnouncements(attrs, kIpv4Unicast, prefixes, options);
    ASSERT_TRUE(packed.ok()) << packed.status().ToString();
    size_t at = 0;
    for (const auto& m : *packed) {
      UpdateMessage whole;
      whole.attrs = attrs;
      const auto r = DecodeUpdateBody(Body(m), options);
      for (const auto& p : r.Announcements()) whole.nlri.push_back(p);
      ASSERT_FALSE(whole.nlri.empty());
      EXPECT_EQ(std::vector<IpPrefix>(
                    prefixes.begin() + static_cast<std::ptrdiff_t>(at),
                    prefixes.begin() + static_cast<std::ptrdiff_t>(at + whole.nlri.size())),
                whole.nlri);
      at += whole.nlri.size();
      EXPECT_EQ(*EncodeUpdate(whole, options), m);
    }
    EXPECT_EQ(at, prefixes.size());
  }
}

TEST(UpdatePackerTest, Ipv6AnnouncementsUseMpReachWithExtendedLength) {
  const CodecOptions options;
  auto attrs = Attrs(A("2001:db8::1"));
  attrs.link_local_next_hop() = A("fe80::1");
  UpdateMessage empty;
  empty.attrs = attrs;
  empty.attrs.next_hop.reset();
  empty.attrs.link_local_next_hop().reset();
  empty.mp_reach = MpReach{kIpv6Unicast, *attrs.next_hop, attrs.link_local_next_hop(), {}};
  // The MP_REACH_NLRI value passes 255 bytes, so its length field grows by one.
  const size_t base = EncodeUpdate(empty, options)->size() + 1;
  const size_t per = (kMaxMessageSize - base) / 7;  // a /48 takes 7 bytes
  const auto prefixes = V6Prefixes(2000, 48);
  auto packed = PackAnnouncements(attrs, kIpv6Unicast, prefixes, options);
  ASSERT_TRUE(packed.ok()) << packed.status().ToString();
  EXPECT_EQ(packed->size(), CeilDiv(prefixes.size(), per));
  EXPECT_EQ(Unpack(*packed, options, &attrs, Family::kIpv6), prefixes);
}

TEST(UpdatePackerTest, MixedLengthsStayUnderTheLimit) {
  const CodecOptions options;
  auto prefixes = V6Prefixes(700, 64);
  const auto more = V6Prefixes(700, 127);
  prefixes.insert(prefixes.end(), more.begin(), more.end());
  const auto attrs = Attrs(A("2001:db8::1"));
  auto packed = PackAnnouncements(attrs, kIpv6Unicast, prefixes, options);
  ASSERT_TRUE(packed.ok());
  EXPECT_EQ(Unpack(*packed, options, &attrs, Family::kIpv6), prefixes);
  // All messages but the last are nearly full.
  for (size_t i = 0; i + 1 < packed->size(); ++i) EXPECT_GT((*packed)[i].size(), 4096u - 17);
}

TEST(UpdatePackerTest, ExtendedMessagesHoldMore) {
  CodecOptions options;
  options.extended_message = true;
  const auto attrs = Attrs(A("192.0.2.1"));
  const auto prefixes = V4Prefixes(40000);
  auto packed = PackAnnouncements(attrs, kIpv4Unicast, prefixes, options);
  ASSERT_TRUE(packed.ok());
  UpdateMessage empty;
  empty.attrs = attrs;
  const size_t per = (kMaxExtendedMessageSize - EncodeUpdate(empty, options)->size()) / 4;
  EXPECT_EQ(packed->size(), CeilDiv(prefixes.size(), per));
  EXPECT_EQ(Unpack(*packed, options, &attrs, Family::kIpv4), prefixes);
}

TEST(UpdatePackerTest, Withdrawals) {
  const CodecOptions options;
  const auto v4 = V4Prefixes(2500);
  auto packed4 = PackWithdrawals(kIpv4Unicast, v4, options);
  ASSERT_TRUE(packed4.ok());
  EXPECT_EQ(packed4->size(), CeilDiv(v4.size(), (kMaxMessageSize - 23) / 4));
  EXPECT_EQ(Unpack(*packed4, options, nullptr, Family::kIpv4), v4);

  const auto v6 = V6Prefixes(1500, 48);
  auto packed6 = PackWithdrawals(kIpv6Unicast, v6, options);
  ASSERT_TRUE(packed6.ok());
  // Header 19, two length fields 4, MP_UNREACH header 4 and AFI/SAFI 3.
  EXPECT_EQ(packed6->size(), CeilDiv(v6.size(), (kMaxMessageSize - 30) / 7));
  EXPECT_EQ(Unpack(*packed6, options, nullptr, Family::kIpv6), v6);
}

TEST(UpdatePackerTest, NothingToPack) {
  auto packed = PackWithdrawals(kIpv4Unicast, {}, CodecOptions{});
  ASSERT_TRUE(packed.ok());
  EXPECT_TRUE(packed->empty());
}

TEST(UpdatePackerTest, Errors) {
  const CodecOptions options;
  const auto v4 = V4Prefixes(3);
  EXPECT_EQ(PackAnnouncements(Attrs(A("2001:db8::1")), kIpv4Unicast, v4, options).status().code(),
            StatusCode::kInvalidArgument);  // next hop of the wrong family
  EXPECT_EQ(PackAnnouncements(Attrs(A("192.0.2.1")), kIpv6Unicast, v4, options).status().code(),
            StatusCode::kInvalidArgument);  // prefixes of the wrong family
  EXPECT_EQ(PackWithdrawals(AfiSafi{25, 70}, {}, options).status().code(),
            StatusCode::kInvalidArgument);
  auto huge = Attrs(A("192.0.2.1"));
  huge.communities.assign(1020, 7);  // 4080 bytes of communities
  EXPECT_EQ(PackAnnouncements(huge, kIpv4Unicast, v4, options).status().code(),
            StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace strata::bgp
