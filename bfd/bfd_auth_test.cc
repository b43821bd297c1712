// BfdAuth: what one side signs the other verifies, for each type; a wrong key, type or key id
// fails; the keyed types keep a sequence window and the meticulous ones refuse a replay.
#include "bfd/bfd_auth.h"

#include <gtest/gtest.h>

namespace strata::bfd {
namespace {

ControlPacket Sample() {
  ControlPacket p;
  p.state = SessionState::kUp;
  p.my_discriminator = 1;
  p.your_discriminator = 2;
  p.desired_min_tx_us = p.required_min_rx_us = 300000;
  return p;
}

Status SignAndVerify(BfdAuth& tx, BfdAuth& rx) {
  const std::vector<uint8_t> bytes = tx.Sign(Sample());
  auto p = Decode(bytes);
  if (!p.ok()) return p.status();
  return rx.Verify(*p, bytes);
}

TEST(BfdAuthTest, EachTypeVerifiesWhatItSigns) {
  for (AuthType t :
       {AuthType::kNone, AuthType::kSimplePassword, AuthType::kKeyedMd5,
        AuthType::kMeticulousKeyedMd5, AuthType::kKeyedSha1, AuthType::kMeticulousKeyedSha1}) {
    const AuthConfig c{t, 3, "s3cret"};
    ASSERT_TRUE(CheckAuthConfig(c).ok());
    BfdAuth tx(c, 100);
    BfdAuth rx(c);
    for (int i = 0; i < 5; ++i) {
      EXPECT_TRUE(SignAndVerify(tx, rx).ok()) << AuthTypeName(t) << " packet " << i;
    }
  }
}

TEST(BfdAuthTest, WrongKeyTypeOrKeyIdFails) {
  for (AuthType t : {AuthType::kSimplePassword, AuthType::kKeyedMd5, AuthType::kKeyedSha1}) {
    BfdAuth tx({t, 3, "s3cret"});
    BfdAuth wrong_key({t, 3, "other"});
    BfdAuth wrong_id({t, 4, "s3cret"});
    BfdAuth none({});
    EXPECT_FALSE(SignAndVerify(tx, wrong_key).ok()) << AuthTypeName(t);
    EXPECT_FALSE(SignAndVerify(tx, wrong_id).ok()) << AuthTypeName(t);
    EXPECT_FALSE(SignAndVerify(tx, none).ok()) << AuthTypeName(t);
    EXPECT_FALSE(SignAndVerify(none, wrong_key).ok()) << AuthTypeName(t);
  }
  BfdAuth md5({AuthType::kKeyedMd5, 3, "s3cret"});
  BfdAuth sha1({AuthType::kKeyedSha1, 3, "s3cret"});
  EXPECT_FALSE(SignAndVerify(md5, sha1).ok());
}

TEST(BfdAuthTest, TamperedPacketFailsTheDigest) {
  BfdAuth tx({AuthType::kKeyedSha1, 1, "k"});
  BfdAuth rx({AuthType::kKeyedSha1, 1, "k"});
  std::vector<uint8_t> bytes = tx.Sign(Sample());
  bytes[19] ^= 1;  // Required Min RX
  auto p = Decode(bytes);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(rx.Verify(*p, bytes).message(), "wrong digest");
}

TEST(BfdAuthTest, KeyedSequenceWindowAndMeticulousReplay) {
  // Detect Mult 3: the window is 9 numbers wide.
  BfdAuth tx({AuthType::kKeyedSha1, 1, "k"}, 1000);
  BfdAuth rx({AuthType::kKeyedSha1, 1, "k"});
  const std::vector<uint8_t> first = tx.Sign(Sample());
  auto p = Decode(first);
  ASSERT_TRUE(rx.Verify(*p, first).ok());
  EXPECT_TRUE(rx.Verify(*p, first).ok()) << "keyed: the same number again is inside the window";
  for (int i = 0; i < 20; ++i) (void)tx.Sign(Sample());  // lost packets: 1001..1020
  const std::vector<uint8_t> late = tx.Sign(Sample());   // 1021: beyond 1000 + 9
  auto q = Decode(late);
  EXPECT_FALSE(rx.Verify(*q, late).ok());
  rx.ForgetSequence();  // a Detection Time without a valid packet
  EXPECT_TRUE(rx.Verify(*q, late).ok());

  BfdAuth mtx({AuthType::kMeticulousKeyedMd5, 1, "k"}, 7);
  BfdAuth mrx({AuthType::kMeticulousKeyedMd5, 1, "k"});
  const std::vector<uint8_t> m = mtx.Sign(Sample());
  auto mp = Decode(m);
  ASSERT_TRUE(mrx.Verify(*mp, m).ok());
  EXPECT_FALSE(mrx.Verify(*mp, m).ok()) << "meticulous: a replay is refused";
  const std::vector<uint8_t> m2 = mtx.Sign(Sample());
  EXPECT_TRUE(mrx.Verify(*Decode(m2), m2).ok());
}

TEST(BfdAuthTest, KeyLengthsAreChecked) {
  EXPECT_FALSE(CheckAuthConfig({AuthType::kSimplePassword, 1, ""}).ok());
  EXPECT_FALSE(CheckAuthConfig({AuthType::kKeyedMd5, 1, std::string(17, 'k')}).ok());
  EXPECT_TRUE(CheckAuthConfig({AuthType::kKeyedSha1, 1, std::string(20, 'k')}).ok());
  EXPECT_FALSE(CheckAuthConfig({AuthType::kKeyedSha1, 1, std::string(21, 'k')}).ok());
}

}  // namespace
}  // namespace strata::bfd
