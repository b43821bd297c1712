// BfdSession: two sessions wired back to back through a test link on a FakeClock. They come Up
// through the three-way handshake, send slowly until Up, fail within the Detection Time when the
// link is cut, follow AdminDown, run a Poll Sequence when the intervals change, and stop sending
// when the peer asks for no packets or is passive.
#include "bfd/bfd_session.h"

#include <gtest/gtest.h>

#include <deque>
#include <optional>

#include "testing/common/fake_clock.h"

namespace strata::bfd {
namespace {

using namespace std::chrono_literals;

struct Change {
  SessionState from;
  SessionState to;
  Diag diag;
  Clock::TimePoint at;
};

// Sessions a and b on one link; packets cross it when Pump() runs (after each clock step).
class Pair {
 public:
  explicit Pair(SessionParams pa = {}, SessionParams pb = {}) {
    a = Make(0, 0x1111, pa);
    b = Make(1, 0x2222, pb);
  }

  std::unique_ptr<BfdSession> Make(int side, uint32_t discr, const SessionParams& params) {
    BfdSession::Hooks h;
    h.transmit = [this, side](std::vector<uint8_t> bytes) {
      ++sent[side];
      last_sent[side] = *Decode(bytes);
      if (!cut) wire.push_back({side, std::move(bytes)});
    };
    h.state_changed = [this, side](SessionState from, SessionState to, Diag diag) {
      changes[side].push_back({from, to, diag, clock.now()});
    };
    return std::make_unique<BfdSession>(clock, discr, params, std::move(h), 42 + side);
  }

  void Pump() {
    while (!wire.empty()) {
      auto [from, bytes] = std::move(wire.front());
      wire.pop_front();
      BfdSession& to = from == 0 ? *b : *a;
      auto p = Decode(bytes);
      ASSERT_TRUE(p.ok());
      to.Receive(*p, bytes);
    }
  }
  // Moves time by `d` in 1 ms steps, delivering packets after each.
  void Run(std::chrono::milliseconds d) {
    for (auto t = 0ms; t < d; t += 1ms) {
      clock.advance(1ms);
      Pump();
    }
  }

  FakeClock clock;
  std::deque<std::pair<int, std::vector<uint8_t>>> wire;
  bool cut = false;
  int sent[2] = {0, 0};
  std::optional<ControlPacket> last_sent[2];
  std::vector<Change> changes[2];
  std::unique_ptr<BfdSession> a;
  std::unique_ptr<BfdSession> b;
};

SessionParams Fast(std::chrono::microseconds tx, uint8_t mult = 3) {
  SessionParams p;
  p.desired_min_tx = p.required_min_rx = tx;
  p.detect_mult = mult;
  return p;
}

TEST(BfdSessionTest, ThreeWayHandshakeBringsBothUp) {
  Pair s;
  s.Run(10ms);
  EXPECT_EQ(s.a->state(), SessionState::kUp);
  EXPECT_EQ(s.b->state(), SessionState::kUp);
  EXPECT_EQ(s.a->remote_discr(), 0x2222u);
  EXPECT_EQ(s.b->remote_discr(), 0x1111u);
  // Down -> Init -> Up on the side that heard Down first; Down -> Up on the other.
  ASSERT_FALSE(s.changes[0].empty());
  EXPECT_EQ(s.changes[0].back().to, SessionState::kUp);
  EXPECT_EQ(s.a->counters().up_transitions, 1u);
}

TEST(BfdSessionTest, SendsAtLeastOneSecondApartUntilUp) {
  // b is passive and silent until a speaks; a alone: no answer, so it stays Down.
  SessionParams quiet = Fast(50ms);
  Pair s(Fast(50ms), quiet);
  s.cut = true;
  s.Run(5000ms);
  EXPECT_EQ(s.a->state(), SessionState::kDown);
  // One packet at once, then one every 0.75 to 1 s: 5 to 7 in 5 s.
  EXPECT_GE(s.sent[0], 5);
  EXPECT_LE(s.sent[0], 7);
  EXPECT_EQ(s.last_sent[0]->desired_min_tx_us, 1000000u) << "slow while not Up (6.8.3)";
  EXPECT_EQ(s.last_sent[0]->required_min_rx_us, 50000u);
}

TEST(BfdSessionTest, UpRunsAPollSequenceToTheFastRate) {
  Pair s(Fast(50ms), Fast(50ms));
  s.Run(3000ms);
  ASSERT_EQ(s.a->state(), SessionState::kUp);
  EXPECT_FALSE(s.a->polling()) << "the peer's Final ended the Poll Sequence";
  EXPECT_EQ(s.a->tx_interval(), 50ms);
  EXPECT_EQ(s.last_sent[0]->desired_min_tx_us, 50000u);
  EXPECT_EQ(s.a->detection_time(), 150ms);
  // Fast rate: about 20 packets a second (37.5 to 50 ms apart).
  const int before = s.sent[0];
  s.Run(1000ms);
  EXPECT_GE(s.sent[0] - before, 20);
  EXPECT_LE(s.sent[0] - before, 28);
}

TEST(BfdSessionTest, CutLinkFailsWithinTheDetectionTime) {
  Pair s(Fast(50ms), Fast(50ms));
  s.Run(3000ms);
  ASSERT_EQ(s.a->state(), SessionState::kUp);
  const Clock::TimePoint cut_at = s.clock.now();
  s.cut = true;
  s.Run(400ms);
  for (int side : {0, 1}) {
    BfdSession& x = side == 0 ? *s.a : *s.b;
    EXPECT_EQ(x.state(), SessionState::kDown);
    EXPECT_EQ(x.local_diag(), Diag::kDetectionTimeExpired);
    const Change& c = s.changes[side].back();
    EXPECT_EQ(c.to, SessionState::kDown);
    EXPECT_EQ(c.diag, Diag::kDetectionTimeExpired);
    // 3 x 50 ms after the last packet, which left at most one interval before the cut.
    EXPECT_LE(c.at - cut_at, 150ms) << "side " << side;
    EXPECT_GT(c.at - cut_at, 100ms) << "side " << side;
    EXPECT_EQ(x.remote_discr(), 0u);
  }
  // The link back: Up again.
  s.cut = false;
  s.Run(4000ms);
  EXPECT_EQ(s.a->state(), SessionState::kUp);
  EXPECT_EQ(s.b->state(), SessionState::kUp);
  EXPECT_EQ(s.a->counters().up_transitions, 2u);
}

TEST(BfdSessionTest, AdminDownTakesThePeerDownWithoutAFailure) {
  Pair s(Fast(50ms), Fast(50ms));
  s.Run(3000ms);
  s.a->SetAdminDown(true);
  s.Run(10ms);
  EXPECT_EQ(s.a->state(), SessionState::kAdminDown);
  EXPECT_EQ(s.a->local_diag(), Diag::kAdminDown);
  EXPECT_EQ(s.b->state(), SessionState::kDown);
  EXPECT_EQ(s.b->local_diag(), Diag::kNeighborDown);
  EXPECT_EQ(s.b->remote_diag(), Diag::kAdminDown);
  // b does not come up against an AdminDown peer, and a does not time out.
  s.Run(3000ms);
  EXPECT_EQ(s.b->state(), SessionState::kDown);
  EXPECT_EQ(s.a->state(), SessionState::kAdminDown);
  s.a->SetAdminDown(false);
  s.Run(3000ms);
  EXPECT_EQ(s.a->state(), SessionState::kUp);
  EXPECT_EQ(s.b->state(), SessionState::kUp);
}

TEST(BfdSessionTest, SlowerTxWaitsForTheFinal) {
  Pair s(Fast(50ms), Fast(50ms));
  s.Run(3000ms);
  ASSERT_EQ(s.a->state(), SessionState::kUp);
  s.cut = true;  // the Final cannot come back yet
  s.a->SetParams(Fast(200ms));
  EXPECT_TRUE(s.a->polling());
  EXPECT_TRUE(s.last_sent[0]->poll);
  EXPECT_EQ(s.last_sent[0]->desired_min_tx_us, 200000u) << "advertised at once";
  EXPECT_EQ(s.a->tx_interval(), 50ms) << "used only after the Final";
  s.cut = false;
  s.Run(100ms);
  EXPECT_FALSE(s.a->polling());
  EXPECT_EQ(s.a->tx_interval(), 200ms);
  EXPECT_EQ(s.b->detection_time(), 600ms);
  s.Run(2000ms);
  EXPECT_EQ(s.a->state(), SessionState::kUp);
  EXPECT_EQ(s.b->state(), SessionState::kUp);
}

TEST(BfdSessionTest, PollIsAnsweredAtOnceWithFinal) {
  Pair s(Fast(50ms), Fast(50ms));
  s.Run(3000ms);
  const int before = s.sent[1];
  s.a->SetParams(Fast(40ms));
  s.Pump();  // a's Poll reaches b, which answers without waiting for its timer
  EXPECT_EQ(s.sent[1], before + 1);
  EXPECT_TRUE(s.last_sent[1]->final);
  EXPECT_FALSE(s.last_sent[1]->poll);
  s.Pump();
  EXPECT_FALSE(s.a->polling());
}

TEST(BfdSessionTest, PeerAskingForNoPacketsIsSentNone) {
  Pair s(Fast(50ms), Fast(50ms));
  s.cut = true;
  s.Run(10ms);
  // A peer in Down that wants no periodic packets (RequiredMinRx 0, RFC 5880 6.8.7).
  ControlPacket peer;
  peer.state = SessionState::kDown;
  peer.my_discriminator = 77;
  peer.desired_min_tx_us = 50000;
  peer.required_min_rx_us = 0;
  const std::vector<uint8_t> bytes = Encode(peer);
  s.a->Receive(peer, bytes);
  EXPECT_EQ(s.a->state(), SessionState::kInit);
  const int after_change = s.sent[0];
  s.clock.advance(100ms);  // within the Detection Time (150 ms)
  EXPECT_EQ(s.sent[0], after_change) << "no periodic packets";
  peer.required_min_rx_us = 50000;
  for (int i = 0; i < 24; ++i) {  // the peer keeps it alive for 1.2 s
    s.a->Receive(peer, Encode(peer));
    s.clock.advance(50ms);
  }
  EXPECT_EQ(s.a->state(), SessionState::kInit);
  EXPECT_GT(s.sent[0], after_change) << "packets again once the peer asks for them";
}

// FRR's bfdd asks for 1 s while Down and for its configured rate once Up: the fast packets must
// start at once, not after the slow interval already scheduled.
TEST(BfdSessionTest, PeerLoweringItsRequiredMinRxGetsTheFastRateAtOnce) {
  Pair s(Fast(50ms), Fast(50ms));
  s.cut = true;
  ControlPacket peer;
  peer.my_discriminator = 77;
  peer.desired_min_tx_us = 1000000;
  peer.required_min_rx_us = 1000000;
  peer.state = SessionState::kInit;
  peer.your_discriminator = s.a->local_discr();
  s.a->Receive(peer, Encode(peer));
  ASSERT_EQ(s.a->state(), SessionState::kUp);
  peer.state = SessionState::kUp;
  peer.desired_min_tx_us = peer.required_min_rx_us = 50000;
  peer.poll = true;
  s.a->Receive(peer, Encode(peer));
  const int before = s.sent[0];
  s.clock.advance(100ms);
  EXPECT_GE(s.sent[0] - before, 2) << "50 ms apart from the peer's Poll on";
}

TEST(BfdSessionTest, PassiveSessionWaitsForThePeer) {
  SessionParams passive = Fast(50ms);
  passive.passive = true;
  Pair s(passive, Fast(50ms));
  s.cut = true;
  s.Run(3000ms);
  EXPECT_EQ(s.sent[0], 0);
  s.cut = false;
  s.Run(3000ms);
  EXPECT_EQ(s.a->state(), SessionState::kUp);
}

TEST(BfdSessionTest, AuthenticatedPairComesUpAndAWrongKeyDoesNot) {
  SessionParams ka = Fast(50ms);
  ka.auth = {AuthType::kMeticulousKeyedSha1, 1, "secret"};
  SessionParams kb = ka;
  Pair good(ka, kb);
  good.Run(3000ms);
  EXPECT_EQ(good.a->state(), SessionState::kUp);
  kb.auth.secret = "other";
  Pair bad(ka, kb);
  bad.Run(3000ms);
  EXPECT_EQ(bad.a->state(), SessionState::kDown);
  EXPECT_GT(bad.a->counters().auth_failures, 0u);
}

TEST(BfdSessionTest, DetectMultOneJittersBetween75And90Percent) {
  Pair s(Fast(100ms, 1), Fast(100ms, 1));
  s.Run(3000ms);
  ASSERT_EQ(s.a->state(), SessionState::kUp);
  const int before = s.sent[0];
  s.Run(10000ms);
  // 75..90 ms apart: 111 to 133 packets in 10 s.
  EXPECT_GE(s.sent[0] - before, 110);
  EXPECT_LE(s.sent[0] - before, 134);
}

}  // namespace
}  // namespace strata::bfd
