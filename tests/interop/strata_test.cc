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

// RFC 4271 5.1.3 and 6.3, RFC 7606 7.3: a route whose NEXT_HOP is no host address (0.0.0.0,
// multicast, broadcast, loopback from another host), Strata's own address on the session, or an
// off-link third party from a single-hop eBGP peer is not used, not installed and not passed on,
// even with a default route that would resolve it; the session stays up.
TEST_F(StrataInteropTest, NextHopsThatNameNoUsableHostAreIgnored) {
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
  ASSERT_OK(strata.AddStaticRoute("0.0.0.0/0", RightAddr()));
  ASSERT_TRUE(frr.WaitForRoute("10.1.0.0/24").has_value());
  const uint64_t transitions = strata.PeerStatus(LeftAddr()).value("established_transitions", 0u);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"10.51.0.0/24", "0.0.0.0"},         {"10.52.0.0/24", "224.0.0.5"},
      {"10.53.0.0/24", "255.255.255.255"}, {"10.54.0.0/24", "127.0.0.1"},
      {"10.55.0.0/24", MidLeftAddr()},     {"10.56.0.0/24", "192.0.2.1"}};
  for (const auto& [prefix, nh] : bad) {
    ASSERT_OK(exa.SendCommand("announce route " + prefix + " next-hop " + nh));
  }
  // A good route sent after them: once FRR has it, Strata has read the bad ones.
  ASSERT_OK(exa.SendCommand("announce route 10.59.0.0/24 next-hop self"));
  ASSERT_TRUE(frr.WaitForRoute("10.59.0.0/24").has_value());
  for (const auto& [prefix, nh] : bad) {
    EXPECT_FALSE(strata.RibRouteFor(prefix).has_value()) << prefix << " via " << nh;
    EXPECT_FALSE(frr.FindRoute(prefix).has_value()) << prefix << " via " << nh;
  }
  const auto peer = strata.PeerStatus(LeftAddr());
  EXPECT_EQ(peer.value("state", ""), "Established") << peer.dump();
  EXPECT_EQ(peer.value("established_transitions", 0u), transitions) << peer.dump();
  EXPECT_GE(peer.value("malformed_updates", 0u), 4u) << peer.dump();
  EXPECT_GE(peer.value("own_next_hop_routes", 0u), 1u) << peer.dump();
}

// RFC 7606 7.9, 7.10: ORIGINATOR_ID and CLUSTER_LIST from an eBGP peer are discarded, so they
// never reach Strata's iBGP peers.
TEST_F(StrataInteropTest, RouteReflectionAttributesFromEbgpDoNotLeak) {
  RequireBinary("/usr/sbin/exabgp");
  RequireBinary("/usr/lib/frr/bgpd");
  Topology(false, true);
  auto lc = LeftConfig("exabgp");
  lc.routes = {{.prefix = "10.1.0.0/24"}};
  auto& exa = AddSpeaker<ExabgpSpeaker>(*left_, lc);
  auto& frr = AddSpeaker<FrrSpeaker>(*right_, RightConfig("frr"));
  // FRR must reach the left speaker's address (the unchanged iBGP next hop) to use the route.
  ASSERT_TRUE(right_->Exec({"ip", "route", "add", "10.200.1.0/24", "via", MidRightAddr()}).ok());
  auto& strata = AddStrata();
  ASSERT_OK(exa.Start());
  ASSERT_OK(frr.Start());
  ASSERT_OK(strata.Start());
  ASSERT_TRUE(frr.WaitForRoute("10.1.0.0/24").has_value());
  ASSERT_OK(
      exa.SendCommand("announce route 10.61.0.0/24 next-hop self originator-id 10.255.9.9 "
                      "cluster-list [ 10.255.9.1 10.255.9.2 ]"));
  const auto route = frr.WaitForRoute("10.61.0.0/24");
  ASSERT_TRUE(route.has_value());
  EXPECT_EQ(route->originator_id, std::nullopt) << route->ToString();
  EXPECT_TRUE(route->cluster_list.empty()) << route->ToString();
  EXPECT_GE(strata.PeerStatus(LeftAddr()).value("malformed_updates", 0u), 1u);
}

// RFC 8654 4: when a route's UPDATE grows past 4096 bytes and the peer has no extended messages
// (BIRD's default), Strata does not send it and withdraws the path the peer had; the route comes
// back once it fits again.
TEST_F(StrataInteropTest, RouteTooBigForThePeerIsWithdrawn) {
  Topology(false, false);
  auto& bird = AddSpeaker<BirdSpeaker>(*left_, LeftConfig("bird"));
  auto rc = RightConfig("frr");
  auto& frr = AddSpeaker<FrrSpeaker>(*right_, rc);
  auto& strata = AddStrata();
  ASSERT_OK(bird.Start());
  ASSERT_OK(frr.Start());
  ASSERT_OK(strata.Start());
  ASSERT_OK(strata.Announce({.prefix = "10.70.0.0/24"}));
  ASSERT_TRUE(bird.WaitForRoute("10.70.0.0/24").has_value());
  // 400 large communities are 4800 bytes of attributes.
  auto policy = [&](int n) {
    std::string args =
        "name:txt=big&terms.0.name:txt=all&terms.0.action:txt=POLICY_ACTION_ACCEPT"
        "&default_action:txt=POLICY_ACTION_ACCEPT";
    if (n > 0) {
      args += "&terms.0.add_large_communities:list<txt>=";
      for (int i = 0; i < n; ++i)
        args += (i ? "," : "") + std::string("65010:1:") + std::to_string(i);
    }
    return strata.Call(strata.bgp_target() + "define_policy?" + args);
  };
  ASSERT_TRUE(policy(400).ok());
  ASSERT_TRUE(strata
                  .Call(strata.bgp_target() + "set_peer_policy?peer:ipv4=" + LeftAddr() +
                        "&direction:txt=export&policy:txt=big")
                  .ok());
  ASSERT_TRUE(bird.WaitForRouteGone("10.70.0.0/24"));
  const auto peer = strata.PeerStatus(LeftAddr());
  EXPECT_GE(peer.value("oversize_withdrawn", 0u), 1u) << peer.dump();
  EXPECT_EQ(peer.value("state", ""), "Established") << peer.dump();
  // FRR has no export policy: it has the route (its session may come up after BIRD's).
  EXPECT_TRUE(frr.WaitForRoute("10.70.0.0/24").has_value());
  // 10 large communities fit: the route comes back, with them.
  ASSERT_TRUE(policy(10).ok());
  const auto back = bird.WaitForRoute("10.70.0.0/24");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->large_communities.size(), 10u) << back->ToString();
}

}  // namespace
}  // namespace strata::interop
