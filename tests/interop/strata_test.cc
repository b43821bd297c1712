// Strata (strata-finder, strata-rib, strata-bgp) as the middle router between real daemons:
//
//   left (BIRD/GoBGP/ExaBGP, AS 65001) --link 1-- Strata (AS 65010) --link 2-- right (FRR)
//
// with the right side an eBGP (AS 65003) or iBGP (AS 65010) peer. Checks that routes reach
// Strata's RIB and are re-advertised by the rules of RFC 4271 (AS path prepended and nexthop
// rewritten on eBGP, communities kept, LOCAL_PREF only inside the AS, MED not passed on to
// another AS), that withdrawals propagate, that reset sessions recover, and that malformed
// UPDATEs get their RFC 7606 outcome while other peers carry on.
// Binaries: $STRATA_BIN_DIR (strata-bgp from $STRATA_BGP_BIN when set).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/exabgp_speaker.h"
#include "testing/interop/frr_speaker.h"
#include "testing/interop/gobgp_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;

constexpr uint32_t kLeftAs = 65001;
constexpr uint32_t kStrataAs = 65010;
constexpr uint32_t kRightEbgpAs = 65003;

class StrataInteropTest : public InteropTest {
 protected:
  // The three namespaces and two links; Strata's config (not started).
  void Topology(bool v6, bool ibgp_right) {
    left_ = &AddNs("l");
    mid_ = &AddNs("s");
    right_ = &AddNs("r");
    l1_ = &AddLink(*left_, *mid_, 1);
    l2_ = &AddLink(*mid_, *right_, 2);
    v6_ = v6;
    right_as_ = ibgp_right ? kStrataAs : kRightEbgpAs;
  }
  std::string LeftAddr() const { return v6_ ? l1_->a_v6() : l1_->a_v4(); }
  std::string MidLeftAddr() const { return v6_ ? l1_->b_v6() : l1_->b_v4(); }
  std::string MidRightAddr() const { return v6_ ? l2_->a_v6() : l2_->a_v4(); }
  std::string RightAddr() const { return v6_ ? l2_->b_v6() : l2_->b_v4(); }

  Neighbor Peer(const std::string& addr, uint32_t as, const std::string& local) const {
    return Neighbor{
        .address = addr, .remote_as = as, .local_address = local, .ipv4 = !v6_, .ipv6 = v6_};
  }
  SpeakerConfig LeftConfig(const std::string& name) const {
    return SpeakerConfig{.name = name,
                         .local_as = kLeftAs,
                         .router_id = "10.255.0.1",
                         .neighbors = {Peer(MidLeftAddr(), kStrataAs, LeftAddr())}};
  }
  SpeakerConfig RightConfig(const std::string& name) const {
    return SpeakerConfig{.name = name,
                         .local_as = right_as_,
                         .router_id = "10.255.0.3",
                         .neighbors = {Peer(MidRightAddr(), kStrataAs, RightAddr())}};
  }
  StrataSpeaker& AddStrata() {
    SpeakerConfig c{.name = "strata",
                    .local_as = kStrataAs,
                    .router_id = "10.255.0.10",
                    .neighbors = {Peer(LeftAddr(), kLeftAs, MidLeftAddr()),
                                  Peer(RightAddr(), right_as_, MidRightAddr())}};
    return AddSpeaker<StrataSpeaker>(*mid_, c, StrataBinariesFromEnv());
  }
  NetNs* left_ = nullptr;
  NetNs* mid_ = nullptr;
  NetNs* right_ = nullptr;
  VethLink* l1_ = nullptr;
  VethLink* l2_ = nullptr;
  bool v6_ = false;
  uint32_t right_as_ = kRightEbgpAs;
};

// True once the RIB's winner for `prefix` is the `protocol` route via `nexthop`.
bool RibHas(StrataSpeaker& s, const std::string& prefix, const std::string& nexthop,
            const std::string& protocol) {
  return PollUntil(
      [&] {
        auto routes = s.RibRoutes();
        if (!routes.ok()) return false;
        for (const auto& r : *routes) {
          if (r.prefix == prefix && r.nexthop == nexthop && r.protocol == protocol) return true;
        }
        return false;
      },
      20s);
}

bool RibLacks(StrataSpeaker& s, const std::string& prefix) {
  return PollUntil(
      [&] {
        auto routes = s.RibRoutes();
        if (!routes.ok()) return false;
        for (const auto& r : *routes) {
          if (r.prefix == prefix) return false;
        }
        return true;
      },
      20s);
}

// BIRD -> Strata -> FRR over eBGP, and back.
void EbgpTransit(BirdSpeaker& bird, StrataSpeaker& strata, FrrSpeaker& frr, const std::string& left,
                 const std::string& mid_left, const std::string& mid_right,
                 const std::string& right, bool v6) {
  ASSERT_OK(bird.Start());
  ASSERT_OK(frr.Start());
  ASSERT_OK(strata.Start());
  ASSERT_TRUE(strata.WaitEstablished(left));
  ASSERT_TRUE(strata.WaitEstablished(right));
  const std::string p1 = v6 ? "fd00:1::/48" : "10.1.0.0/24";
  const std::string p3 = v6 ? "fd00:3::/48" : "10.3.0.0/24";
  // Into Strata: its BGP table and its RIB.
  auto r = strata.WaitForRoute(p1);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->nexthop, left);
  EXPECT_THAT(r->as_path, ElementsAre(kLeftAs));
  EXPECT_EQ(r->med, 50u);
  EXPECT_THAT(r->communities, ElementsAre("65001:100"));
  ASSERT_TRUE(RibHas(strata, p1, left, "ebgp"));
  // Out to FRR: AS path prepended, nexthop Strata's address, communities kept, no MED from
  // another AS, no LOCAL_PREF on eBGP.
  r = frr.WaitForRoute(p1);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->nexthop, mid_right);
  EXPECT_THAT(r->as_path, ElementsAre(kStrataAs, kLeftAs));
  EXPECT_THAT(r->communities, ElementsAre("65001:100"));
  EXPECT_THAT(r->large_communities, ElementsAre("65001:1:2"));
  EXPECT_FALSE(r->med.has_value()) << r->ToString();
  // The other way.
  r = bird.WaitForRoute(p3);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->nexthop, mid_left);
  EXPECT_THAT(r->as_path, ElementsAre(kStrataAs, kRightEbgpAs));
  EXPECT_THAT(r->communities, ElementsAre("65003:300"));
  ASSERT_TRUE(RibHas(strata, p3, right, "ebgp"));
  // Withdrawals propagate, through the RIB too.
  ASSERT_OK(bird.Withdraw(p1));
  ASSERT_TRUE(frr.WaitForRouteGone(p1));
  ASSERT_TRUE(RibLacks(strata, p1));
  EXPECT_TRUE(bird.FindRoute(p3).has_value());
  // A network Strata originates reaches both sides, with its AS alone and its own addresses.
  const std::string own = v6 ? "fd00:10::/48" : "10.10.0.0/24";
  ASSERT_OK(strata.Announce({.prefix = own}));
  r = frr.WaitForRoute(own);
  ASSERT_TRUE(r.has_value());
  EXPECT_THAT(r->as_path, ElementsAre(kStrataAs));
  EXPECT_EQ(r->nexthop, mid_right);
  r = bird.WaitForRoute(own);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->nexthop, mid_left);
  ASSERT_OK(strata.Withdraw(own));
  ASSERT_TRUE(frr.WaitForRouteGone(own));
  ASSERT_TRUE(bird.WaitForRouteGone(own));
}

TEST_F(StrataInteropTest, EbgpTransitIpv4BirdToFrr) {
  RequireBinary("/usr/sbin/bird");
  RequireBinary("/usr/lib/frr/bgpd");
  Topology(false, false);
  auto lc = LeftConfig("bird");
  lc.routes = {{.prefix = "10.1.0.0/24",
                .communities = {"65001:100"},
                .large_communities = {"65001:1:2"},
                .med = 50}};
  auto rc = RightConfig("frr");
  rc.routes = {{.prefix = "10.3.0.0/24", .communities = {"65003:300"}}};
  auto& bird = AddSpeaker<BirdSpeaker>(*left_, lc);
  auto& frr = AddSpeaker<FrrSpeaker>(*right_, rc);
  EbgpTransit(bird, AddStrata(), frr, LeftAddr(), MidLeftAddr(), MidRightAddr(), RightAddr(),
              false);
}

TEST_F(StrataInteropTest, EbgpTransitIpv6BirdToFrr) {
  RequireBinary("/usr/sbin/bird");
  RequireBinary("/usr/lib/frr/bgpd");
  Topology(true, false);
  auto lc = LeftConfig("bird");
  lc.routes = {{.prefix = "fd00:1::/48",
                .communities = {"65001:100"},
                .large_communities = {"65001:1:2"},
                .med = 50}};
  auto rc = RightConfig("frr");
  rc.routes = {{.prefix = "fd00:3::/48", .communities = {"65003:300"}}};
  auto& bird = AddSpeaker<BirdSpeaker>(*left_, lc);
  auto& frr = AddSpeaker<FrrSpeaker>(*right_, rc);
  EbgpTransit(bird, AddStrata(), frr, LeftAddr(), MidLeftAddr(), MidRightAddr(), RightAddr(), true);
}

// left (eBGP) -> Strata -> FRR (iBGP): LOCAL_PREF is sent inside the AS only, the AS path is
// not prepended towards an iBGP peer, the nexthop is passed on unchanged.
void IbgpThroughStrata(BgpSpeaker& left, StrataSpeaker& strata, FrrSpeaker& frr,
                       const std::string& left_addr, const std::string& mid_left,
                       const std::string& right_addr, bool v6) {
  const std::string p1 = v6 ? "fd00:1::/48" : "10.1.0.0/24";
  const std::string p3 = v6 ? "fd00:3::/48" : "10.3.0.0/24";
  ASSERT_OK(left.Start());
  ASSERT_OK(frr.Start());
  ASSERT_OK(strata.Start());
  ASSERT_TRUE(strata.WaitEstablished(left_addr));
  ASSERT_TRUE(strata.WaitEstablished(right_addr));
  auto r = frr.WaitForRoute(p1);
  ASSERT_TRUE(r.has_value());
  EXPECT_THAT(r->as_path, ElementsAre(kLeftAs));
  EXPECT_EQ(r->nexthop, left_addr);
  EXPECT_EQ(r->local_pref, 100u);
  EXPECT_THAT(r->communities, ElementsAre("65001:100"));
  // From the iBGP peer: Strata sees LOCAL_PREF 200; the eBGP peer gets none.
  r = strata.WaitForRoute(p3);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->local_pref, 200u);
  ASSERT_TRUE(RibHas(strata, p3, right_addr, "ibgp"));
  r = left.WaitForRoute(p3);
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->local_pref.has_value()) << r->ToString();
  EXPECT_THAT(r->as_path, ElementsAre(kStrataAs));
  EXPECT_EQ(r->nexthop, mid_left);
  EXPECT_THAT(r->communities, ElementsAre("65010:300"));
  ASSERT_OK(frr.Withdraw(p3));
  ASSERT_TRUE(left.WaitForRouteGone(p3));
  ASSERT_TRUE(RibLacks(strata, p3));
}

// IPv4 with ExaBGP on the left: it reports every attribute it receives, so the absence of
// LOCAL_PREF is Strata's doing.
TEST_F(StrataInteropTest, IbgpIpv4KeepsLocalPrefInsideTheAs) {
  RequireBinary("/usr/sbin/exabgp");
  RequireBinary("/usr/lib/frr/bgpd");
  Topology(false, true);
  auto lc = LeftConfig("exabgp");
  lc.routes = {{.prefix = "10.1.0.0/24", .communities = {"65001:100"}}};
  auto rc = RightConfig("frr");
  rc.routes = {{.prefix = "10.3.0.0/24", .communities = {"65010:300"}, .local_pref = 200}};
  auto& exa = AddSpeaker<ExabgpSpeaker>(*left_, lc);
  auto& frr = AddSpeaker<FrrSpeaker>(*right_, rc);
  // FRR must reach the left speaker's address (the unchanged nexthop) to use the route.
  ASSERT_TRUE(right_->Exec({"ip", "route", "add", "10.200.1.0/24", "via", MidRightAddr()}).ok());
  IbgpThroughStrata(exa, AddStrata(), frr, LeftAddr(), MidLeftAddr(), RightAddr(), false);
}

TEST_F(StrataInteropTest, IbgpIpv6KeepsLocalPrefInsideTheAs) {
  RequireBinary("/usr/bin/gobgpd");
  RequireBinary("/usr/lib/frr/bgpd");
  Topology(true, true);
  auto lc = LeftConfig("gobgp");
  lc.routes = {{.prefix = "fd00:1::/48", .communities = {"65001:100"}}};
  auto rc = RightConfig("frr");
  rc.routes = {{.prefix = "fd00:3::/48", .communities = {"65010:300"}, .local_pref = 200}};
  auto& gobgp = AddSpeaker<GobgpSpeaker>(*left_, lc);
  auto& frr = AddSpeaker<FrrSpeaker>(*right_, rc);
  ASSERT_TRUE(
      right_->Exec({"ip", "-6", "route", "add", "fd00:200:1::/64", "via", MidRightAddr()}).ok());
  IbgpThroughStrata(gobgp, AddStrata(), frr, LeftAddr(), MidLeftAddr(), RightAddr(), true);
}

TEST_F(StrataInteropTest, SessionResetRecovers) {
  RequireBinary("/usr/sbin/bird");
  RequireBinary("/usr/lib/frr/bgpd");
  Topology(false, false);
  auto lc = LeftConfig("bird");
  lc.routes = {{.prefix = "10.1.0.0/24"}};
  auto rc = RightConfig("frr");
  rc.routes = {{.prefix = "10.3.0.0/24"}};
  auto& bird = AddSpeaker<BirdSpeaker>(*left_, lc);
  auto& frr = AddSpeaker<FrrSpeaker>(*right_, rc);
  auto& strata = AddStrata();
  ASSERT_OK(bird.Start());
  ASSERT_OK(frr.Start());
  ASSERT_OK(strata.Start());
  ASSERT_TRUE(frr.WaitForRoute("10.1.0.0/24").has_value());
  ASSERT_TRUE(bird.WaitForRoute("10.3.0.0/24").has_value());
  // Strata resets its session with BIRD: the route leaves FRR (or stays through a fast
  // re-establishment) and is there again afterwards.
  const uint64_t before = strata.PeerStatus(LeftAddr()).value("established_transitions", 0u);
  ASSERT_OK(strata.ResetSession(LeftAddr()));
  ASSERT_TRUE(PollUntil(
      [&] {
        return strata.PeerStatus(LeftAddr()).value("established_transitions", 0u) > before &&
               strata.Established(LeftAddr());
      },
      30s));
  ASSERT_TRUE(frr.WaitForRoute("10.1.0.0/24").has_value());
  // FRR resets its session with Strata.
  ASSERT_OK(frr.ResetSession(MidRightAddr()));
  ASSERT_TRUE(PollUntil([&] { return !frr.Established(MidRightAddr()); }, 10s));
  ASSERT_TRUE(frr.WaitEstablished(MidRightAddr()));
  ASSERT_TRUE(frr.WaitForRoute("10.1.0.0/24").has_value());
  ASSERT_TRUE(bird.WaitForRoute("10.3.0.0/24").has_value());
}

// ExaBGP sends UPDATEs with malformed attributes (generic attributes with a well-known code);
// RFC 7606: a bad MED or ORIGIN is treat-as-withdraw (the session stays up, the route is gone
// or never appears); a bad ATOMIC_AGGREGATE is attribute-discard (the route stays). FRR's
// session and routes carry on.
TEST_F(StrataInteropTest, MalformedUpdatesGetTheirRfc7606Outcome) {
  RequireBinary("/usr/sbin/exabgp");
  RequireBinary("/usr/lib/frr/bgpd");
  Topology(false, false);
  auto lc = LeftConfig("exabgp");
  lc.routes = {{.prefix = "10.1.0.0/24"}, {.prefix = "10.9.0.0/24", .med = 1}};
  auto rc = RightConfig("frr");
  rc.routes = {{.prefix = "10.3.0.0/24"}};
  auto& exa = AddSpeaker<ExabgpSpeaker>(*left_, lc);
  auto& frr = AddSpeaker<FrrSpeaker>(*right_, rc);
  auto& strata = AddStrata();
  ASSERT_OK(exa.Start());
  ASSERT_OK(frr.Start());
  ASSERT_OK(strata.Start());
  ASSERT_TRUE(frr.WaitForRoute("10.9.0.0/24").has_value());
  ASSERT_TRUE(exa.WaitForRoute("10.3.0.0/24").has_value());
  const uint64_t transitions = strata.PeerStatus(LeftAddr()).value("established_transitions", 0u);
  // MED of 3 bytes: treat-as-withdraw of 10.9.0.0/24.
  ASSERT_OK(
      exa.SendCommand("announce route 10.9.0.0/24 next-hop self "
                      "attribute [ 0x04 0x80 0x000001 ]"));
  ASSERT_TRUE(strata.WaitForRouteGone("10.9.0.0/24"));
  ASSERT_TRUE(frr.WaitForRouteGone("10.9.0.0/24"));
  // ORIGIN 5 (undefined): treat-as-withdraw; the new prefix never appears.
  ASSERT_OK(
      exa.SendCommand("announce route 10.8.0.0/24 next-hop self "
                      "attribute [ 0x01 0x40 0x05 ]"));
  // ATOMIC_AGGREGATE with a payload: attribute-discard, the route is used.
  ASSERT_OK(
      exa.SendCommand("announce route 10.7.0.0/24 next-hop self "
                      "attribute [ 0x06 0x40 0x01 ]"));
  ASSERT_TRUE(frr.WaitForRoute("10.7.0.0/24").has_value());
  EXPECT_FALSE(strata.FindRoute("10.8.0.0/24").has_value());
  EXPECT_FALSE(frr.FindRoute("10.8.0.0/24").has_value());
  // The session never dropped; the errors were counted; everything else carries on.
  const auto peer = strata.PeerStatus(LeftAddr());
  EXPECT_EQ(peer.value("state", ""), "Established") << peer.dump();
  EXPECT_EQ(peer.value("established_transitions", 0u), transitions) << peer.dump();
  EXPECT_GE(peer.value("malformed_updates", 0u), 2u) << peer.dump();
  EXPECT_TRUE(frr.FindRoute("10.1.0.0/24").has_value());
  EXPECT_TRUE(exa.FindRoute("10.3.0.0/24").has_value());
  ASSERT_OK(frr.Announce({.prefix = "10.4.0.0/24"}));
  ASSERT_TRUE(exa.WaitForRoute("10.4.0.0/24").has_value());
}

// A malformed MP_REACH_NLRI cannot be treated as withdraw (RFC 7606 section 7.11: the NLRI it
// carries are unknown): Strata resets the session with a NOTIFICATION (ExaBGP logs "notification
// received (3,9)"). ExaBGP reconnects, the session and its routes come back, and the session
// with FRR never drops.
TEST_F(StrataInteropTest, MalformedMpReachResetsOnlyThatSession) {
  RequireBinary("/usr/sbin/exabgp");
  RequireBinary("/usr/lib/frr/bgpd");
  Topology(false, false);
  auto lc = LeftConfig("exabgp");
  lc.routes = {{.prefix = "10.1.0.0/24"}};
  auto rc = RightConfig("frr");
  rc.routes = {{.prefix = "10.3.0.0/24"}};
  auto& exa = AddSpeaker<ExabgpSpeaker>(*left_, lc);
  auto& frr = AddSpeaker<FrrSpeaker>(*right_, rc);
  auto& strata = AddStrata();
  ASSERT_OK(exa.Start());
  ASSERT_OK(frr.Start());
  ASSERT_OK(strata.Start());
  ASSERT_TRUE(frr.WaitForRoute("10.1.0.0/24").has_value());
  const auto left_before = strata.PeerStatus(LeftAddr()).value("established_transitions", 0u);
  const auto right_before = strata.PeerStatus(RightAddr()).value("established_transitions", 0u);
  // MP_REACH_NLRI of 2 bytes: AFI only, no SAFI, no nexthop.
  ASSERT_OK(
      exa.SendCommand("announce route 10.6.0.0/24 next-hop self "
                      "attribute [ 0x0e 0x80 0x0001 ]"));
  ASSERT_TRUE(PollUntil(
      [&] {
        return strata.PeerStatus(LeftAddr()).value("established_transitions", 0u) > left_before;
      },
      20s))
      << strata.PeerStatus(LeftAddr()).dump();
  // ExaBGP would send the route again on every new session: take it out of its RIB.
  ASSERT_OK(exa.Withdraw("10.6.0.0/24"));
  ASSERT_TRUE(strata.WaitEstablished(LeftAddr()));
  EXPECT_FALSE(strata.PeerStatus(LeftAddr()).value("last_error", "").empty());
  ASSERT_TRUE(frr.WaitForRoute("10.1.0.0/24").has_value());
  EXPECT_FALSE(frr.FindRoute("10.6.0.0/24").has_value());
  EXPECT_EQ(strata.PeerStatus(RightAddr()).value("established_transitions", 0u), right_before);
}

}  // namespace
}  // namespace strata::interop
