// Tests of OPEN encoding, decoding, validation, capabilities and session negotiation.
#include "bgp/wire/open_message.h"

#include <gtest/gtest.h>

#include "bgp/wire/codec_options.h"
#include "bgp/wire/message_codec.h"
#include "testing/bgp/wire_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::Body;
using test_util::Hex;

Capabilities AllCaps() {
  Capabilities c;
  c.multiprotocol = {kIpv4Unicast, kIpv6Unicast};
  c.route_refresh = true;
  c.enhanced_route_refresh = true;
  c.extended_message = true;
  c.graceful_restart =
      GracefulRestartCapability{true, true, 120, {{kIpv4Unicast, true}, {kIpv6Unicast, false}}};
  c.add_path = {{kIpv4Unicast, 3}};
  c.unknown = {RawCapability{73, {3, 'r', 't', 'r'}}};
  return c;
}

TEST(OpenMessageTest, RoundTripWithEveryCapability) {
  const auto open = OpenMessage::Make(65551, 90, A("192.0.2.1"), AllCaps());
  EXPECT_EQ(open.my_as, kAsTrans);
  EXPECT_EQ(open.PeerAs(), 65551u);
  const auto bytes = EncodeOpen(open);
  auto back = DecodeMessage(bytes, CodecOptions{});
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(std::get<OpenMessage>(*back), open);
  EXPECT_EQ(open.ToString(),
            "OPEN v4 as 65551 hold 90 id 192.0.2.1 caps [mp(ipv4-unicast,ipv6-unicast) rr err "
            "as4(65551) ext-msg gr(120s) add-path unknown(73)]");
}

TEST(OpenMessageTest, KnownBytes) {
  // AS 65001, hold 180, id 10.0.0.1, capabilities MP IPv4 unicast, route refresh, AS4 65001.
  Capabilities caps;
  caps.multiprotocol = {kIpv4Unicast};
  caps.route_refresh = true;
  const auto bytes = EncodeOpen(OpenMessage::Make(65001, 180, A("10.0.0.1"), caps));
  const auto expected =
      Hex("ffffffffffffffffffffffffffffffff 002d 01"
          "04 fde9 00b4 0a000001 10"
          "02 0e  01 04 0001 00 01  02 00  41 04 0000fde9");
  EXPECT_EQ(bytes, expected);
}

TEST(OpenMessageTest, ExtendedOptionalParametersLength) {
  Capabilities caps;
  for (uint8_t i = 0; i < 30; ++i)
    caps.unknown.push_back({static_cast<uint8_t>(100 + i), std::vector<uint8_t>(10, i)});
  const auto open = OpenMessage::Make(65001, 180, A("10.0.0.1"), caps);
  const auto bytes = EncodeOpen(open);
  ASSERT_GT(bytes.size(), 29u + 255u);
  EXPECT_EQ(bytes[28], 255);  // RFC 9072 Non-Ext OP Len
  EXPECT_EQ(bytes[29], 255);  // Non-Ext OP Type
  auto back = DecodeOpenBody(Body(bytes));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, open);
}

TEST(OpenMessageTest, UnsupportedVersion) {
  auto bytes = EncodeOpen(OpenMessage::Make(65001, 180, A("10.0.0.1"), {}));
  bytes[19] = 3;
  auto r = DecodeOpenBody(Body(bytes));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(),
            MakeNotification(ErrorCode::kOpenMessage, OpenError::kUnsupportedVersion, {0, 4}));
}

TEST(OpenMessageTest, UnsupportedOptionalParameter) {
  // Parameter type 1 (authentication, deprecated).
  auto r = DecodeOpenBody(Hex("04 fde9 00b4 0a000001 04  01 02 aa bb"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().subcode, static_cast<uint8_t>(OpenError::kUnsupportedOptionalParameter));
}

TEST(OpenMessageTest, MalformedParametersAreUnspecificErrors) {
  const char* bodies[] = {
      "04 fde9 00b4 0a000001 05  02 03 41 04 00",            // capability runs past its parameter
      "04 fde9 00b4 0a000001 06  02 04 41 02 0000",          // 4-octet AS capability of length 2
      "04 fde9 00b4 0a000001 09  02 07 40 05 0078 0001 01",  // graceful restart family cut short
      "04 fde9 00b4 0a000001 09  02 03 01 01 00",            // parameters run past the message
      "04 fde9 00b4 0a000001 02  02",                        // parameter header cut short
      "04 fde9 00b4 0a000001 02  02 00 ff",                  // bytes after the parameters
      "04 fde9 00b4",                                        // fixed part cut short
  };
  for (const char* body : bodies) {
    auto r = DecodeOpenBody(Hex(body));
    ASSERT_FALSE(r.ok()) << body;
    EXPECT_EQ(r.error().code, static_cast<uint8_t>(ErrorCode::kOpenMessage)) << body;
    EXPECT_EQ(r.error().subcode, static_cast<uint8_t>(OpenError::kUnspecific)) << body;
  }
}

TEST(OpenMessageTest, UnknownCapabilityIsKept) {
  auto r = DecodeOpenBody(Hex("04 fde9 00b4 0a000001 05  02 03 99 01 07"));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->caps.unknown.size(), 1u);
  EXPECT_EQ(r->caps.unknown[0], (RawCapability{0x99, {7}}));
}

TEST(OpenMessageTest, GracefulRestartFields) {
  auto r = DecodeOpenBody(Hex("04 fde9 00b4 0a000001 0a  02 08 40 06 c0 78 0002 01 80"));
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->caps.graceful_restart.has_value());
  const auto& gr = *r->caps.graceful_restart;
  EXPECT_TRUE(gr.restarting);
  EXPECT_TRUE(gr.notification_support);
  EXPECT_EQ(gr.restart_time, 0x78);
  ASSERT_EQ(gr.families.size(), 1u);
  EXPECT_EQ(gr.families[0].afi_safi, kIpv6Unicast);
  EXPECT_TRUE(gr.families[0].forwarding_preserved);
}

TEST(OpenMessageTest, GracefulRestartEncodesRestartFlagsTimeAndForwardingBits) {
  // Restarting (R), 120 s, IPv4 unicast with F, IPv6 unicast without.
  Capabilities caps;
  caps.graceful_restart =
      GracefulRestartCapability{true, false, 120, {{kIpv4Unicast, true}, {kIpv6Unicast, false}}};
  ByteWriter w;
  EncodeCapabilities(caps, w);
  EXPECT_EQ(std::vector<uint8_t>(w.bytes().begin(), w.bytes().end()),
            Hex("40 0a 8078 0001 01 80 0002 01 00"));
  // The restart time is 12 bits: the flags nibble is not disturbed by a large value.
  caps.graceful_restart = GracefulRestartCapability{false, false, 0xffff, {}};
  ByteWriter w2;
  EncodeCapabilities(caps, w2);
  EXPECT_EQ(std::vector<uint8_t>(w2.bytes().begin(), w2.bytes().end()), Hex("40 02 0fff"));
  // A helper-only capability (no family, as BIRD and FRR send by default) decodes.
  Capabilities helper;
  ASSERT_TRUE(DecodeCapabilities(Hex("40 02 0078"), helper).ok());
  ASSERT_TRUE(helper.graceful_restart.has_value());
  EXPECT_FALSE(helper.graceful_restart->restarting);
  EXPECT_EQ(helper.graceful_restart->restart_time, 120);
  EXPECT_TRUE(helper.graceful_restart->families.empty());
}

TEST(OpenValidationTest, AcceptsAGoodOpen) {
  const auto open = OpenMessage::Make(65002, 90, A("10.0.0.2"), {});
  EXPECT_EQ(ValidateOpen(open, {65002, A("10.0.0.1"), false}), std::nullopt);
  EXPECT_EQ(ValidateOpen(open, {0, A("10.0.0.1"), false}), std::nullopt);
}

TEST(OpenValidationTest, HoldTime) {
  for (uint16_t hold : {0, 3, 65535}) {
    EXPECT_EQ(ValidateOpen(OpenMessage::Make(65002, hold, A("10.0.0.2"), {}), {}), std::nullopt);
  }
  for (uint16_t hold : {1, 2}) {
    auto n = ValidateOpen(OpenMessage::Make(65002, hold, A("10.0.0.2"), {}), {});
    ASSERT_TRUE(n.has_value());
    EXPECT_EQ(n->subcode, static_cast<uint8_t>(OpenError::kUnacceptableHoldTime));
  }
}

TEST(OpenValidationTest, BgpIdentifier) {
  auto zero = ValidateOpen(OpenMessage::Make(65002, 90, A("0.0.0.0"), {}), {});
  ASSERT_TRUE(zero.has_value());
  EXPECT_EQ(zero->subcode, static_cast<uint8_t>(OpenError::kBadBgpIdentifier));
  const auto same = OpenMessage::Make(65001, 90, A("10.0.0.1"), {});
  auto internal = ValidateOpen(same, {65001, A("10.0.0.1"), true});
  ASSERT_TRUE(internal.has_value());
  EXPECT_EQ(internal->subcode, static_cast<uint8_t>(OpenError::kBadBgpIdentifier));
  EXPECT_EQ(ValidateOpen(same, {65001, A("10.0.0.1"), false}), std::nullopt);
}

TEST(OpenValidationTest, PeerAs) {
  auto bad = [](const OpenMessage& open, uint32_t expected) {
    auto n = ValidateOpen(open, {expected, A("10.0.0.1"), false});
    return n.has_value() && n->subcode == static_cast<uint8_t>(OpenError::kBadPeerAs);
  };
  EXPECT_TRUE(bad(OpenMessage::Make(65002, 90, A("10.0.0.2"), {}), 65003));
  EXPECT_TRUE(bad(OpenMessage::Make(0, 90, A("10.0.0.2"), {}), 0));
  auto mismatch = OpenMessage::Make(70000, 90, A("10.0.0.2"), {});
  mismatch.my_as = 4464;  // should be AS_TRANS
  EXPECT_TRUE(bad(mismatch, 0));
  auto old_speaker = OpenMessage::Make(65002, 90, A("10.0.0.2"), {});
  old_speaker.caps.four_octet_as.reset();
  EXPECT_FALSE(bad(old_speaker, 65002));
  EXPECT_FALSE(bad(OpenMessage::Make(70000, 90, A("10.0.0.2"), {}), 70000));
}

TEST(NegotiateTest, IntersectsCapabilities) {
  Capabilities local = AllCaps();
  local.four_octet_as = 65001;
  Capabilities remote;
  remote.multiprotocol = {kIpv6Unicast};
  remote.route_refresh = true;
  remote.four_octet_as = 65002;
  const auto s = Negotiate(local, 180, remote, 90, PeerType::kExternal);
  EXPECT_TRUE(s.codec.four_octet_as);
  EXPECT_FALSE(s.codec.extended_message);
  EXPECT_EQ(s.codec.max_message_size(), 4096u);
  EXPECT_EQ(s.families, std::vector<AfiSafi>{kIpv6Unicast});
  EXPECT_TRUE(s.route_refresh);
  EXPECT_FALSE(s.enhanced_route_refresh);
  EXPECT_EQ(s.hold_time, 90);

  remote = Capabilities();  // an old speaker: no capabilities at all
  const auto old = Negotiate(local, 180, remote, 240, PeerType::kInternal);
  EXPECT_FALSE(old.codec.four_octet_as);
  EXPECT_EQ(old.families, std::vector<AfiSafi>{kIpv4Unicast});
  EXPECT_FALSE(old.route_refresh);
}

}  // namespace
}  // namespace strata::bgp
