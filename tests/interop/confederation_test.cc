// Strata in a BGP confederation (RFC 5065) with real daemons:
//
//   member   (AS 64513, link 1) --+                      +-- link 2 -- external (AS 65009)
//                                 Strata (member AS 64512)
//                                 confederation 65000, members 64512 64513
//
// Once with BIRD as both daemons, once with FRR. The member peers with Strata as a confederation
// member (BIRD `confederation 65000; confederation member yes`, FRR `bgp confederation
// identifier 65000` and `bgp confederation peers 64512`); the external peer knows only AS 65000.
// The member's route reaches the external peer with the confederation identifier alone (the
// AS_CONFED_SEQUENCE stripped) and our next hop; the external route reaches the member with
// Strata's member AS in front (a confed segment) and LOCAL_PREF; the member's LOCAL_PREF (and
// with FRR its MED and NEXT_HOP) reaches Strata. BIRD wants a member's next hop on the link, so
// Strata sets next-hop-self toward it; with FRR the external's NEXT_HOP and MED cross the member
// boundary unchanged (the member reaches link 2 through a kernel route via Strata).
// Binaries: $STRATA_BIN_DIR (strata-bgp from $STRATA_BGP_BIN when set).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/frr_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;

constexpr uint32_t kConfedId = 65000;
constexpr uint32_t kStrataAs = 64512;
constexpr uint32_t kMemberAs = 64513;
constexpr uint32_t kExternalAs = 65009;

class ConfederationInteropTest : public InteropTest {
 protected:
  void SetUp() override {
    InteropTest::SetUp();
    if (IsSkipped()) return;
    mid_ = &AddNs("s");
    for (int n = 1; n <= 2; ++n) {
      ns_[n] = &AddNs("c" + std::to_string(n));
      links_[n] = &AddLink(*ns_[n], *mid_, n);
    }
  }
  std::string Addr(int n) const { return links_[n]->a_v4(); }
  std::string StrataAddr(int n) const { return links_[n]->b_v4(); }
  // `member` and `external` started, then Strata, member AS 64512 of confederation 65000,
  // peering with the member on link 1 and the external peer on link 2 (`next_hop_self` toward
  // the member); both sessions Established with their peer types.
  StrataSpeaker& StartAll(BgpSpeaker& member, BgpSpeaker& external, bool next_hop_self) {
    EXPECT_OK(member.Start());
    EXPECT_OK(external.Start());
    auto& strata = AddSpeaker<StrataSpeaker>(
        *mid_,
        SpeakerConfig{.name = "strata",
                      .local_as = kStrataAs,
                      .router_id = "10.255.0.10",
                      .neighbors = {Neighbor{.address = Addr(1),
                                             .remote_as = kMemberAs,
                                             .local_address = StrataAddr(1)},
                                    Neighbor{.address = Addr(2),
                                             .remote_as = kExternalAs,
                                             .local_address = StrataAddr(2)}}},
        StrataBinariesFromEnv());
    EXPECT_OK(strata.Start());
    // The confederation, as an operator sets it (the sessions restart with it).
    EXPECT_OK(strata
                  .Call(strata.bgp_target() +
                        "set_local_config?local_as:u32=" + std::to_string(kStrataAs) +
                        "&router_id:ipv4=10.255.0.10&confederation_identifier:u32=" +
                        std::to_string(kConfedId) +
                        "&confederation_members:list<u32>=" + std::to_string(kMemberAs))
                  .status());
    if (next_hop_self) {
      EXPECT_OK(strata
                    .Call(strata.bgp_target() + "change_peer?peer:ipv4=" + Addr(1) +
                          "&peer_as:u32=" + std::to_string(kMemberAs) + "&local_address:ipv4=" +
                          StrataAddr(1) + "&hold_time:u32=9&connect_retry:u32=1" +
                          "&ipv4_unicast:bool=true&ipv6_unicast:bool=false" +
                          "&ebgp_requires_policy:bool=false&next_hop_self:bool=true")
                    .status());
    }
    EXPECT_TRUE(strata.WaitEstablished(Addr(1))) << strata.Logs() << member.Logs();
    EXPECT_TRUE(strata.WaitEstablished(Addr(2))) << strata.Logs() << external.Logs();
    EXPECT_EQ(strata.PeerStatus(Addr(1)).value("peer_type", ""), "confed-external");
    EXPECT_EQ(strata.PeerStatus(Addr(2)).value("peer_type", ""), "external");
    return strata;
  }

  // The member (AS 64513, link 1) and the external speaker (AS 65009, link 2), each originating
  // `route`.
  SpeakerConfig MemberConfig(const std::string& name, const Route& route) const {
    return SpeakerConfig{.name = name,
                         .local_as = kMemberAs,
                         .router_id = "10.255.0.1",
                         .neighbors = {Neighbor{.address = StrataAddr(1),
                                                .remote_as = kStrataAs,
                                                .local_address = Addr(1),
                                                .confederation = kConfedId}},
                         .routes = {route}};
  }
  SpeakerConfig ExternalConfig(const std::string& name, const Route& route) const {
    return SpeakerConfig{
        .name = name,
        .local_as = kExternalAs,
        .router_id = "10.255.0.2",
        .neighbors = {Neighbor{
            .address = StrataAddr(2), .remote_as = kConfedId, .local_address = Addr(2)}},
        .routes = {route}};
  }

  NetNs* mid_ = nullptr;
  NetNs* ns_[3] = {};
  VethLink* links_[3] = {};
};

TEST_F(ConfederationInteropTest, MemberSegmentsInsideIdentifierOutside) {
  RequireBinary("/usr/sbin/bird");
  if (IsSkipped()) return;
  auto& member = AddSpeaker<BirdSpeaker>(
      *ns_[1], MemberConfig("bird-member", {.prefix = "10.1.0.0/24", .local_pref = 200}));
  auto& external =
      AddSpeaker<BirdSpeaker>(*ns_[2], ExternalConfig("bird-external", {.prefix = "10.9.0.0/24"}));
  // next-hop-self toward the member: BIRD takes a member session's next hop as direct (on link).
  auto& strata = StartAll(member, external, /*next_hop_self=*/true);
  ASSERT_FALSE(HasFailure());

  // Member -> Strata: the member AS (in a confed segment) and its LOCAL_PREF.
  auto r = strata.WaitForRoute("10.1.0.0/24");
  ASSERT_TRUE(r.has_value()) << strata.Logs();
  EXPECT_THAT(r->as_path, ElementsAre(kMemberAs)) << r->ToString();
  EXPECT_EQ(r->local_pref, 200u) << r->ToString();
  // -> external: only the confederation identifier, our next hop, no LOCAL_PREF.
  r = external.WaitForRoute("10.1.0.0/24");
  ASSERT_TRUE(r.has_value()) << external.Logs();
  EXPECT_THAT(r->as_path, ElementsAre(kConfedId)) << r->ToString();
  EXPECT_EQ(r->nexthop, StrataAddr(2));
  // External -> member: Strata's member AS in front (a confed segment), LOCAL_PREF sent.
  r = member.WaitForRoute("10.9.0.0/24");
  ASSERT_TRUE(r.has_value()) << member.Logs();
  EXPECT_THAT(r->as_path, ElementsAre(kStrataAs, kExternalAs)) << r->ToString();
  EXPECT_EQ(r->nexthop, StrataAddr(1)) << r->ToString();
  EXPECT_EQ(r->local_pref, 100u) << r->ToString();
}

TEST_F(ConfederationInteropTest, FrrMemberAndFrrExternal) {
  RequireBinary("/usr/lib/frr/bgpd");
  if (IsSkipped()) return;
  auto& member = AddSpeaker<FrrSpeaker>(
      *ns_[1], MemberConfig("frr-member", {.prefix = "10.1.0.0/24", .med = 50, .local_pref = 200}));
  auto& external = AddSpeaker<FrrSpeaker>(
      *ns_[2], ExternalConfig("frr-external", {.prefix = "10.9.0.0/24", .med = 30}));
  // The member reaches link 2 (the external's next hop) through Strata, as the confederation's
  // IGP would tell it.
  const auto route = ns_[1]->Exec({"ip", "route", "add", "10.200.2.0/24", "via", StrataAddr(1)});
  ASSERT_TRUE(route.ok()) << route.output;
  auto& strata = StartAll(member, external, /*next_hop_self=*/false);
  ASSERT_FALSE(HasFailure());

  // Member -> Strata: the member AS in an AS_CONFED_SEQUENCE; LOCAL_PREF, MED, NEXT_HOP kept.
  auto r = strata.WaitForRoute("10.1.0.0/24");
  ASSERT_TRUE(r.has_value()) << strata.Logs();
  EXPECT_THAT(r->as_path, ElementsAre(kMemberAs)) << r->ToString();
  EXPECT_THAT(r->confed_path, ElementsAre(kMemberAs)) << r->ToString();
  EXPECT_EQ(r->local_pref, 200u) << r->ToString();
  EXPECT_EQ(r->med, 50u) << r->ToString();
  EXPECT_EQ(r->nexthop, Addr(1)) << r->ToString();
  // Both routes reach Strata's RIB with their next hops.
  auto rib_has = [&](const std::string& prefix, const std::string& nexthop) {
    auto routes = strata.RibRoutes();
    return routes.ok() && std::any_of(routes->begin(), routes->end(), [&](const RibRoute& x) {
             return x.prefix == prefix && x.nexthop == nexthop;
           });
  };
  EXPECT_TRUE(PollUntil([&] { return rib_has("10.1.0.0/24", Addr(1)); }, 15s)) << strata.Logs();
  EXPECT_TRUE(PollUntil([&] { return rib_has("10.9.0.0/24", Addr(2)); }, 15s)) << strata.Logs();
  // -> external: only the confederation identifier, no confed segment, our next hop.
  r = external.WaitForRoute("10.1.0.0/24");
  ASSERT_TRUE(r.has_value()) << external.Logs();
  EXPECT_THAT(r->as_path, ElementsAre(kConfedId)) << r->ToString();
  EXPECT_TRUE(r->confed_path.empty()) << r->ToString();
  EXPECT_EQ(r->nexthop, StrataAddr(2)) << r->ToString();
  // External -> member: Strata's member AS in a confed segment in front; the external's
  // NEXT_HOP and MED unchanged across the member boundary; LOCAL_PREF sent.
  r = member.WaitForRoute("10.9.0.0/24");
  ASSERT_TRUE(r.has_value()) << member.Logs();
  EXPECT_THAT(r->as_path, ElementsAre(kStrataAs, kExternalAs)) << r->ToString();
  EXPECT_THAT(r->confed_path, ElementsAre(kStrataAs)) << r->ToString();
  EXPECT_EQ(r->nexthop, Addr(2)) << r->ToString();
  EXPECT_EQ(r->med, 30u) << r->ToString();
  EXPECT_EQ(r->local_pref, 100u) << r->ToString();
}

}  // namespace
}  // namespace strata::interop
