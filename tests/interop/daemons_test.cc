// The harness proven on daemons peering each other across veth links: BIRD <-> FRR over IPv4
// and IPv6, GoBGP <-> BIRD, ExaBGP injecting routes (also malformed ones) into FRR, and session
// resets that recover. Each test builds its own namespaces, so tests can run in parallel.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/exabgp_speaker.h"
#include "testing/interop/frr_speaker.h"
#include "testing/interop/gobgp_speaker.h"
#include "testing/interop/interop_fixture.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;

class DaemonsTest : public InteropTest {
 protected:
  // Two namespaces joined by link 1: side A and side B.
  void TwoNamespaces() {
    a_ = &AddNs("a");
    b_ = &AddNs("b");
    link_ = &AddLink(*a_, *b_, 1);
  }
  // A's config peering B over IPv4 (or IPv6) and B's peering A.
  SpeakerConfig ConfigA(const std::string& name, bool v6) const {
    return SpeakerConfig{.name = name,
                         .local_as = 65001,
                         .router_id = "10.255.0.1",
                         .neighbors = {{.address = v6 ? link_->b_v6() : link_->b_v4(),
                                        .remote_as = 65002,
                                        .local_address = v6 ? link_->a_v6() : link_->a_v4(),
                                        .ipv4 = !v6,
                                        .ipv6 = v6}}};
  }
  SpeakerConfig ConfigB(const std::string& name, bool v6) const {
    return SpeakerConfig{.name = name,
                         .local_as = 65002,
                         .router_id = "10.255.0.2",
                         .neighbors = {{.address = v6 ? link_->a_v6() : link_->a_v4(),
                                        .remote_as = 65001,
                                        .local_address = v6 ? link_->b_v6() : link_->b_v4(),
                                        .ipv4 = !v6,
                                        .ipv6 = v6}}};
  }

  NetNs* a_ = nullptr;
  NetNs* b_ = nullptr;
  VethLink* link_ = nullptr;
};

// BIRD in A (AS 65001) and FRR in B (AS 65002): a route each way with its attributes, a route
// announced and withdrawn at run time.
void BirdFrrExchange(BirdSpeaker& bird, FrrSpeaker& frr, bool v6, const std::string& a_addr,
                     const std::string& b_addr) {
  ASSERT_OK(bird.Start());
  ASSERT_OK(frr.Start());
  ASSERT_TRUE(bird.WaitEstablished(b_addr));
  ASSERT_TRUE(frr.WaitEstablished(a_addr));
  const std::string from_bird = v6 ? "fd00:1::/48" : "10.1.0.0/24";
  const std::string from_frr = v6 ? "fd00:2::/48" : "10.2.0.0/24";
  auto r = frr.WaitForRoute(from_bird);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->nexthop, a_addr);
  EXPECT_THAT(r->as_path, ElementsAre(65001u));
  EXPECT_EQ(r->med, 50u);
  EXPECT_THAT(r->communities, ElementsAre("65001:100"));
  EXPECT_THAT(r->large_communities, ElementsAre("65001:1:2"));
  r = bird.WaitForRoute(from_frr);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->nexthop, b_addr);
  EXPECT_THAT(r->as_path, ElementsAre(65002u));
  EXPECT_EQ(r->med, 20u);
  EXPECT_THAT(r->communities, ElementsAre("65002:200"));
  // Run time: FRR announces another route, then withdraws it; BIRD withdraws its own.
  const std::string extra = v6 ? "fd00:3::/48" : "10.3.0.0/24";
  ASSERT_OK(frr.Announce({.prefix = extra, .communities = {"65002:300"}}));
  r = bird.WaitForRoute(extra);
  ASSERT_TRUE(r.has_value());
  EXPECT_THAT(r->communities, ElementsAre("65002:300"));
  ASSERT_OK(frr.Withdraw(extra));
  ASSERT_TRUE(bird.WaitForRouteGone(extra));
  ASSERT_OK(bird.Withdraw(from_bird));
  ASSERT_TRUE(frr.WaitForRouteGone(from_bird));
  EXPECT_TRUE(bird.FindRoute(from_frr).has_value());  // the rest is untouched
}

TEST_F(DaemonsTest, BirdAndFrrExchangeIpv4Routes) {
  RequireBinary("/usr/sbin/bird");
  RequireBinary("/usr/lib/frr/bgpd");
  TwoNamespaces();
  SpeakerConfig ca = ConfigA("bird", false);
  ca.routes = {{.prefix = "10.1.0.0/24",
                .communities = {"65001:100"},
                .large_communities = {"65001:1:2"},
                .med = 50}};
  SpeakerConfig cb = ConfigB("frr", false);
  cb.routes = {{.prefix = "10.2.0.0/24", .communities = {"65002:200"}, .med = 20}};
  auto& bird = AddSpeaker<BirdSpeaker>(*a_, ca);
  auto& frr = AddSpeaker<FrrSpeaker>(*b_, cb);
  BirdFrrExchange(bird, frr, false, link_->a_v4(), link_->b_v4());
}

TEST_F(DaemonsTest, BirdAndFrrExchangeIpv6Routes) {
  RequireBinary("/usr/sbin/bird");
  RequireBinary("/usr/lib/frr/bgpd");
  TwoNamespaces();
  SpeakerConfig ca = ConfigA("bird", true);
  ca.routes = {{.prefix = "fd00:1::/48",
                .communities = {"65001:100"},
                .large_communities = {"65001:1:2"},
                .med = 50}};
  SpeakerConfig cb = ConfigB("frr", true);
  cb.routes = {{.prefix = "fd00:2::/48", .communities = {"65002:200"}, .med = 20}};
  auto& bird = AddSpeaker<BirdSpeaker>(*a_, ca);
  auto& frr = AddSpeaker<FrrSpeaker>(*b_, cb);
  BirdFrrExchange(bird, frr, true, link_->a_v6(), link_->b_v6());
}

// GoBGP in B, BIRD in A: GoBGP's route with an AS path, a large community and a MED in BIRD,
// BIRD's in GoBGP, then a withdrawal.
void GobgpBirdExchange(BirdSpeaker& bird, GobgpSpeaker& gobgp, bool v6, const std::string& a_addr,
                       const std::string& b_addr) {
  const std::string p1 = v6 ? "fd00:1::/48" : "10.1.0.0/24";
  const std::string p2 = v6 ? "fd00:2::/48" : "10.2.0.0/24";
  ASSERT_OK(bird.Start());
  ASSERT_OK(gobgp.Start());
  ASSERT_TRUE(gobgp.WaitEstablished(a_addr));
  auto r = bird.WaitForRoute(p2);
  ASSERT_TRUE(r.has_value());
  EXPECT_THAT(r->as_path, ElementsAre(65002u, 65020u));
  EXPECT_THAT(r->large_communities, ElementsAre("65002:7:8"));
  EXPECT_EQ(r->med, 5u);
  EXPECT_EQ(r->nexthop, b_addr);
  r = gobgp.WaitForRoute(p1);
  ASSERT_TRUE(r.has_value());
  EXPECT_THAT(r->as_path, ElementsAre(65001u));
  EXPECT_THAT(r->communities, ElementsAre("65001:100"));
  EXPECT_EQ(r->nexthop, a_addr);
  ASSERT_OK(gobgp.Withdraw(p2));
  ASSERT_TRUE(bird.WaitForRouteGone(p2));
  EXPECT_TRUE(gobgp.FindRoute(p1).has_value());
}

TEST_F(DaemonsTest, GobgpAndBirdExchangeIpv4Routes) {
  RequireBinary("/usr/sbin/bird");
  RequireBinary("/usr/bin/gobgpd");
  TwoNamespaces();
  SpeakerConfig ca = ConfigA("bird", false);
  ca.routes = {{.prefix = "10.1.0.0/24", .communities = {"65001:100"}}};
  SpeakerConfig cb = ConfigB("gobgp", false);
  cb.routes = {
      {.prefix = "10.2.0.0/24", .as_path = {65020}, .large_communities = {"65002:7:8"}, .med = 5}};
  auto& bird = AddSpeaker<BirdSpeaker>(*a_, ca);
  auto& gobgp = AddSpeaker<GobgpSpeaker>(*b_, cb);
  GobgpBirdExchange(bird, gobgp, false, link_->a_v4(), link_->b_v4());
}

TEST_F(DaemonsTest, GobgpAndBirdExchangeIpv6Routes) {
  RequireBinary("/usr/sbin/bird");
  RequireBinary("/usr/bin/gobgpd");
  TwoNamespaces();
  SpeakerConfig ca = ConfigA("bird", true);
  ca.routes = {{.prefix = "fd00:1::/48", .communities = {"65001:100"}}};
  SpeakerConfig cb = ConfigB("gobgp", true);
  cb.routes = {
      {.prefix = "fd00:2::/48", .as_path = {65020}, .large_communities = {"65002:7:8"}, .med = 5}};
  auto& bird = AddSpeaker<BirdSpeaker>(*a_, ca);
  auto& gobgp = AddSpeaker<GobgpSpeaker>(*b_, cb);
  GobgpBirdExchange(bird, gobgp, true, link_->a_v6(), link_->b_v6());
}

TEST_F(DaemonsTest, ExabgpInjectsRoutesWithCommunitiesIntoFrr) {
  RequireBinary("/usr/sbin/exabgp");
  RequireBinary("/usr/lib/frr/bgpd");
  TwoNamespaces();
  SpeakerConfig ca = ConfigA("exabgp", false);
  ca.routes = {{.prefix = "10.1.0.0/24", .communities = {"65001:1", "65001:2"}, .med = 11}};
  SpeakerConfig cb = ConfigB("frr", false);
  cb.routes = {{.prefix = "10.2.0.0/24", .communities = {"65002:200"}}};
  auto& exa = AddSpeaker<ExabgpSpeaker>(*a_, ca);
  auto& frr = AddSpeaker<FrrSpeaker>(*b_, cb);
  ASSERT_OK(frr.Start());
  ASSERT_OK(exa.Start());
  ASSERT_TRUE(frr.WaitEstablished(link_->a_v4()));
  ASSERT_TRUE(exa.WaitEstablished(link_->b_v4()));
  auto r = frr.WaitForRoute("10.1.0.0/24");
  ASSERT_TRUE(r.has_value());
  EXPECT_THAT(r->communities, ElementsAre("65001:1", "65001:2"));
  EXPECT_EQ(r->med, 11u);
  EXPECT_EQ(r->nexthop, link_->a_v4());
  // exabgp sees FRR's route through its JSON receive API.
  r = exa.WaitForRoute("10.2.0.0/24");
  ASSERT_TRUE(r.has_value());
  EXPECT_THAT(r->communities, ElementsAre("65002:200"));
  EXPECT_THAT(r->as_path, ElementsAre(65002u));
  // At run time, with large communities.
  ASSERT_OK(exa.Announce({.prefix = "10.5.0.0/24", .large_communities = {"65001:5:5"}}));
  r = frr.WaitForRoute("10.5.0.0/24");
  ASSERT_TRUE(r.has_value());
  EXPECT_THAT(r->large_communities, ElementsAre("65001:5:5"));
  ASSERT_OK(exa.Withdraw("10.5.0.0/24"));
  ASSERT_TRUE(frr.WaitForRouteGone("10.5.0.0/24"));
}

TEST_F(DaemonsTest, ExabgpInjectsIpv6RoutesIntoFrr) {
  RequireBinary("/usr/sbin/exabgp");
  RequireBinary("/usr/lib/frr/bgpd");
  TwoNamespaces();
  SpeakerConfig ca = ConfigA("exabgp", true);
  ca.routes = {{.prefix = "fd00:1::/48", .communities = {"65001:1"}}};
  SpeakerConfig cb = ConfigB("frr", true);
  cb.routes = {{.prefix = "fd00:2::/48", .large_communities = {"65002:2:2"}}};
  auto& exa = AddSpeaker<ExabgpSpeaker>(*a_, ca);
  auto& frr = AddSpeaker<FrrSpeaker>(*b_, cb);
  ASSERT_OK(frr.Start());
  ASSERT_OK(exa.Start());
  auto r = frr.WaitForRoute("fd00:1::/48");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->nexthop, link_->a_v6());
  EXPECT_THAT(r->communities, ElementsAre("65001:1"));
  r = exa.WaitForRoute("fd00:2::/48");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->nexthop, link_->b_v6());
  EXPECT_THAT(r->large_communities, ElementsAre("65002:2:2"));
  ASSERT_OK(exa.Withdraw("fd00:1::/48"));
  ASSERT_TRUE(frr.WaitForRouteGone("fd00:1::/48"));
}

// RFC 7606 in FRR, driven by exabgp's generic attributes: a MED of 3 bytes is
// treat-as-withdraw, so the route is not installed (and an earlier good one is removed) while the
// session stays up and other routes stay.
TEST_F(DaemonsTest, ExabgpMalformedMedIsTreatAsWithdrawInFrr) {
  RequireBinary("/usr/sbin/exabgp");
  RequireBinary("/usr/lib/frr/bgpd");
  TwoNamespaces();
  SpeakerConfig ca = ConfigA("exabgp", false);
  ca.routes = {{.prefix = "10.1.0.0/24"}, {.prefix = "10.9.0.0/24", .med = 1}};
  auto& exa = AddSpeaker<ExabgpSpeaker>(*a_, ca);
  auto& frr = AddSpeaker<FrrSpeaker>(*b_, ConfigB("frr", false));
  ASSERT_OK(frr.Start());
  ASSERT_OK(exa.Start());
  ASSERT_TRUE(frr.WaitEstablished(link_->a_v4()));
  ASSERT_TRUE(frr.WaitForRoute("10.9.0.0/24").has_value());
  ASSERT_OK(
      exa.SendCommand("announce route 10.9.0.0/24 next-hop self "
                      "attribute [ 0x04 0x80 0x000001 ]"));
  ASSERT_TRUE(frr.WaitForRouteGone("10.9.0.0/24"));
  EXPECT_TRUE(frr.Established(link_->a_v4()));
  EXPECT_TRUE(frr.FindRoute("10.1.0.0/24").has_value());
}

TEST_F(DaemonsTest, SessionResetRecovers) {
  RequireBinary("/usr/sbin/bird");
  RequireBinary("/usr/lib/frr/bgpd");
  TwoNamespaces();
  SpeakerConfig ca = ConfigA("bird", false);
  ca.routes = {{.prefix = "10.1.0.0/24"}};
  SpeakerConfig cb = ConfigB("frr", false);
  cb.routes = {{.prefix = "10.2.0.0/24"}};
  auto& bird = AddSpeaker<BirdSpeaker>(*a_, ca);
  auto& frr = AddSpeaker<FrrSpeaker>(*b_, cb);
  ASSERT_OK(bird.Start());
  ASSERT_OK(frr.Start());
  ASSERT_TRUE(frr.WaitForRoute("10.1.0.0/24").has_value());
  ASSERT_TRUE(bird.WaitForRoute("10.2.0.0/24").has_value());
  // FRR resets: BIRD sees the session drop and come back.
  ASSERT_OK(frr.ResetSession(link_->a_v4()));
  ASSERT_TRUE(PollUntil([&] { return !bird.Established(link_->b_v4()); }, 10s));
  ASSERT_TRUE(bird.WaitEstablished(link_->b_v4()));
  ASSERT_TRUE(bird.WaitForRoute("10.2.0.0/24").has_value());
  // BIRD resets.
  ASSERT_OK(bird.ResetSession(link_->b_v4()));
  ASSERT_TRUE(frr.WaitEstablished(link_->a_v4()));
  ASSERT_TRUE(frr.WaitForRoute("10.1.0.0/24").has_value());
  ASSERT_TRUE(bird.WaitForRoute("10.2.0.0/24").has_value());
}

}  // namespace
}  // namespace strata::interop
