// End-to-end: two PeerSessions in one process over real loopback TCP (IPv4 and IPv6), each with
// its own BgpListener on its own port; and a raw socket that sends garbage.
#include "bgp/session/peer_session.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>

#include "bgp/session/asio_address.h"
#include "bgp/session/bgp_listener.h"
#include "bgp/session/message_framer.h"
#include "testing/bgp/fake_session_env.h"

namespace strata::bgp::test_util {
namespace {

using tcp = boost::asio::ip::tcp;

struct Speaker {
  RecordingConsumer consumer;
  std::unique_ptr<BgpListener> listener;
  std::unique_ptr<PeerSession> session;
  uint16_t port() const { return listener->endpoints()[0].port(); }
};

class PeerSessionTest : public ::testing::TestWithParam<const char*> {
 protected:
  IpAddr Loopback() const { return *IpAddr::Parse(GetParam()); }

  void Listen(Speaker& s) {
    auto l = BgpListener::Open(io_, {tcp::endpoint(ToAsio(Loopback()), 0)});
    ASSERT_TRUE(l.ok()) << l.status().ToString();
    s.listener = std::move(l).value();
  }
  PeerConfig Config(uint32_t local_as, uint32_t peer_as, std::string_view id, uint16_t port) {
    PeerConfig c;
    c.peer_address = Loopback();
    c.peer_port = port;
    c.local_as = local_as;
    c.peer_as = peer_as;
    c.router_id = *IpAddr::Parse(id);
    c.families = {kIpv4Unicast, kIpv6Unicast};
    c.hold_time = 3;
    c.connect_retry = 200ms;
    c.idle_hold = 100ms;
    c.idle_hold_max = 400ms;
    return c;
  }
  void Attach(Speaker& s, const PeerConfig& c) {
    auto session = PeerSession::Create(io_, c, &s.consumer);
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    s.session = std::move(session).value();
    PeerSession* p = s.session.get();
    ASSERT_TRUE(s.listener
                    ->AddPeer(
                        Loopback(), [p](tcp::socket sock) { p->AcceptIncoming(std::move(sock)); },
                        c.md5_password)
                    .ok());
  }
  // A (AS 65001, id 10.0.0.1) and B (AS 65002, id 10.0.0.2), each told the other's port.
  // `adjust` changes A's and B's configurations before the sessions are made.
  void MakePair(bool a_passive, bool b_passive,
                const std::function<void(PeerConfig&, PeerConfig&)>& adjust = nullptr) {
    Listen(a_);
    Listen(b_);
    PeerConfig ca = Config(65001, 65002, "10.0.0.1", b_.port());
    PeerConfig cb = Config(65002, 65001, "10.0.0.2", a_.port());
    ca.passive = a_passive;
    cb.passive = b_passive;
    if (adjust) adjust(ca, cb);
    Attach(a_, ca);
    Attach(b_, cb);
  }
  bool RunUntil(const std::function<bool()>& done, std::chrono::milliseconds limit = 5000ms) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!done()) {
      if (std::chrono::steady_clock::now() > end) return false;
      io_.run_one_for(10ms);
    }
    return true;
  }
  void RunFor(std::chrono::milliseconds d) {
    RunUntil([] { return false; }, d);
  }
  bool BothEstablished() {
    return a_.session->state() == SessionState::kEstablished &&
           b_.session->state() == SessionState::kEstablished;
  }

  boost::asio::io_context io_;
  Speaker a_;
  Speaker b_;
};

PathAttributes Attrs(std::string_view next_hop) {
  PathAttributes attrs;
  attrs.origin = Origin::kIgp;
  attrs.as_path = AsPath{};
  attrs.next_hop = *IpAddr::Parse(next_hop);
  return attrs;
}

TEST_P(PeerSessionTest, EstablishesAndExchangesUpdatesBothWays) {
  MakePair(false, true);
  a_.session->Start();
  b_.session->Start();
  ASSERT_TRUE(RunUntil([&] { return BothEstablished(); }));
  ASSERT_EQ(a_.consumer.established.size(), 1u);
  EXPECT_EQ(a_.consumer.established[0].families.size(), 2u);
  EXPECT_TRUE(a_.consumer.established[0].codec.extended_message);

  const std::vector<IpPrefix> v4 = {*IpPrefix::Parse("198.51.100.0/24")};
  const std::vector<IpPrefix> v6 = {*IpPrefix::Parse("2001:db8::/32")};
  ASSERT_TRUE(a_.session->Announce(Attrs("192.0.2.1"), kIpv4Unicast, v4).ok());
  ASSERT_TRUE(a_.session->SendEndOfRib(kIpv4Unicast).ok());
  ASSERT_TRUE(b_.session->Announce(Attrs("2001:db8::1"), kIpv6Unicast, v6).ok());
  ASSERT_TRUE(b_.session->SendEndOfRib(kIpv6Unicast).ok());
  ASSERT_TRUE(
      RunUntil([&] { return a_.consumer.updates.size() == 2 && b_.consumer.updates.size() == 2; }));
  EXPECT_EQ(b_.consumer.updates[0].Announcements(), v4);
  EXPECT_EQ(b_.consumer.updates[1].end_of_rib, kIpv4Unicast);
  EXPECT_EQ(a_.consumer.updates[0].Announcements(), v6);
  EXPECT_EQ(a_.consumer.updates[1].end_of_rib, kIpv6Unicast);
  EXPECT_EQ(b_.session->fsm().counters().end_of_rib_in, 1u);

  ASSERT_TRUE(a_.session->SendRouteRefresh(kIpv6Unicast).ok());
  ASSERT_TRUE(RunUntil([&] { return b_.consumer.refreshes.size() == 1; }));
  // Keepalives (1 s) keep the 3 s hold timer from expiring.
  RunFor(3500ms);
  EXPECT_TRUE(BothEstablished());
  EXPECT_GE(a_.session->fsm().counters().in(MessageType::kKeepalive), 3u);
}

TEST_P(PeerSessionTest, NotificationClosesBothAndResetReconnects) {
  MakePair(false, false);
  a_.session->Start();
  b_.session->Start();
  ASSERT_TRUE(RunUntil([&] { return BothEstablished(); }));
  RunFor(300ms);  // let any collision settle
  ASSERT_TRUE(BothEstablished());

  a_.session->Stop(CeaseSubcode::kAdministrativeShutdown, "planned maintenance");
  ASSERT_TRUE(RunUntil([&] { return b_.consumer.downs.size() == 1; }));
  const auto& received = b_.session->fsm().counters().last_notification_received;
  ASSERT_TRUE(received);
  EXPECT_EQ(ShutdownCommunication(*received), "planned maintenance");
  EXPECT_EQ(a_.session->state(), SessionState::kIdle);
  RunFor(500ms);  // B retries, A refuses while stopped
  EXPECT_NE(b_.session->state(), SessionState::kEstablished);

  a_.session->Start();
  ASSERT_TRUE(RunUntil([&] { return BothEstablished(); }));
  EXPECT_EQ(b_.session->fsm().counters().flaps, 1u);
  EXPECT_EQ(b_.session->fsm().counters().established_count, 2u);
  EXPECT_EQ(b_.consumer.established.size(), 2u);
}

TEST_P(PeerSessionTest, CollisionWithBothSidesActiveLeavesOneSession) {
  MakePair(false, false);
  a_.session->Start();
  b_.session->Start();
  ASSERT_TRUE(RunUntil([&] { return BothEstablished(); }));
  RunFor(1500ms);
  EXPECT_TRUE(BothEstablished());
  EXPECT_EQ(a_.session->fsm().connection_count(), 1u);
  EXPECT_EQ(b_.session->fsm().connection_count(), 1u);
  EXPECT_EQ(a_.session->fsm().counters().flaps + b_.session->fsm().counters().flaps, 0u);
  EXPECT_GE(a_.session->fsm().counters().collisions_resolved +
                b_.session->fsm().counters().collisions_resolved,
            1u);
}

TEST_P(PeerSessionTest, SlowPeerWriteQueueReportsBlockedThenWritable) {
  MakePair(false, true);
  PeerConfig ca = a_.session->config();
  ca.write_high_water = 1;
  ca.write_low_water = 0;
  a_.listener->RemovePeer(Loopback());
  a_.session.reset();
  Attach(a_, ca);
  a_.session->Start();
  b_.session->Start();
  ASSERT_TRUE(RunUntil([&] { return BothEstablished(); }));
  ASSERT_TRUE(a_.session->SendEndOfRib(kIpv4Unicast).ok());
  EXPECT_EQ(a_.consumer.blocked, 1);
  EXPECT_FALSE(a_.session->writable());
  ASSERT_TRUE(RunUntil([&] { return a_.consumer.writable == 1; }));
  EXPECT_TRUE(a_.session->writable());
  EXPECT_EQ(a_.session->write_queue_bytes(), 0u);
}

// Issue 6: a peer sending a whole table cannot starve another session. Each read takes at most
// 64 KB and is handled in its own event-loop turn, so a second session's UPDATE gets through
// while the table is still arriving, and both sessions stay up (keepalives, hold timers).
TEST_P(PeerSessionTest, PeerSendingATableDoesNotStarveAnotherSession) {
  MakePair(false, true);
  Speaker c;
  Speaker d;
  Listen(c);
  Listen(d);
  PeerConfig cc = Config(65003, 65004, "10.0.0.3", d.port());
  PeerConfig cd = Config(65004, 65003, "10.0.0.4", c.port());
  cd.passive = true;
  Attach(c, cc);
  Attach(d, cd);
  for (Speaker* s : {&a_, &b_, &c, &d}) s->session->Start();
  auto all_up = [&] {
    return BothEstablished() && c.session->state() == SessionState::kEstablished &&
           d.session->state() == SessionState::kEstablished;
  };
  ASSERT_TRUE(RunUntil(all_up));

  // A's table: one UPDATE per prefix (about 2.5 MB), all queued at once.
  constexpr size_t kTable = 50000;
  for (size_t i = 0; i < kTable; ++i) {
    const std::vector<IpPrefix> p = {*IpPrefix::Parse("10." + std::to_string(i / 256 % 256) + "." +
                                                      std::to_string(i % 256) + ".0/24")};
    PathAttributes attrs = Attrs("192.0.2.1");
    attrs.med = static_cast<uint32_t>(i);  // one attribute set per UPDATE
    ASSERT_TRUE(a_.session->Announce(attrs, kIpv4Unicast, p).ok());
  }
  const std::vector<IpPrefix> v4 = {*IpPrefix::Parse("198.51.100.0/24")};
  ASSERT_TRUE(c.session->Announce(Attrs("192.0.2.3"), kIpv4Unicast, v4).ok());
  ASSERT_TRUE(RunUntil([&] { return d.consumer.updates.size() == 1; }));
  EXPECT_EQ(d.consumer.updates[0].Announcements(), v4);
  EXPECT_LT(b_.consumer.updates.size(), kTable / 2) << "C's UPDATE waited for A's table";
  ASSERT_TRUE(RunUntil([&] { return b_.consumer.updates.size() == kTable; }, 30000ms));
  EXPECT_TRUE(all_up());
}

TEST_P(PeerSessionTest, GarbageFromRawSocketGetsNotificationAndSessionSurvives) {
  Listen(a_);
  Listen(b_);
  PeerConfig ca = Config(65001, 65002, "10.0.0.1", b_.port());
  ca.passive = true;
  Attach(a_, ca);
  a_.session->Start();

  tcp::socket raw(io_);
  raw.connect(tcp::endpoint(ToAsio(Loopback()), a_.port()));
  std::vector<uint8_t> garbage(64);
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<uint8_t>(i * 37);
  boost::asio::write(raw, boost::asio::buffer(garbage));
  ASSERT_TRUE(RunUntil([&] {
    return a_.session->fsm().counters().out(MessageType::kNotification) == 1 &&
           a_.session->fsm().connection_count() == 0;
  }));
  RunFor(100ms);
  std::vector<uint8_t> got;
  boost::system::error_code ec;
  std::array<uint8_t, 4096> buf;
  while (!ec) {
    const size_t n = raw.read_some(boost::asio::buffer(buf), ec);
    got.insert(got.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
  }
  EXPECT_EQ(ec, boost::asio::error::eof);
  MessageFramer f;
  f.Append(got);
  std::span<const uint8_t> m;
  ASSERT_EQ(f.Next(kMaxMessageSize, m), MessageFramer::Result::kMessage);
  EXPECT_EQ(m[kHeaderSize - 1], static_cast<uint8_t>(MessageType::kOpen));
  ASSERT_EQ(f.Next(kMaxMessageSize, m), MessageFramer::Result::kMessage);
  EXPECT_EQ(m[kHeaderSize - 1], static_cast<uint8_t>(MessageType::kNotification));
  auto n = DecodeNotificationBody(m.subspan(kHeaderSize));
  ASSERT_TRUE(n);
  EXPECT_EQ(n->code, 1);
  EXPECT_EQ(n->subcode, 1);

  // The session recovers and accepts a real peer.
  Attach(b_, Config(65002, 65001, "10.0.0.2", a_.port()));
  b_.session->Start();
  ASSERT_TRUE(RunUntil([&] { return BothEstablished(); }));
}

TEST_P(PeerSessionTest, ListenerRejectsUnknownAddresses) {
  Listen(a_);
  tcp::socket raw(io_);
  raw.connect(tcp::endpoint(ToAsio(Loopback()), a_.port()));
  ASSERT_TRUE(RunUntil([&] { return a_.listener->rejected() == 1; }));
}

// RFC 2385: the listener holds the key for the peer's address, the connecting socket its own.
TEST_P(PeerSessionTest, Md5MatchingKeysEstablishBothWays) {
  MakePair(false, false,
           [](PeerConfig& a, PeerConfig& b) { a.md5_password = b.md5_password = "s3cret-key"; });
  a_.session->Start();
  b_.session->Start();
  ASSERT_TRUE(RunUntil([&] { return BothEstablished(); }));
  const std::vector<IpPrefix> v4 = {*IpPrefix::Parse("198.51.100.0/24")};
  ASSERT_TRUE(a_.session->Announce(Attrs("192.0.2.1"), kIpv4Unicast, v4).ok());
  ASSERT_TRUE(RunUntil([&] { return b_.consumer.updates.size() == 1; }));
  EXPECT_EQ(b_.consumer.updates[0].Announcements(), v4);
}

TEST_P(PeerSessionTest, Md5MismatchedKeysNeverEstablish) {
  MakePair(false, false, [](PeerConfig& a, PeerConfig& b) {
    a.md5_password = "alpha";
    b.md5_password = "beta";
  });
  a_.session->Start();
  b_.session->Start();
  RunFor(2500ms);  // several connect retries each way
  EXPECT_TRUE(a_.consumer.established.empty());
  EXPECT_TRUE(b_.consumer.established.empty());
  // No segment got through: neither side ever saw an OPEN.
  EXPECT_EQ(a_.session->fsm().counters().in(MessageType::kOpen), 0u);
  EXPECT_EQ(b_.session->fsm().counters().in(MessageType::kOpen), 0u);
}

TEST_P(PeerSessionTest, Md5KeyOnOneSideOnlyNeverEstablishes) {
  MakePair(false, false, [](PeerConfig& a, PeerConfig&) { a.md5_password = "alpha"; });
  a_.session->Start();
  b_.session->Start();
  RunFor(2500ms);
  EXPECT_TRUE(a_.consumer.established.empty());
  EXPECT_TRUE(b_.consumer.established.empty());
  EXPECT_EQ(a_.session->fsm().counters().in(MessageType::kOpen), 0u);
  EXPECT_EQ(b_.session->fsm().counters().in(MessageType::kOpen), 0u);
}

TEST_P(PeerSessionTest, ListenerKeyIsReplacedAndRemoved) {
  // A's listener first knows the peer with a wrong key, then with the right one.
  MakePair(true, false, [](PeerConfig& a, PeerConfig& b) {
    a.md5_password = "wrong";
    b.md5_password = "right";
  });
  a_.session->Start();
  b_.session->Start();
  RunFor(1000ms);
  EXPECT_TRUE(a_.consumer.established.empty());
  PeerConfig ca = a_.session->config();
  ca.md5_password = "right";
  a_.session.reset();
  Attach(a_, ca);  // AddPeer replaces the key
  a_.session->Start();
  ASSERT_TRUE(RunUntil([&] { return BothEstablished(); }));
  // Without a key the listener takes unsigned connections again.
  a_.listener->RemovePeer(Loopback());
  b_.listener->RemovePeer(Loopback());
  a_.session.reset();
  b_.session.reset();
  ca.md5_password.clear();
  PeerConfig cb = Config(65002, 65001, "10.0.0.2", a_.port());
  Attach(a_, ca);
  Attach(b_, cb);
  a_.session->Start();
  b_.session->Start();
  ASSERT_TRUE(RunUntil([&] { return BothEstablished(); }));
}

// RFC 5082: both sides send with TTL 255 and require at least 255 (one hop).
TEST_P(PeerSessionTest, TtlSecurityOnBothSidesEstablishes) {
  MakePair(false, false, [](PeerConfig& a, PeerConfig& b) {
    a.ttl_security_hops = 1;
    b.ttl_security_hops = 1;
  });
  EXPECT_EQ(a_.session->config().ttl(), 255);
  EXPECT_EQ(a_.session->config().min_ttl(), 255);
  a_.session->Start();
  b_.session->Start();
  ASSERT_TRUE(RunUntil([&] { return BothEstablished(); }));
}

// A single-hop eBGP peer sends with TTL 1 (not decremented on loopback): A drops its segments.
TEST_P(PeerSessionTest, TtlSecurityDropsPacketsWithLowTtl) {
  MakePair(false, false, [](PeerConfig& a, PeerConfig&) { a.ttl_security_hops = 1; });
  EXPECT_EQ(b_.session->config().ttl(), 1);
  a_.session->Start();
  b_.session->Start();
  RunFor(2500ms);
  EXPECT_TRUE(a_.consumer.established.empty());
  EXPECT_TRUE(b_.consumer.established.empty());
  EXPECT_EQ(a_.session->fsm().counters().in(MessageType::kOpen), 0u);
}

// TTL 255 without GTSM on B passes A's check; GTSM with 2 hops accepts TTL 254 and above.
TEST_P(PeerSessionTest, TtlSecurityAcceptsTtl255FromAPlainPeer) {
  MakePair(true, false, [](PeerConfig& a, PeerConfig& b) {
    a.ttl_security_hops = 2;
    b.multihop_ttl = 255;
  });
  EXPECT_EQ(a_.session->config().min_ttl(), 254);
  a_.session->Start();
  b_.session->Start();
  ASSERT_TRUE(RunUntil([&] { return BothEstablished(); }));
}

INSTANTIATE_TEST_SUITE_P(Loopback, PeerSessionTest, ::testing::Values("127.0.0.1", "::1"),
                         [](const auto& info) {
                           return std::string(info.index == 0 ? "Ipv4" : "Ipv6");
                         });

}  // namespace
}  // namespace strata::bgp::test_util
