// Tests of the Long-Lived Graceful Restart capability (RFC 9494 3.1): encoding, decoding,
// malformed values and negotiation.
#include <gtest/gtest.h>

#include "bgp/wire/capabilities.h"
#include "bgp/wire/codec_options.h"
#include "bgp/wire/open_message.h"
#include "testing/bgp/wire_test_util.h"

namespace strata::bgp {
namespace {

using test_util::Hex;

std::vector<uint8_t> Encode(const Capabilities& caps) {
  ByteWriter w;
  EncodeCapabilities(caps, w);
  return std::vector<uint8_t>(w.bytes().begin(), w.bytes().end());
}

TEST(LlgrCapabilityTest, EncodesFamilyFlagsAndTwentyFourBitStaleTime) {
  Capabilities caps;
  caps.long_lived_graceful_restart = LongLivedGracefulRestartCapability{
      {{kIpv4Unicast, true, 3600}, {kIpv6Unicast, false, 0x123456}}};
  EXPECT_EQ(Encode(caps), Hex("47 0e 0001 01 80 000e10  0002 01 00 123456"));
}

TEST(LlgrCapabilityTest, StaleTimeIsClampedToTwentyFourBits) {
  Capabilities caps;
  caps.long_lived_graceful_restart =
      LongLivedGracefulRestartCapability{{{kIpv4Unicast, false, 0x1000000}}};
  EXPECT_EQ(Encode(caps), Hex("47 07 0001 01 00 ffffff"));
}

TEST(LlgrCapabilityTest, RoundTrips) {
  Capabilities caps;
  caps.graceful_restart = GracefulRestartCapability{false, false, 0, {}};
  caps.long_lived_graceful_restart =
      LongLivedGracefulRestartCapability{{{kIpv4Unicast, true, 86400}, {kIpv6Unicast, false, 7}}};
  Capabilities back;
  ASSERT_TRUE(DecodeCapabilities(Encode(caps), back).ok());
  EXPECT_EQ(back, caps);
  EXPECT_EQ(back.ToString(), "gr(0s) llgr");
}

TEST(LlgrCapabilityTest, DecodesKnownBytes) {
  // As BIRD sends it: IPv4 unicast, F bit clear, stale time 100 s.
  Capabilities caps;
  ASSERT_TRUE(DecodeCapabilities(Hex("47 07 0001 01 00 000064"), caps).ok());
  ASSERT_TRUE(caps.long_lived_graceful_restart.has_value());
  ASSERT_EQ(caps.long_lived_graceful_restart->families.size(), 1u);
  const auto& f = caps.long_lived_graceful_restart->families[0];
  EXPECT_EQ(f.afi_safi, kIpv4Unicast);
  EXPECT_FALSE(f.forwarding_preserved);
  EXPECT_EQ(f.stale_time, 100u);
  EXPECT_TRUE(caps.unknown.empty());
}

TEST(LlgrCapabilityTest, EmptyCapabilityHasNoFamilies) {
  Capabilities caps;
  ASSERT_TRUE(DecodeCapabilities(Hex("47 00"), caps).ok());
  ASSERT_TRUE(caps.long_lived_graceful_restart.has_value());
  EXPECT_TRUE(caps.long_lived_graceful_restart->families.empty());
}

TEST(LlgrCapabilityTest, LengthNotAMultipleOfSevenIsAnOpenError) {
  for (const char* bytes : {"47 06 0001 01 00 0000", "47 08 0001 01 00 000064 00", "47 01 00"}) {
    Capabilities caps;
    auto r = DecodeCapabilities(Hex(bytes), caps);
    ASSERT_FALSE(r.ok()) << bytes;
    EXPECT_EQ(r.error().code, static_cast<uint8_t>(ErrorCode::kOpenMessage)) << bytes;
    EXPECT_EQ(r.error().subcode, static_cast<uint8_t>(OpenError::kUnspecific)) << bytes;
  }
}

Capabilities WithLlgr(bool gr, uint32_t stale_time) {
  Capabilities c;
  c.multiprotocol = {kIpv4Unicast};
  if (gr) c.graceful_restart = GracefulRestartCapability{false, false, 0, {}};
  c.long_lived_graceful_restart = LongLivedGracefulRestartCapability{
      {{kIpv4Unicast, true, stale_time}, {kIpv6Unicast, true, 9}}};
  return c;
}

TEST(LlgrNegotiateTest, BothSidesNegotiateTheCommonFamiliesWithThePeersStaleTime) {
  const auto s = Negotiate(WithLlgr(true, 10), 90, WithLlgr(true, 500), 90, PeerType::kExternal);
  EXPECT_TRUE(s.long_lived_graceful_restart);
  // IPv6 unicast is not a negotiated family of the session.
  ASSERT_EQ(s.peer_llgr_families.size(), 1u);
  EXPECT_EQ(s.peer_llgr_families[0].afi_safi, kIpv4Unicast);
  EXPECT_EQ(s.peer_llgr_families[0].stale_time, 500u);
  EXPECT_TRUE(s.peer_llgr_families[0].forwarding_preserved);
}

TEST(LlgrNegotiateTest, LlgrWithoutTheGracefulRestartCapabilityIsDisregarded) {
  const auto s = Negotiate(WithLlgr(true, 10), 90, WithLlgr(false, 500), 90, PeerType::kExternal);
  EXPECT_FALSE(s.long_lived_graceful_restart);
  EXPECT_TRUE(s.peer_llgr_families.empty());
}

TEST(LlgrNegotiateTest, OnlyOneSideIsNotNegotiated) {
  Capabilities plain;
  plain.graceful_restart = GracefulRestartCapability{false, false, 120, {}};
  EXPECT_FALSE(Negotiate(plain, 90, WithLlgr(true, 500), 90, PeerType::kExternal)
                   .long_lived_graceful_restart);
  EXPECT_FALSE(Negotiate(WithLlgr(true, 500), 90, plain, 90, PeerType::kExternal)
                   .long_lived_graceful_restart);
}

}  // namespace
}  // namespace strata::bgp
