// SessionFsm: OPEN errors, messages unexpected in each state, collisions, UPDATE and
// ROUTE-REFRESH delivery, framing errors and the send methods, on a fake clock.
#include <algorithm>

#include "bgp/session/session_fsm.h"
#include "bgp/wire/byte_writer.h"
#include "bgp/wire/route_refresh.h"
#include "testing/bgp/session_fsm_test_util.h"

namespace strata::bgp::test_util {
namespace {

std::vector<uint8_t> Message(MessageType type, const std::vector<uint8_t>& body) {
  ByteWriter w;
  BeginMessage(w, type);
  w.Bytes(body);
  FinishMessage(w);
  return w.Take();
}

std::vector<uint8_t> Ipv4Update(std::string_view prefix) {
  UpdateMessage u;
  u.attrs.origin = Origin::kIgp;
  u.attrs.as_path = AsPath{};
  u.attrs.next_hop = Addr("192.0.2.2");
  u.nlri = {*IpPrefix::Parse(prefix)};
  CodecOptions codec;
  codec.peer_type = PeerType::kExternal;
  return *EncodeUpdate(u, codec);
}

class OpenErrorTest : public SessionFsmTest {
 protected:
  // Feeds `open` on a fresh outgoing connection and returns the NOTIFICATION sent.
  NotificationMessage Reply(const std::vector<uint8_t>& open) {
    if (!fsm) Make();
    fsm->Start();
    fsm->OnTcpConnected(1, true);
    Feed(1, open);
    EXPECT_TRUE(env.IsClosed(1));
    EXPECT_EQ(fsm->state(), SessionState::kIdle);
    EXPECT_TRUE(env.Running("idle-hold"));
    return LastNotification(1);
  }
};

TEST_F(OpenErrorTest, UnsupportedVersion) {
  auto open = PeerOpen();
  open[kHeaderSize] = 3;
  const auto n = Reply(open);
  EXPECT_EQ(n.code, 2);
  EXPECT_EQ(n.subcode, 1);
}

TEST_F(OpenErrorTest, BadPeerAs) { EXPECT_EQ(Reply(PeerOpen(65099)), N(2, 2)); }

TEST_F(OpenErrorTest, BadBgpIdentifierZero) {
  EXPECT_EQ(Reply(PeerOpen(65002, 90, "0.0.0.0")), N(2, 3));
}

TEST_F(OpenErrorTest, BadBgpIdentifierSameAsOursOnInternalSession) {
  PeerConfig c = TestConfig();
  c.peer_as = c.local_as;
  Make(c);
  EXPECT_EQ(Reply(PeerOpen(65001, 90, "10.0.0.1")), N(2, 3));
}

TEST_F(OpenErrorTest, UnsupportedOptionalParameter) {
  // Version 4, AS 65002, hold 90, id 10.0.0.2, one parameter of type 1 (authentication).
  const std::vector<uint8_t> body = {4, 0xfd, 0xea, 0, 90, 10, 0, 0, 2, 4, 1, 2, 0, 0};
  EXPECT_EQ(Reply(Message(MessageType::kOpen, body)).subcode, 4);
}

TEST_F(OpenErrorTest, UnacceptableHoldTime) { EXPECT_EQ(Reply(PeerOpen(65002, 2)), N(2, 6)); }

TEST_F(OpenErrorTest, RequiredCapabilityMissing) {
  PeerConfig c = TestConfig();
  c.required_capabilities = {CapabilityCode::kExtendedMessage};
  Make(c);
  const auto n = Reply(PeerOpen());
  EXPECT_EQ(n.code, 2);
  EXPECT_EQ(n.subcode, 7);
  EXPECT_EQ(n.data, (std::vector<uint8_t>{6, 0}));
}

TEST_F(SessionFsmTest, KeepaliveInOpenSentIsFsmError) {
  Make();
  fsm->Start();
  fsm->OnTcpConnected(1, true);
  Feed(1, EncodeKeepalive());
  EXPECT_EQ(LastNotification(1), N(5, 1));
  EXPECT_EQ(fsm->state(), SessionState::kIdle);
}

TEST_F(SessionFsmTest, UpdateInOpenConfirmIsFsmError) {
  Make();
  fsm->Start();
  fsm->OnTcpConnected(1, true);
  Feed(1, PeerOpen());
  Feed(1, Ipv4Update("198.51.100.0/24"));
  EXPECT_EQ(LastNotification(1), N(5, 2));
  EXPECT_TRUE(consumer.updates.empty());
}

TEST_F(SessionFsmTest, OpenInEstablishedIsFsmError) {
  Establish();
  Feed(1, PeerOpen());
  EXPECT_EQ(LastNotification(1), N(5, 3));
  EXPECT_EQ(consumer.downs.size(), 1u);
}

TEST_F(SessionFsmTest, UpdateWhileDelayingOpenIsFsmErrorUnspecified) {
  PeerConfig c = TestConfig();
  c.delay_open = 1000ms;
  Make(c);
  fsm->Start();
  fsm->OnTcpConnected(1, true);
  Feed(1, Ipv4Update("198.51.100.0/24"));
  EXPECT_EQ(LastNotification(1), N(5, 0));
}

TEST_F(SessionFsmTest, NotificationInOpenSentClosesQuietly) {
  Make();
  fsm->Start();
  fsm->OnTcpConnected(1, true);
  Feed(1, EncodeNotification(N(6, 5)));
  EXPECT_TRUE(env.Notifications(1).empty());
  EXPECT_TRUE(env.IsClosed(1));
  EXPECT_EQ(fsm->state(), SessionState::kIdle);
}

TEST_F(SessionFsmTest, GarbageIsConnectionNotSynchronized) {
  Make();
  fsm->Start();
  fsm->OnTcpConnected(1, true);
  Feed(1, std::vector<uint8_t>(40, 0x42));
  EXPECT_EQ(LastNotification(1), N(1, 1));
  EXPECT_TRUE(env.IsClosed(1));
}

TEST_F(SessionFsmTest, OversizedMessageIsBadLength) {
  Establish();
  std::vector<uint8_t> header(kHeaderSize, 0xff);
  header[16] = 0x13;  // 5000
  header[17] = 0x88;
  header[18] = 2;
  Feed(1, header);
  const auto n = LastNotification(1);
  EXPECT_EQ(n.code, 1);
  EXPECT_EQ(n.subcode, 2);
}

TEST_F(SessionFsmTest, MessagesSplitAcrossReadsAreReassembled) {
  Make();
  fsm->Start();
  fsm->OnTcpConnected(1, true);
  std::vector<uint8_t> stream = PeerOpen();
  const auto ka = EncodeKeepalive();
  stream.insert(stream.end(), ka.begin(), ka.end());
  for (uint8_t b : stream) fsm->OnBytes(1, std::span<const uint8_t>(&b, 1));
  EXPECT_EQ(fsm->state(), SessionState::kEstablished);
}

TEST_F(SessionFsmTest, CollisionKeepsOurConnectionWhenOurIdIsHigher) {
  Make();
  fsm->Start();
  fsm->OnTcpConnected(1, true);   // ours
  fsm->OnTcpConnected(2, false);  // theirs
  Feed(1, PeerOpen(65002, 90, "9.0.0.1"));
  EXPECT_EQ(fsm->state(), SessionState::kOpenConfirm);
  Feed(2, PeerOpen(65002, 90, "9.0.0.1"));
  EXPECT_EQ(LastNotification(2), N(6, 7));
  EXPECT_TRUE(env.IsClosed(2));
  EXPECT_FALSE(env.IsClosed(1));
  EXPECT_FALSE(env.Running("idle-hold"));
  Feed(1, EncodeKeepalive());
  EXPECT_EQ(fsm->state(), SessionState::kEstablished);
  EXPECT_EQ(fsm->established_connection(), 1u);
  EXPECT_EQ(fsm->counters().collisions_resolved, 1u);
}

TEST_F(SessionFsmTest, CollisionKeepsTheirConnectionWhenTheirIdIsHigher) {
  Make();
  fsm->Start();
  fsm->OnTcpConnected(1, true);
  fsm->OnTcpConnected(2, false);
  Feed(1, PeerOpen(65002, 90, "10.0.0.9"));
  Feed(2, PeerOpen(65002, 90, "10.0.0.9"));
  EXPECT_EQ(LastNotification(1), N(6, 7));
  EXPECT_TRUE(env.IsClosed(1));
  EXPECT_FALSE(env.IsClosed(2));
  EXPECT_EQ(fsm->state(), SessionState::kOpenConfirm);
  Feed(2, EncodeKeepalive());
  EXPECT_EQ(fsm->established_connection(), 2u);
}

TEST_F(SessionFsmTest, CollisionWithEstablishedClosesTheNewConnection) {
  Establish();
  fsm->OnTcpConnected(2, false);
  EXPECT_EQ(env.SentTypes(2), std::vector<MessageType>{MessageType::kOpen});
  Feed(2, PeerOpen());
  EXPECT_EQ(LastNotification(2), N(6, 7));
  EXPECT_EQ(fsm->state(), SessionState::kEstablished);
  EXPECT_TRUE(consumer.downs.empty());
  fsm->OnTcpConnected(3, false);
  fsm->OnTcpConnected(4, false);  // a third at once is refused
  EXPECT_TRUE(env.IsClosed(4));
}

TEST_F(SessionFsmTest, UpdatesAndEndOfRibReachTheConsumer) {
  Establish();
  Feed(1, Ipv4Update("198.51.100.0/24"));
  Feed(1, EncodeEndOfRib(kIpv6Unicast));
  ASSERT_EQ(consumer.updates.size(), 2u);
  EXPECT_EQ(consumer.updates[0].Announcements(),
            std::vector<IpPrefix>{*IpPrefix::Parse("198.51.100.0/24")});
  EXPECT_EQ(consumer.updates[1].end_of_rib, kIpv6Unicast);
  EXPECT_EQ(fsm->counters().end_of_rib_in, 1u);
  EXPECT_EQ(fsm->counters().in(MessageType::kUpdate), 2u);
}

TEST_F(SessionFsmTest, TreatAsWithdrawIsDeliveredWithItsOutcome) {
  Establish();
  auto update = Ipv4Update("198.51.100.0/24");
  const std::vector<uint8_t> origin = {0x40, 1, 1, 0};
  auto it = std::search(update.begin(), update.end(), origin.begin(), origin.end());
  ASSERT_NE(it, update.end());
  it[3] = 7;  // invalid ORIGIN value
  Feed(1, update);
  ASSERT_EQ(consumer.updates.size(), 1u);
  EXPECT_EQ(consumer.updates[0].action, ErrorAction::kTreatAsWithdraw);
  EXPECT_EQ(fsm->counters().update_outcomes[2], 1u);
  EXPECT_EQ(fsm->state(), SessionState::kEstablished);
}

TEST_F(SessionFsmTest, SessionResetUpdateSendsNotificationAndTearsDown) {
  Establish();
  Feed(1, Message(MessageType::kUpdate, {0xff, 0xff, 0, 0}));  // withdrawn length overruns
  EXPECT_EQ(LastNotification(1), N(3, 1));
  EXPECT_TRUE(consumer.updates.empty());
  EXPECT_EQ(consumer.downs.size(), 1u);
  EXPECT_EQ(fsm->state(), SessionState::kIdle);
}

TEST_F(SessionFsmTest, RouteRefreshForNegotiatedFamilyIsDelivered) {
  Establish();
  Feed(1, EncodeRouteRefresh({kIpv6Unicast, 0}));
  Feed(1, EncodeRouteRefresh({AfiSafi{1, 2}, 0}));  // multicast: not negotiated, ignored
  Feed(1, EncodeRouteRefresh({kIpv4Unicast, 9}));   // unknown subtype, ignored
  ASSERT_EQ(consumer.refreshes.size(), 1u);
  EXPECT_EQ(consumer.refreshes[0].afi_safi, kIpv6Unicast);
  EXPECT_EQ(fsm->state(), SessionState::kEstablished);
}

TEST_F(SessionFsmTest, MalformedRouteRefreshIsRouteRefreshError) {
  Establish();
  Feed(1, Message(MessageType::kRouteRefresh, {0, 1, 0, 1, 0}));
  EXPECT_EQ(LastNotification(1).code, 7);
}

TEST_F(SessionFsmTest, SendMethodsNeedEstablished) {
  Make();
  EXPECT_EQ(fsm->SendEndOfRib(kIpv4Unicast).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(fsm->SendUpdate(Ipv4Update("198.51.100.0/24")).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(fsm->SendRouteRefresh(kIpv4Unicast).code(), StatusCode::kFailedPrecondition);
}

// Announce(AttributeSetPtr) keeps the encoded attributes per set: the same bytes as
// Announce(PathAttributes), for the set it kept and for another one after it.
TEST_F(SessionFsmTest, AnnounceOfASharedSetIsTheSameMessage) {
  Establish();
  auto attrs_of = [](const char* next_hop, uint32_t med) {
    PathAttributes a;
    a.origin = Origin::kIgp;
    a.as_path = AsPath{};
    a.next_hop = Addr(next_hop);
    a.med = med;
    return a;
  };
  const std::vector<IpPrefix> p1 = {*IpPrefix::Parse("203.0.113.0/24")};
  const std::vector<IpPrefix> p2 = {*IpPrefix::Parse("198.51.100.0/24"),
                                    *IpPrefix::Parse("198.51.101.0/24")};
  std::vector<AttributeSetPtr> sets;
  for (uint32_t med = 0; med < 2 * SessionFsm::kEncodedBases; ++med) {
    sets.push_back(AttributeSet::Make(attrs_of("192.0.2.1", med)));
  }
  for (int round = 0; round < 2; ++round) {
    for (const auto& set : sets) {
      for (const auto* prefixes : {&p1, &p2}) {
        ASSERT_TRUE(fsm->Announce(set->attrs(), kIpv4Unicast, *prefixes).ok());
        const auto plain = env.sent.back().bytes;
        ASSERT_TRUE(fsm->Announce(set, kIpv4Unicast, *prefixes).ok());
        EXPECT_EQ(env.sent.back().bytes, plain) << "MED " << *set->attrs().med;
      }
    }
  }
  // Other families take the plain path; errors are the same.
  const auto v6 = AttributeSet::Make(attrs_of("2001:db8::1", 0));
  const std::vector<IpPrefix> p6 = {*IpPrefix::Parse("2001:db8:1::/48")};
  EXPECT_TRUE(fsm->Announce(v6, kIpv6Unicast, p6).ok());
  EXPECT_EQ(fsm->Announce(sets[0], AfiSafi{1, 2}, p1).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(fsm->Announce(AttributeSetPtr(), kIpv4Unicast, p1).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(fsm->Announce(v6, kIpv4Unicast, p1).code(), StatusCode::kInvalidArgument);
}

TEST_F(SessionFsmTest, SendMethodsEncodeForTheSession) {
  Establish();
  PathAttributes attrs;
  attrs.origin = Origin::kIgp;
  attrs.as_path = AsPath{};
  attrs.next_hop = Addr("192.0.2.1");
  const std::vector<IpPrefix> prefixes = {*IpPrefix::Parse("203.0.113.0/24")};
  EXPECT_TRUE(fsm->Announce(attrs, kIpv4Unicast, prefixes).ok());
  EXPECT_TRUE(fsm->Withdraw(kIpv4Unicast, prefixes).ok());
  EXPECT_TRUE(fsm->SendEndOfRib(kIpv4Unicast).ok());
  EXPECT_TRUE(fsm->SendRouteRefresh(kIpv6Unicast, RouteRefreshSubtype::kBeginning).ok());
  EXPECT_EQ(fsm->SendRouteRefresh(AfiSafi{1, 2}).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(fsm->Announce(attrs, AfiSafi{1, 2}, {}).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(fsm->SendUpdate({1, 2, 3}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(fsm->counters().out(MessageType::kUpdate), 3u);
  EXPECT_EQ(fsm->counters().out(MessageType::kRouteRefresh), 1u);
  EXPECT_EQ(fsm->counters().end_of_rib_out, 1u);
  EXPECT_EQ(env.sent.back().type(), MessageType::kRouteRefresh);
}

}  // namespace
}  // namespace strata::bgp::test_util
