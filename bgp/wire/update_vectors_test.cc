// Known byte vectors: UPDATEs written out by hand from RFC 4271 and RFC 4760/2545, decoded to
// the expected fields and encoded back to the same bytes.
#include <gtest/gtest.h>

#include "bgp/wire/message_codec.h"
#include "bgp/wire/update_message.h"
#include "testing/bgp/wire_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::Hex;
using test_util::P;

constexpr const char* kMarker = "ffffffffffffffffffffffffffffffff";

UpdateDecodeResult Decode(const std::vector<uint8_t>& bytes, const CodecOptions& options) {
  auto m = DecodeMessage(bytes, options);
  EXPECT_TRUE(m.ok());
  if (!m.ok()) return {};
  return std::get<UpdateDecodeResult>(*m);
}

TEST(UpdateVectorsTest, Ipv4AnnouncementFromATwoOctetSpeaker) {
  const auto bytes = Hex(std::string(kMarker) +
                         "003a 02  0000  001b"
                         "40 01 01 00"                 // ORIGIN IGP
                         "40 02 06 02 02 fde9 fdea"    // AS_PATH 65001 65002
                         "40 03 04 0a 00 00 01"        // NEXT_HOP 10.0.0.1
                         "80 04 04 00 00 00 00"        // MED 0
                         "18 c0 00 02  18 c6 33 64");  // 192.0.2.0/24 198.51.100.0/24
  CodecOptions old;
  old.four_octet_as = false;
  old.peer_type = PeerType::kExternal;
  auto r = Decode(bytes, old);
  ASSERT_EQ(r.action, ErrorAction::kNone) << r.ToString();
  UpdateMessage expected;
  expected.attrs.origin = Origin::kIgp;
  expected.attrs.as_path = AsPath::Sequence({65001, 65002});
  expected.attrs.next_hop = A("10.0.0.1");
  expected.attrs.med = 0;
  expected.nlri = {P("192.0.2.0/24"), P("198.51.100.0/24")};
  EXPECT_EQ(r.update, expected);
  EXPECT_EQ(r.update.ToString(),
            "UPDATE [origin igp as-path 65001 65002 next-hop 10.0.0.1 med 0] announce "
            "192.0.2.0/24 198.51.100.0/24");
  auto again = EncodeUpdate(expected, old);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, bytes);
}

TEST(UpdateVectorsTest, Ipv6AnnouncementWithLinkLocalNextHop) {
  const auto bytes = Hex(std::string(kMarker) +
                         "0069 02  0000  0052"
                         "40 01 01 00"                       // ORIGIN IGP
                         "40 02 0a 02 02 0000fde9 00011170"  // AS_PATH 65001 70000
                         "40 05 04 00 00 00 64"              // LOCAL_PREF 100
                         "c0 08 08 fde9 0064 fde9 00c8"      // 65001:100 65001:200
                         "80 0e 2c 0002 01 20"               // MP_REACH IPv6 unicast
                         "20010db8000000000000000000000001"  //   2001:db8::1
                         "fe800000000000000000000000000001"  //   fe80::1
                         "00  30 20 01 0d b8 00 01");        //   2001:db8:1::/48
  auto r = Decode(bytes, CodecOptions{});
  ASSERT_EQ(r.action, ErrorAction::kNone) << r.ToString();
  ASSERT_TRUE(r.update.mp_reach.has_value());
  EXPECT_EQ(r.update.mp_reach->afi_safi, kIpv6Unicast);
  EXPECT_EQ(r.update.mp_reach->next_hop, A("2001:db8::1"));
  EXPECT_EQ(r.update.mp_reach->link_local_next_hop, A("fe80::1"));
  EXPECT_EQ(r.Announcements(), std::vector<IpPrefix>{P("2001:db8:1::/48")});
  const PathAttributes attrs = r.update.AttributesFor(Family::kIpv6);
  EXPECT_EQ(attrs.as_path->ToString(), "65001 70000");
  EXPECT_EQ(attrs.local_pref, 100u);
  EXPECT_EQ(attrs.communities, (std::vector<uint32_t>{0xfde90064, 0xfde900c8}));
  EXPECT_EQ(attrs.link_local_next_hop(), A("fe80::1"));
  auto again = EncodeUpdate(r.update, CodecOptions{});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, bytes);
}

TEST(UpdateVectorsTest, Ipv4Withdrawal) {
  const auto bytes = Hex(std::string(kMarker) + "001f 02  0008 18 c0 00 02 18 c6 33 64  0000");
  auto r = Decode(bytes, CodecOptions{});
  ASSERT_EQ(r.action, ErrorAction::kNone);
  EXPECT_EQ(r.Withdrawals(), (std::vector<IpPrefix>{P("192.0.2.0/24"), P("198.51.100.0/24")}));
  EXPECT_EQ(r.end_of_rib, std::nullopt);
  auto again = EncodeUpdate(r.update, CodecOptions{});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, bytes);
}

TEST(UpdateVectorsTest, Ipv6Withdrawal) {
  const auto bytes =
      Hex(std::string(kMarker) + "0024 02  0000 000d  80 0f 0a 0002 01 30 20 01 0d b8 00 01");
  auto r = Decode(bytes, CodecOptions{});
  ASSERT_EQ(r.action, ErrorAction::kNone);
  EXPECT_EQ(r.Withdrawals(), std::vector<IpPrefix>{P("2001:db8:1::/48")});
  auto again = EncodeUpdate(r.update, CodecOptions{});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, bytes);
}

TEST(UpdateVectorsTest, EndOfRibMarkers) {
  EXPECT_EQ(EncodeEndOfRib(kIpv4Unicast), Hex(std::string(kMarker) + "0017 02 0000 0000"));
  EXPECT_EQ(EncodeEndOfRib(kIpv6Unicast),
            Hex(std::string(kMarker) + "001d 02 0000 0006 80 0f 03 0002 01"));
}

}  // namespace
}  // namespace strata::bgp
