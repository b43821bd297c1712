// ControlPacket: the RFC 5880 4.1 layout bit by bit, round trips with and without an
// authentication section, and each discard check of RFC 5880 6.8.6 that needs no session.
#include "bfd/control_packet.h"

#include <gtest/gtest.h>

namespace strata::bfd {
namespace {

// State Up, Poll, Detect Mult 3, discriminators 1 and 2, 300 ms / 300 ms / no echo.
const std::vector<uint8_t> kUpPoll = {
    0x20, 0xe0, 0x03, 0x18,  // version 1 diag 0, state Up + P, mult 3, length 24
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02,  // my, your
    0x00, 0x04, 0x93, 0xe0, 0x00, 0x04, 0x93, 0xe0,  // tx, rx: 300000 us
    0x00, 0x00, 0x00, 0x00};

TEST(ControlPacketTest, DecodesTheRfcLayout) {
  auto p = Decode(kUpPoll);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->state, SessionState::kUp);
  EXPECT_TRUE(p->poll);
  EXPECT_FALSE(p->final);
  EXPECT_EQ(p->detect_mult, 3);
  EXPECT_EQ(p->my_discriminator, 1u);
  EXPECT_EQ(p->your_discriminator, 2u);
  EXPECT_EQ(p->desired_min_tx_us, 300000u);
  EXPECT_EQ(p->required_min_rx_us, 300000u);
  EXPECT_EQ(Encode(*p), kUpPoll);
}

TEST(ControlPacketTest, RoundTripsEveryFieldAndAuthSection) {
  ControlPacket p;
  p.diag = Diag::kNeighborDown;
  p.state = SessionState::kInit;
  p.final = true;
  p.control_plane_independent = true;
  p.demand = true;
  p.detect_mult = 5;
  p.my_discriminator = 0xdeadbeef;
  p.your_discriminator = 7;
  p.desired_min_tx_us = 50000;
  p.required_min_rx_us = 1000000;
  p.required_min_echo_rx_us = 0;
  for (AuthType t : {AuthType::kSimplePassword, AuthType::kKeyedMd5, AuthType::kKeyedSha1,
                     AuthType::kMeticulousKeyedSha1}) {
    p.has_auth = true;
    p.auth.type = t;
    p.auth.key_id = 9;
    p.auth.sequence = t == AuthType::kSimplePassword ? 0 : 0x01020304;
    p.auth.value.assign(t == AuthType::kSimplePassword ? 6 : (t == AuthType::kKeyedMd5 ? 16 : 20),
                        0xab);
    const std::vector<uint8_t> bytes = Encode(p);
    EXPECT_EQ(bytes[3], bytes.size());
    auto q = Decode(bytes);
    ASSERT_TRUE(q.ok()) << AuthTypeName(t) << ": " << q.status().ToString();
    EXPECT_EQ(Encode(*q), bytes) << AuthTypeName(t);
    EXPECT_EQ(q->auth.key_id, 9);
    EXPECT_EQ(q->auth.sequence, p.auth.sequence);
    EXPECT_EQ(q->auth.value, p.auth.value);
    EXPECT_EQ(q->diag, Diag::kNeighborDown);
    EXPECT_TRUE(q->demand && q->final && q->control_plane_independent);
  }
}

TEST(ControlPacketTest, IgnoresBytesBeyondLength) {
  std::vector<uint8_t> b = kUpPoll;
  b.push_back(0xff);
  EXPECT_TRUE(Decode(b).ok());
}

// Each case: one byte changed in kUpPoll, and the check it must fail.
TEST(ControlPacketTest, DiscardsWhatRfc5880Section6_8_6Discards) {
  struct Case {
    size_t at;
    uint8_t value;
    const char* why;
  };
  const Case cases[] = {
      {0, 0x40, "version"},              // version 2
      {3, 23, "too small"},              // Length below 24
      {3, 25, "beyond"},                 // Length past the payload
      {2, 0, "Detect Mult"},             // multiplier 0
      {1, 0xc1, "Multipoint"},           // M bit
      {7, 0, "My Discriminator"},        // my discriminator 0
      {11, 0, "Your Discriminator"},     // your 0 in state Up
      {1, 0xc4, "Length 24 too small"},  // A bit, no section
  };
  for (const Case& c : cases) {
    std::vector<uint8_t> b = kUpPoll;
    b[c.at] = c.value;
    auto p = Decode(b);
    ASSERT_FALSE(p.ok()) << c.why;
    EXPECT_NE(p.status().message().find(c.why), std::string::npos)
        << c.why << ": " << p.status().ToString();
  }
  EXPECT_FALSE(Decode(std::span<const uint8_t>(kUpPoll).first(23)).ok());
}

TEST(ControlPacketTest, YourDiscriminatorZeroIsFineWhileDown) {
  std::vector<uint8_t> b = kUpPoll;
  b[1] = 0x40;  // Down
  b[11] = 0;
  EXPECT_TRUE(Decode(b).ok());
}

TEST(ControlPacketTest, RefusesAuthSectionsOfTheWrongSize) {
  ControlPacket p;
  p.my_discriminator = 1;
  p.has_auth = true;
  p.auth.type = AuthType::kKeyedSha1;
  p.auth.value.assign(16, 0);  // an MD5-sized digest under SHA1
  EXPECT_FALSE(Decode(Encode(p)).ok());
  p.auth.type = AuthType::kSimplePassword;
  p.auth.value.assign(17, 'x');  // passwords have at most 16 bytes
  EXPECT_FALSE(Decode(Encode(p)).ok());
  p.auth.type = static_cast<AuthType>(9);
  p.auth.value.assign(4, 0);
  EXPECT_FALSE(Decode(Encode(p)).ok());
}

}  // namespace
}  // namespace strata::bfd
