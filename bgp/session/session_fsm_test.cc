// SessionFsm: start/stop, connection events, timers and backoff, on a fake clock.
#include "bgp/session/session_fsm.h"

#include "testing/bgp/session_fsm_test_util.h"

namespace strata::bgp::test_util {
namespace {

TEST_F(SessionFsmTest, StartsIdleAndConnectsOnStart) {
  Make();
  EXPECT_EQ(fsm->state(), SessionState::kIdle);
  EXPECT_EQ(env.connects, 0);
  fsm->Start();
  EXPECT_EQ(fsm->state(), SessionState::kConnect);
  EXPECT_EQ(env.connects, 1);
  EXPECT_EQ(env.Running("connect-retry"), 5000ms);
}

TEST_F(SessionFsmTest, PassivePeerWaitsInActive) {
  PeerConfig c = TestConfig();
  c.passive = true;
  Make(c);
  fsm->Start();
  EXPECT_EQ(fsm->state(), SessionState::kActive);
  env.Advance(60s);
  EXPECT_EQ(env.connects, 0);
  fsm->OnTcpConnected(7, false);
  EXPECT_EQ(fsm->state(), SessionState::kOpenSent);
  EXPECT_EQ(env.SentTypes(7), std::vector<MessageType>{MessageType::kOpen});
}

TEST_F(SessionFsmTest, ConnectRetryAbortsAndRetries) {
  Make();
  fsm->Start();
  env.Advance(5s);
  EXPECT_EQ(env.aborts, 1);
  EXPECT_EQ(env.connects, 2);
  EXPECT_EQ(fsm->state(), SessionState::kConnect);
  EXPECT_EQ(fsm->counters().connect_attempts, 2u);
}

TEST_F(SessionFsmTest, ConnectFailureGoesActiveThenRetries) {
  Make();
  fsm->Start();
  fsm->OnConnectFailed("refused");
  EXPECT_EQ(fsm->state(), SessionState::kActive);
  env.Advance(4900ms);
  EXPECT_EQ(env.connects, 1);
  env.Advance(100ms);
  EXPECT_EQ(env.connects, 2);
  EXPECT_EQ(fsm->state(), SessionState::kConnect);
}

TEST_F(SessionFsmTest, RefusesConnectionsWhenNotStarted) {
  Make();
  fsm->OnTcpConnected(3, false);
  EXPECT_TRUE(env.IsClosed(3));
  EXPECT_EQ(fsm->state(), SessionState::kIdle);
  EXPECT_TRUE(env.sent.empty());
}

TEST_F(SessionFsmTest, StaleOutgoingConnectionIsClosed) {
  Make();
  fsm->OnTcpConnected(4, true);  // no Connect() outstanding
  EXPECT_TRUE(env.IsClosed(4));
  EXPECT_EQ(fsm->connection_count(), 0u);
}

TEST_F(SessionFsmTest, TcpUpSendsOpenWithLargeHoldTimer) {
  Make();
  fsm->Start();
  fsm->OnTcpConnected(1, true);
  EXPECT_EQ(fsm->state(), SessionState::kOpenSent);
  EXPECT_EQ(env.SentTypes(1), std::vector<MessageType>{MessageType::kOpen});
  EXPECT_EQ(env.Running("hold"), 240000ms);
  EXPECT_FALSE(env.Running("connect-retry"));
}

TEST_F(SessionFsmTest, OpenThenKeepaliveEstablishes) {
  Make();
  fsm->Start();
  fsm->OnTcpConnected(1, true);
  Feed(1, PeerOpen(65002, 30));
  EXPECT_EQ(fsm->state(), SessionState::kOpenConfirm);
  EXPECT_EQ(env.SentTypes(1).back(), MessageType::kKeepalive);
  EXPECT_EQ(env.Running("hold"), 30000ms);
  EXPECT_EQ(env.Running("keepalive"), 10000ms);
  Feed(1, EncodeKeepalive());
  EXPECT_EQ(fsm->state(), SessionState::kEstablished);
  ASSERT_EQ(consumer.established.size(), 1u);
  EXPECT_EQ(consumer.established[0].hold_time, 30);
  EXPECT_EQ(consumer.established[0].families.size(), 2u);
  EXPECT_TRUE(consumer.established[0].enhanced_route_refresh);
  EXPECT_EQ(fsm->remote_open()->PeerAs(), 65002u);
  EXPECT_EQ(fsm->counters().established_count, 1u);
  EXPECT_EQ(fsm->counters().in(MessageType::kOpen), 1u);
  EXPECT_EQ(fsm->counters().out(MessageType::kKeepalive), 1u);
}

TEST_F(SessionFsmTest, KeepalivesAreSentOnTimerAndHoldRestartsOnReceipt) {
  Establish();
  const size_t before = env.SentTypes(1).size();
  env.Advance(30s);  // hold 90, keepalive 30
  EXPECT_EQ(env.SentTypes(1).size(), before + 1);
  EXPECT_EQ(env.SentTypes(1).back(), MessageType::kKeepalive);
  env.Advance(50s);
  Feed(1, EncodeKeepalive());
  env.Advance(80s);  // 130 s after the last but one message, 80 s after the last
  EXPECT_EQ(fsm->state(), SessionState::kEstablished);
}

TEST_F(SessionFsmTest, HoldTimerExpiryInEstablishedSendsNotification) {
  Establish();
  env.Advance(90s);
  EXPECT_EQ(LastNotification(1), N(4, 0));
  EXPECT_TRUE(env.IsClosed(1));
  EXPECT_EQ(fsm->state(), SessionState::kIdle);
  EXPECT_EQ(consumer.downs.size(), 1u);
  EXPECT_EQ(fsm->counters().flaps, 1u);
  EXPECT_EQ(*fsm->counters().last_notification_sent, N(4, 0));
}

TEST_F(SessionFsmTest, HoldTimerExpiryInOpenSent) {
  Make();
  fsm->Start();
  fsm->OnTcpConnected(1, true);
  env.Advance(240s);
  EXPECT_EQ(LastNotification(1), N(4, 0));
  EXPECT_EQ(fsm->state(), SessionState::kIdle);
  EXPECT_TRUE(consumer.downs.empty());
}

TEST_F(SessionFsmTest, HoldTimeZeroDisablesTimers) {
  Establish(1, PeerOpen(65002, 0));
  EXPECT_FALSE(env.Running("hold"));
  EXPECT_FALSE(env.Running("keepalive"));
  env.Advance(1000s);
  EXPECT_EQ(fsm->state(), SessionState::kEstablished);
}

TEST_F(SessionFsmTest, NotificationInEstablishedGoesIdleWithIdleHold) {
  Establish();
  Feed(1, EncodeNotification(N(6, 4)));
  EXPECT_EQ(fsm->state(), SessionState::kIdle);
  EXPECT_TRUE(env.IsClosed(1));
  EXPECT_EQ(*fsm->counters().last_notification_received, N(6, 4));
  EXPECT_EQ(consumer.downs.size(), 1u);
  EXPECT_EQ(env.Running("idle-hold"), 1000ms);
  const int connects = env.connects;
  env.Advance(1s);
  EXPECT_EQ(env.connects, connects + 1);
  EXPECT_EQ(fsm->state(), SessionState::kConnect);
}

TEST_F(SessionFsmTest, TcpLossBeforeEstablishedGoesActive) {
  Make();
  fsm->Start();
  fsm->OnTcpConnected(1, true);
  fsm->OnTcpClosed(1, "reset");
  EXPECT_EQ(fsm->state(), SessionState::kActive);
  EXPECT_EQ(env.Running("connect-retry"), 5000ms);
  EXPECT_FALSE(env.Running("idle-hold"));
}

TEST_F(SessionFsmTest, TcpLossInEstablishedGoesIdle) {
  Establish();
  fsm->OnTcpClosed(1, "reset");
  EXPECT_EQ(fsm->state(), SessionState::kIdle);
  EXPECT_TRUE(env.Running("idle-hold"));
  EXPECT_EQ(consumer.downs.size(), 1u);
}

TEST_F(SessionFsmTest, IdleHoldBacksOffExponentiallyAndCaps) {
  PeerConfig c = TestConfig();
  c.idle_hold = 1000ms;
  c.idle_hold_max = 8000ms;
  Make(c);
  fsm->Start();
  std::vector<std::chrono::milliseconds> holds;
  for (ConnId id = 1; id <= 6; ++id) {
    fsm->OnTcpConnected(id, true);
    Feed(id, PeerOpen(65099));  // wrong AS: an OPEN error each time
    ASSERT_EQ(LastNotification(id), N(2, 2));
    holds.push_back(*env.Running("idle-hold"));
    env.Advance(holds.back());
  }
  EXPECT_EQ(holds, (std::vector<std::chrono::milliseconds>{1000ms, 2000ms, 4000ms, 8000ms, 8000ms,
                                                           8000ms}));
  fsm->Stop();
  fsm->Start();
  EXPECT_EQ(fsm->next_idle_hold(), 1000ms);
}

TEST_F(SessionFsmTest, StableSessionResetsBackoff) {
  PeerConfig c = TestConfig();
  c.stable_time = 100s;
  c.hold_time = 0;
  Make(c);
  fsm->Start();
  fsm->OnTcpConnected(1, true);
  Feed(1, PeerOpen(65099));
  env.Advance(1s);
  EXPECT_EQ(fsm->next_idle_hold(), 2000ms);
  fsm->OnTcpConnected(2, true);
  Feed(2, PeerOpen());
  Feed(2, EncodeKeepalive());
  ASSERT_EQ(fsm->state(), SessionState::kEstablished);
  env.Advance(101s);
  Feed(2, EncodeNotification(N(6, 4)));
  EXPECT_EQ(env.Running("idle-hold"), 1000ms);
}

TEST_F(SessionFsmTest, StopSendsShutdownCommunicationAndStaysIdle) {
  Establish();
  fsm->Stop(CeaseSubcode::kAdministrativeShutdown, "maintenance");
  const auto n = LastNotification(1);
  EXPECT_EQ(n.code, 6);
  EXPECT_EQ(n.subcode, 2);
  EXPECT_EQ(ShutdownCommunication(n), "maintenance");
  EXPECT_EQ(fsm->state(), SessionState::kIdle);
  EXPECT_EQ(consumer.downs.size(), 1u);
  const int connects = env.connects;
  env.Advance(600s);
  EXPECT_EQ(env.connects, connects);
  EXPECT_EQ(fsm->state(), SessionState::kIdle);
}

TEST_F(SessionFsmTest, StopWhileConnectingAbortsAttempt) {
  Make();
  fsm->Start();
  fsm->Stop();
  EXPECT_EQ(env.aborts, 1);
  EXPECT_EQ(fsm->state(), SessionState::kIdle);
  EXPECT_FALSE(env.Running("connect-retry"));
}

TEST_F(SessionFsmTest, DelayOpenWaitsForPeerOpen) {
  PeerConfig c = TestConfig();
  c.delay_open = 2000ms;
  Make(c);
  fsm->Start();
  fsm->OnTcpConnected(1, true);
  EXPECT_TRUE(env.SentTypes(1).empty());
  EXPECT_EQ(fsm->state(), SessionState::kConnect);
  Feed(1, PeerOpen());
  EXPECT_EQ(env.SentTypes(1),
            (std::vector<MessageType>{MessageType::kOpen, MessageType::kKeepalive}));
  EXPECT_EQ(fsm->state(), SessionState::kOpenConfirm);
}

TEST_F(SessionFsmTest, DelayOpenExpirySendsOpen) {
  PeerConfig c = TestConfig();
  c.delay_open = 2000ms;
  Make(c);
  fsm->Start();
  fsm->OnTcpConnected(1, false);
  EXPECT_EQ(fsm->state(), SessionState::kActive);
  env.Advance(2s);
  EXPECT_EQ(env.SentTypes(1), std::vector<MessageType>{MessageType::kOpen});
  EXPECT_EQ(fsm->state(), SessionState::kOpenSent);
}

}  // namespace
}  // namespace strata::bgp::test_util
