#include "bgp/session/open_negotiator.h"

#include <gtest/gtest.h>

#include "testing/bgp/session_fsm_test_util.h"

namespace strata::bgp::test_util {
namespace {

TEST(OpenNegotiatorTest, LocalOpenAdvertisesConfiguredCapabilities) {
  PeerConfig c = TestConfig();
  c.graceful_restart = GracefulRestartCapability{};
  c.graceful_restart->restart_time = 120;
  OpenNegotiator n(c);
  const OpenMessage& open = n.local_open();
  EXPECT_EQ(open.my_as, 65001);
  EXPECT_EQ(open.hold_time, 90);
  EXPECT_EQ(open.bgp_id, Addr("10.0.0.1"));
  EXPECT_EQ(open.caps.multiprotocol, (std::vector<AfiSafi>{kIpv4Unicast, kIpv6Unicast}));
  EXPECT_TRUE(open.caps.route_refresh);
  EXPECT_TRUE(open.caps.enhanced_route_refresh);
  EXPECT_TRUE(open.caps.extended_message);
  EXPECT_EQ(open.caps.four_octet_as, 65001u);
  ASSERT_TRUE(open.caps.graceful_restart);
  EXPECT_EQ(open.caps.graceful_restart->restart_time, 120);
}

TEST(OpenNegotiatorTest, FourOctetAsBothWays) {
  PeerConfig c = TestConfig();
  c.local_as = 4200000001;
  c.peer_as = 4200000002;
  OpenNegotiator n(c);
  EXPECT_EQ(n.local_open().my_as, kAsTrans);
  auto remote = OpenMessage::Make(4200000002, 90, Addr("10.0.0.2"), PeerCaps());
  EXPECT_EQ(remote.my_as, kAsTrans);
  auto s = n.Accept(remote);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->codec.four_octet_as);
  EXPECT_EQ(s->codec.peer_type, PeerType::kExternal);

  // A peer without the capability can only show AS_TRANS: not the AS we expect.
  OpenMessage old = remote;
  old.caps.four_octet_as.reset();
  EXPECT_EQ(n.Accept(old).error().subcode, static_cast<uint8_t>(OpenError::kBadPeerAs));
}

TEST(OpenNegotiatorTest, TwoOctetPeerNegotiatesTwoOctetCodec) {
  OpenNegotiator n(TestConfig());
  OpenMessage old = OpenMessage::Make(65002, 90, Addr("10.0.0.2"), PeerCaps());
  old.caps.four_octet_as.reset();
  auto s = n.Accept(old);
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->codec.four_octet_as);
}

TEST(OpenNegotiatorTest, APeerAtALoopbackAddressIsOnThisHost) {
  PeerConfig c = TestConfig();
  const auto open = OpenMessage::Make(65002, 90, Addr("10.0.0.2"), PeerCaps());
  EXPECT_FALSE(OpenNegotiator(c).Accept(open)->codec.peer_on_loopback);
  c.peer_address = Addr("127.0.0.2");
  EXPECT_TRUE(OpenNegotiator(c).Accept(open)->codec.peer_on_loopback);
  c.peer_address = Addr("::1");
  EXPECT_TRUE(OpenNegotiator(c).Accept(open)->codec.peer_on_loopback);
}

TEST(OpenNegotiatorTest, UnknownCapabilitiesAreIgnored) {
  Capabilities caps = PeerCaps();
  caps.unknown.push_back(RawCapability{73, {1, 2, 3}});
  auto s =
      OpenNegotiator(TestConfig()).Accept(OpenMessage::Make(65002, 90, Addr("10.0.0.2"), caps));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->families.size(), 2u);
}

TEST(OpenNegotiatorTest, MissingRequiredCapabilityListsOurs) {
  PeerConfig c = TestConfig();
  c.required_capabilities = {CapabilityCode::kMultiprotocol, CapabilityCode::kRouteRefresh};
  Capabilities caps;
  caps.multiprotocol = {kIpv4Unicast};  // no IPv6, no route refresh
  auto r = OpenNegotiator(c).Accept(OpenMessage::Make(65002, 90, Addr("10.0.0.2"), caps));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, 2);
  EXPECT_EQ(r.error().subcode, 7);
  // MP IPv4 unicast, MP IPv6 unicast, route refresh.
  EXPECT_EQ(r.error().data, (std::vector<uint8_t>{1, 4, 0, 1, 0, 1, 1, 4, 0, 2, 0, 1, 2, 0}));
}

TEST(OpenNegotiatorTest, NoCommonFamilyIsUnsupportedCapability) {
  PeerConfig c = TestConfig();
  c.families = {kIpv6Unicast};
  Capabilities caps;  // no MP: IPv4 unicast only
  auto r = OpenNegotiator(c).Accept(OpenMessage::Make(65002, 90, Addr("10.0.0.2"), caps));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().subcode, 7);
}

TEST(OpenNegotiatorTest, HoldTimeIsTheSmallerAndKeepaliveAThird) {
  PeerConfig c = TestConfig();
  c.keepalive_time = 5;
  OpenNegotiator n(c);
  auto s = n.Accept(OpenMessage::Make(65002, 9, Addr("10.0.0.2"), PeerCaps()));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->hold_time, 9);
  EXPECT_EQ(n.KeepaliveInterval(9), std::chrono::seconds(3));
  EXPECT_EQ(n.KeepaliveInterval(90), std::chrono::seconds(5));
  EXPECT_EQ(n.KeepaliveInterval(0), std::chrono::seconds(0));
}

TEST(PeerConfigTest, ValidateRejectsBadValues) {
  EXPECT_TRUE(TestConfig().Validate().ok());
  PeerConfig c = TestConfig();
  c.hold_time = 2;
  EXPECT_FALSE(c.Validate().ok());
  c = TestConfig();
  c.router_id = Addr("::1");
  EXPECT_FALSE(c.Validate().ok());
  c = TestConfig();
  c.families = {AfiSafi{1, 128}};
  EXPECT_FALSE(c.Validate().ok());
  c = TestConfig();
  c.local_address = Addr("::1");
  EXPECT_FALSE(c.Validate().ok());
  c = TestConfig();
  c.peer_as = 0;
  EXPECT_FALSE(c.Validate().ok());
}

TEST(PeerConfigTest, TtlIsOneForSingleHopEbgp) {
  PeerConfig c = TestConfig();
  EXPECT_EQ(c.ttl(), 1);
  c.multihop_ttl = 5;
  EXPECT_EQ(c.ttl(), 5);
  c = TestConfig();
  c.peer_as = c.local_as;
  EXPECT_EQ(c.ttl(), 64);
}

TEST(PeerConfigTest, TtlSecuritySends255AndAcceptsFromHopsAway) {
  PeerConfig c = TestConfig();
  EXPECT_EQ(c.min_ttl(), 0);
  c.ttl_security_hops = 1;
  EXPECT_TRUE(c.Validate().ok());
  EXPECT_EQ(c.ttl(), 255);
  EXPECT_EQ(c.min_ttl(), 255);
  c.ttl_security_hops = 10;
  EXPECT_EQ(c.min_ttl(), 246);
  c.ttl_security_hops = 0;
  EXPECT_FALSE(c.Validate().ok());
  c.ttl_security_hops = 255;
  EXPECT_FALSE(c.Validate().ok());
  c.ttl_security_hops = 1;
  c.multihop_ttl = 5;
  EXPECT_FALSE(c.Validate().ok());
}

TEST(PeerConfigTest, ValidateChecksSafetyOptions) {
  PeerConfig c = TestConfig();
  c.md5_password = std::string(80, 'k');
  EXPECT_TRUE(c.Validate().ok());
  c.md5_password = std::string(81, 'k');
  EXPECT_FALSE(c.Validate().ok());
  c = TestConfig();
  c.max_prefixes = 10;
  c.max_prefixes_warning_pct = 100;
  EXPECT_TRUE(c.Validate().ok());
  c.max_prefixes_warning_pct = 0;
  EXPECT_FALSE(c.Validate().ok());
  c.max_prefixes_warning_pct = 101;
  EXPECT_FALSE(c.Validate().ok());
}

TEST(OpenNegotiatorTest, GracefulRestartNegotiatedOnlyWhenBothSend) {
  PeerConfig c = TestConfig();
  c.families = {kIpv4Unicast, kIpv6Unicast};
  c.graceful_restart = GracefulRestartCapability{false, false, 120, {{kIpv4Unicast, true}}};
  Capabilities caps = PeerCaps();
  caps.multiprotocol = {kIpv4Unicast, kIpv6Unicast};
  // The peer restarted (R), kept IPv4 forwarding (F) but not IPv6; a family we do not
  // negotiate is ignored.
  caps.graceful_restart = GracefulRestartCapability{
      true, false, 90, {{kIpv4Unicast, true}, {kIpv6Unicast, false}, {AfiSafi{1, 2}, true}}};
  auto s = OpenNegotiator(c).Accept(OpenMessage::Make(65002, 90, Addr("10.0.0.2"), caps));
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->graceful_restart);
  EXPECT_TRUE(s->peer_restarting);
  EXPECT_EQ(s->peer_restart_time, 90);
  EXPECT_EQ(s->peer_gr_families, (std::vector<AfiSafi>{kIpv4Unicast, kIpv6Unicast}));
  EXPECT_EQ(s->peer_forwarding_preserved, (std::vector<AfiSafi>{kIpv4Unicast}));

  // Either side without the capability: no graceful restart.
  caps.graceful_restart.reset();
  s = OpenNegotiator(c).Accept(OpenMessage::Make(65002, 90, Addr("10.0.0.2"), caps));
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->graceful_restart);
  EXPECT_TRUE(s->peer_gr_families.empty());
  caps.graceful_restart = GracefulRestartCapability{false, false, 90, {{kIpv4Unicast, true}}};
  c.graceful_restart.reset();
  s = OpenNegotiator(c).Accept(OpenMessage::Make(65002, 90, Addr("10.0.0.2"), caps));
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->graceful_restart);
}

TEST_F(SessionFsmTest, GracefulRestartCapabilityChangesForLaterOpensOnly) {
  PeerConfig c = TestConfig();
  c.graceful_restart = GracefulRestartCapability{true, false, 120, {{kIpv4Unicast, true}}};
  Make(c);
  Establish();
  EXPECT_TRUE(fsm->negotiator().local_open().caps.graceful_restart->restarting);
  fsm->SetGracefulRestart(GracefulRestartCapability{false, false, 120, {{kIpv4Unicast, false}}});
  EXPECT_EQ(fsm->state(), SessionState::kEstablished);
  const auto& gr = fsm->negotiator().local_open().caps.graceful_restart;
  ASSERT_TRUE(gr.has_value());
  EXPECT_FALSE(gr->restarting);
  EXPECT_FALSE(gr->families[0].forwarding_preserved);
  EXPECT_EQ(fsm->config().graceful_restart, gr);
}

// RFC 5065: member AS 65001 of confederation 65000 with members 65001 and 65002.
PeerConfig ConfedConfig(uint32_t peer_as) {
  PeerConfig c = TestConfig();
  c.peer_as = peer_as;
  c.confed = Confederation{.identifier = 65000, .members = {65001, 65002}};
  return c;
}

TEST(OpenNegotiatorConfedTest, ExternalPeerGetsTheIdentifierInOpen) {
  OpenNegotiator n(ConfedConfig(65009));
  EXPECT_EQ(n.local_open().my_as, 65000);
  EXPECT_EQ(n.local_open().caps.four_octet_as, 65000u);
  auto s = n.Accept(OpenMessage::Make(65009, 90, Addr("10.0.0.2"), PeerCaps()));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->codec.peer_type, PeerType::kExternal);
}

TEST(OpenNegotiatorConfedTest, MemberPeerGetsTheMemberAsAndConfedCodec) {
  OpenNegotiator n(ConfedConfig(65002));
  EXPECT_EQ(n.local_open().my_as, 65001);
  auto s = n.Accept(OpenMessage::Make(65002, 90, Addr("10.0.0.2"), PeerCaps()));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->codec.peer_type, PeerType::kConfedExternal);
}

TEST(PeerConfigConfedTest, ConfedPeersAreSingleHopLikeEbgp) {
  EXPECT_EQ(ConfedConfig(65002).peer_type(), PeerType::kConfedExternal);
  EXPECT_EQ(ConfedConfig(65002).ttl(), 1);
  EXPECT_EQ(ConfedConfig(65001).peer_type(), PeerType::kInternal);
  EXPECT_EQ(ConfedConfig(65001).ttl(), 64);
  EXPECT_EQ(ConfedConfig(65001).open_as(), 65001u);
}

}  // namespace
}  // namespace strata::bgp::test_util
