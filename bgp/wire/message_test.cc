// Tests of the header checks, KEEPALIVE, NOTIFICATION, ROUTE-REFRESH and DecodeMessage.
#include <gtest/gtest.h>

#include "bgp/wire/message_codec.h"
#include "testing/bgp/wire_test_util.h"

namespace strata::bgp {
namespace {

using test_util::Hex;

std::vector<uint8_t> Header(uint16_t length, uint8_t type) {
  std::vector<uint8_t> h(16, 0xff);
  h.push_back(static_cast<uint8_t>(length >> 8));
  h.push_back(static_cast<uint8_t>(length));
  h.push_back(type);
  return h;
}

TEST(MessageHeaderTest, KeepaliveRoundTrip) {
  const auto bytes = EncodeKeepalive();
  EXPECT_EQ(bytes, Header(19, 4));
  auto h = DecodeHeader(bytes, kMaxMessageSize);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->length, 19);
  EXPECT_EQ(h->type, MessageType::kKeepalive);
  auto m = DecodeMessage(bytes, CodecOptions{});
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(std::holds_alternative<KeepaliveMessage>(*m));
}

TEST(MessageHeaderTest, BadMarkerIsConnectionNotSynchronized) {
  auto bytes = Header(19, 4);
  bytes[3] = 0xfe;
  auto h = DecodeHeader(bytes, kMaxMessageSize);
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.error(),
            MakeNotification(ErrorCode::kMessageHeader, HeaderError::kConnectionNotSynchronized));
}

TEST(MessageHeaderTest, BadTypeCarriesTheType) {
  auto h = DecodeHeader(Header(19, 9), kMaxMessageSize);
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.error(),
            MakeNotification(ErrorCode::kMessageHeader, HeaderError::kBadMessageType, {9}));
}

TEST(MessageHeaderTest, LengthChecksPerType) {
  struct Case {
    uint16_t length;
    uint8_t type;
    bool ok;
  };
  const Case cases[] = {
      {18, 4, false},  {20, 4, false},   {28, 1, false}, {29, 1, true},
      {22, 2, false},  {23, 2, true},    {20, 3, false}, {21, 3, true},
      {4096, 2, true}, {4097, 2, false}, {19, 5, true},
  };
  for (const auto& c : cases) {
    auto h = DecodeHeader(Header(c.length, c.type), kMaxMessageSize);
    EXPECT_EQ(h.ok(), c.ok) << c.length << " type " << int{c.type};
    if (!h.ok()) {
      EXPECT_EQ(h.error().subcode, static_cast<uint8_t>(HeaderError::kBadMessageLength));
      EXPECT_EQ(h.error().data, (std::vector<uint8_t>{static_cast<uint8_t>(c.length >> 8),
                                                      static_cast<uint8_t>(c.length)}));
    }
  }
}

TEST(MessageHeaderTest, ExtendedMessagesExceptOpenAndKeepalive) {
  EXPECT_TRUE(DecodeHeader(Header(65535, 2), kMaxExtendedMessageSize).ok());
  EXPECT_FALSE(DecodeHeader(Header(5000, 1), kMaxExtendedMessageSize).ok());
  EXPECT_FALSE(DecodeHeader(Header(4097, 2), kMaxMessageSize).ok());
}

TEST(MessageHeaderTest, ShortBufferIsAnError) {
  EXPECT_FALSE(DecodeHeader(Hex("ff ff"), kMaxMessageSize).ok());
}

TEST(MessageCodecTest, LengthFieldMustMatchTheMessage) {
  auto bytes = EncodeKeepalive();
  bytes.push_back(0);
  auto m = DecodeMessage(bytes, CodecOptions{});
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().subcode, static_cast<uint8_t>(HeaderError::kBadMessageLength));
}

TEST(NotificationTest, RoundTripWithData) {
  const auto n = MakeNotification(ErrorCode::kUpdateMessage, UpdateError::kMalformedAsPath,
                                  {0x40, 0x02, 0x00});
  const auto bytes = EncodeNotification(n);
  EXPECT_EQ(bytes, test_util::Concat({Header(24, 3), Hex("03 0b 40 02 00")}));
  auto m = DecodeMessage(bytes, CodecOptions{});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(std::get<ReceivedNotification>(*m).notification, n);
  EXPECT_EQ(n.ToString(), "UPDATE Message Error / Malformed AS_PATH (data 3 bytes)");
}

TEST(NotificationTest, Names) {
  EXPECT_EQ(ErrorCodeName(1), "Message Header Error");
  EXPECT_EQ(ErrorCodeName(42), "error code 42");
  EXPECT_EQ(ErrorSubcodeName(2, 6), "Unacceptable Hold Time");
  EXPECT_EQ(ErrorSubcodeName(6, 9), "Hard Reset");
  EXPECT_EQ(ErrorSubcodeName(3, 99), "subcode 99");
  EXPECT_EQ(MakeNotification(ErrorCode::kHoldTimerExpired, 0).ToString(),
            "Hold Timer Expired / subcode 0");
}

TEST(NotificationTest, ShutdownCommunication) {
  const auto n = MakeShutdownNotification(CeaseSubcode::kAdministrativeShutdown, "maintenance");
  EXPECT_EQ(n.data[0], 11);
  EXPECT_EQ(ShutdownCommunication(n), "maintenance");
  EXPECT_EQ(n.ToString(), "Cease / Administrative Shutdown \"maintenance\"");
  auto back = DecodeNotificationBody(test_util::Body(EncodeNotification(n)));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(ShutdownCommunication(*back), "maintenance");
  // A length byte that overruns the data is not a communication.
  NotificationMessage bad = n;
  bad.data[0] = 200;
  EXPECT_EQ(ShutdownCommunication(bad), std::nullopt);
  // Other codes carry none.
  EXPECT_EQ(ShutdownCommunication(
                MakeNotification(ErrorCode::kCease, CeaseSubcode::kHardReset, {1, 'x'})),
            std::nullopt);
}

// RFC 9003 text comes from the peer: it reaches logs and `show` escaped, never raw.
TEST(NotificationTest, ShutdownCommunicationIsPrintedEscaped) {
  const auto n = MakeShutdownNotification(CeaseSubcode::kAdministrativeShutdown,
                                          "bye\n2026-01-01 [bgp] [critical] forged\x1b[2J");
  EXPECT_EQ(ShutdownCommunication(n), "bye\n2026-01-01 [bgp] [critical] forged\x1b[2J");
  EXPECT_EQ(n.ToString(),
            "Cease / Administrative Shutdown \"bye\\n2026-01-01 [bgp] [critical] forged\\x1b[2J\"");
}

TEST(NotificationTest, ShutdownCommunicationIsCutAtACharacterBoundary) {
  std::string text(254, 'a');
  text += "\xc3\xa9";  // a two-byte character straddling byte 255
  const auto n = MakeShutdownNotification(CeaseSubcode::kAdministrativeReset, text);
  EXPECT_EQ(n.data[0], 254);
  EXPECT_EQ(ShutdownCommunication(n), std::string(254, 'a'));
}

TEST(NotificationTest, TooShortBody) { EXPECT_EQ(DecodeNotificationBody(Hex("06")), std::nullopt); }

TEST(RouteRefreshTest, RoundTripAllSubtypes) {
  for (uint8_t subtype : {0, 1, 2}) {
    const RouteRefreshMessage m{kIpv6Unicast, subtype};
    const auto bytes = EncodeRouteRefresh(m);
    EXPECT_EQ(bytes, test_util::Concat({Header(23, 5), Hex("00 02"), {subtype}, Hex("01")}));
    auto back = DecodeMessage(bytes, CodecOptions{});
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(std::get<RouteRefreshMessage>(*back), m);
  }
  EXPECT_EQ((RouteRefreshMessage{kIpv4Unicast, 1}.ToString()), "BoRR ipv4-unicast");
  EXPECT_EQ((RouteRefreshMessage{kIpv4Unicast, 2}.ToString()), "EoRR ipv4-unicast");
  EXPECT_FALSE((RouteRefreshMessage{kIpv4Unicast, 7}.known_subtype()));
}

TEST(RouteRefreshTest, WrongLengthIsRouteRefreshError) {
  auto bytes = test_util::Concat({Header(24, 5), Hex("00 01 01 01 00")});
  auto m = DecodeMessage(bytes, CodecOptions{});
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, static_cast<uint8_t>(ErrorCode::kRouteRefresh));
  EXPECT_EQ(m.error().subcode, static_cast<uint8_t>(RouteRefreshError::kInvalidMessageLength));
  EXPECT_EQ(m.error().data, bytes);
}

}  // namespace
}  // namespace strata::bgp
