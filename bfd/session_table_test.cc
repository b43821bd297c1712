// SessionTable: clients share a session with the fastest intervals any asked for; the last
// client's departure sends AdminDown and removes the session after a while; received packets
// reach the session by discriminator or by addresses, and the rest are counted and dropped.
#include "bfd/session_table.h"

#include <gtest/gtest.h>

#include "testing/common/fake_clock.h"
#include "testing/common/value_literals.h"

namespace strata::bfd {
namespace {

using namespace std::chrono_literals;
using test_util::A;

SessionParams Fast(std::chrono::microseconds tx, uint8_t mult = 3) {
  SessionParams p;
  p.desired_min_tx = p.required_min_rx = tx;
  p.detect_mult = mult;
  return p;
}

class SessionTableTest : public ::testing::Test {
 protected:
  SessionTableTest()
      : table_(clock_,
               {.transmit =
                    [this](const SessionKey& k, std::vector<uint8_t> bytes) {
                      sent_.push_back({k, std::move(bytes)});
                    },
                .state_changed =
                    [this](const SessionKey& k, const BfdSession& s, SessionState, Diag) {
                      changes_.push_back({k, s.state()});
                    }},
               7) {}

  // A packet from the peer of `key` as it would send it.
  std::vector<uint8_t> FromPeer(SessionState state, uint32_t my, uint32_t your) {
    ControlPacket p;
    p.state = state;
    p.my_discriminator = my;
    p.your_discriminator = your;
    p.desired_min_tx_us = p.required_min_rx_us = 50000;
    return Encode(p);
  }
  void Deliver(const SessionKey& key, const std::vector<uint8_t>& bytes, uint8_t ttl = 255) {
    table_.Receive({.vr = key.vr,
                    .source = key.peer,
                    .destination = A("10.0.0.1"),
                    .interface = "eth0",
                    .ttl = ttl,
                    .multihop = key.multihop,
                    .bytes = bytes});
  }

  FakeClock clock_;
  std::vector<std::pair<SessionKey, std::vector<uint8_t>>> sent_;
  std::vector<std::pair<SessionKey, SessionState>> changes_;
  SessionTable table_;
};

TEST_F(SessionTableTest, ClientsShareOneSessionWithTheFastestIntervals) {
  const SessionKey k{.peer = A("10.0.0.2")};
  const BfdSession& s = table_.Add(k, "bgp.red", Fast(300ms, 3));
  table_.Add(k, "rib.red", Fast(100ms, 5));
  EXPECT_EQ(table_.entries().size(), 1u);
  EXPECT_EQ(s.params().desired_min_tx, 100ms);
  EXPECT_EQ(s.params().detect_mult, 3);
  EXPECT_TRUE(table_.Remove(k, "rib.red"));
  EXPECT_EQ(s.params().desired_min_tx, 300ms);
  EXPECT_FALSE(table_.Remove(k, "rib.red"));
}

TEST_F(SessionTableTest, LastClientLeavingSendsAdminDownThenRemoves) {
  const SessionKey k{.peer = A("10.0.0.2")};
  table_.Add(k, "bgp", Fast(50ms));
  EXPECT_EQ(table_.RemoveClient("bgp"), 1u);
  ASSERT_NE(table_.Find(k), nullptr);
  EXPECT_EQ(table_.Find(k)->session->state(), SessionState::kAdminDown);
  auto p = Decode(sent_.back().second);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->state, SessionState::kAdminDown);
  EXPECT_EQ(p->diag, Diag::kAdminDown);
  clock_.advance(3s);
  EXPECT_EQ(table_.Find(k), nullptr);
  EXPECT_TRUE(table_.entries().empty());
}

TEST_F(SessionTableTest, ClientComingBackKeepsALingeringSession) {
  const SessionKey k{.peer = A("10.0.0.2")};
  table_.Add(k, "bgp", Fast(50ms));
  table_.Remove(k, "bgp");
  table_.Add(k, "bgp", Fast(50ms));
  clock_.advance(5s);
  ASSERT_NE(table_.Find(k), nullptr);
  EXPECT_EQ(table_.Find(k)->session->state(), SessionState::kDown);
}

TEST_F(SessionTableTest, DemultiplexesByAddressThenByDiscriminator) {
  const SessionKey k{.peer = A("10.0.0.2")};
  const SessionKey other{.peer = A("10.0.0.3")};
  const BfdSession& s = table_.Add(k, "bgp", Fast(50ms));
  const BfdSession& o = table_.Add(other, "bgp", Fast(50ms));
  Deliver(k, FromPeer(SessionState::kDown, 99, 0));  // by address
  EXPECT_EQ(s.state(), SessionState::kInit);
  EXPECT_EQ(o.state(), SessionState::kDown);
  Deliver(k, FromPeer(SessionState::kUp, 99, s.local_discr()));  // by discriminator
  EXPECT_EQ(s.state(), SessionState::kUp);
  ASSERT_FALSE(changes_.empty());
  EXPECT_EQ(changes_.back().first, k);
  EXPECT_EQ(changes_.back().second, SessionState::kUp);
}

TEST_F(SessionTableTest, DropsWhatFitsNoSession) {
  const SessionKey k{.peer = A("10.0.0.2")};
  const BfdSession& s = table_.Add(k, "bgp", Fast(50ms));
  Deliver(k, FromPeer(SessionState::kDown, 99, 0), 254);  // not one hop away
  EXPECT_EQ(table_.drops().bad_ttl, 1u);
  Deliver(k, FromPeer(SessionState::kUp, 99, 12345));  // unknown discriminator
  EXPECT_EQ(table_.drops().no_session, 1u);
  const SessionKey stranger{.peer = A("10.9.9.9")};
  Deliver(stranger, FromPeer(SessionState::kUp, 99, s.local_discr()));  // ours, wrong source
  EXPECT_EQ(table_.drops().wrong_source, 1u);
  Deliver(stranger, FromPeer(SessionState::kDown, 99, 0));  // no session for the address
  EXPECT_EQ(table_.drops().no_session, 2u);
  Deliver(k, {1, 2, 3});
  EXPECT_EQ(table_.drops().malformed, 1u);
  EXPECT_EQ(s.state(), SessionState::kDown);
}

TEST_F(SessionTableTest, MultihopAcceptsAnyTtlAndIsItsOwnSession) {
  const SessionKey single{.peer = A("10.0.0.2")};
  const SessionKey multi{.peer = A("10.0.0.2"), .multihop = true};
  const BfdSession& s = table_.Add(single, "bgp", Fast(50ms));
  const BfdSession& m = table_.Add(multi, "bgp", Fast(50ms));
  EXPECT_NE(s.local_discr(), m.local_discr());
  Deliver(multi, FromPeer(SessionState::kDown, 99, 0), 250);
  EXPECT_EQ(m.state(), SessionState::kInit);
  EXPECT_EQ(s.state(), SessionState::kDown);
}

}  // namespace
}  // namespace strata::bfd
