// The per-peer essentials operators of BIRD and FRR expect, seen by the daemons themselves:
//
//   BIRD (AS 65001) --link 1-- Strata (AS 65010) --link 2-- FRR (AS 65003)
//
// Strata's neighbour BIRD has (bgp/1.0 change_peer, as strata-rtrmgr sends it for a config or a
// peer group): local-as 64999 (BIRD is configured for AS 64999 and shows it as the neighbour
// AS), default-originate (BIRD gets 0.0.0.0/0 with Strata as next hop though no default route
// exists anywhere), remove-private-as all (FRR's private AS 65003 is gone from the path BIRD
// sees) and allowas-in 1 (BIRD's route whose path already holds 65010 is accepted and reaches
// FRR); Strata's aggregate-address 10.4.0.0/16 summary-only turns FRR's 10.4.0.0/24 into the
// aggregate alone, withdrawn with it. Binaries: $STRATA_BIN_DIR (strata-bgp from $STRATA_BGP_BIN
// when set).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/frr_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr uint32_t kBirdAs = 65001;
constexpr uint32_t kFrrAs = 65003;
constexpr uint32_t kStrataAs = 65010;
constexpr uint32_t kLocalAs = 64999;  // what BIRD sees Strata as
constexpr auto kWait = 30s;

class PeerEssentialsInteropTest : public InteropTest {
 protected:
  void SetUp() override {
    InteropTest::SetUp();
    if (IsSkipped()) return;
    RequireBinary("/usr/sbin/bird");
    RequireBinary("/usr/lib/frr/bgpd");
  }
};

TEST_F(PeerEssentialsInteropTest,
       LocalAsDefaultOriginateRemovePrivateAsAllowasInAndAggregateSeenByBirdAndFrr) {
  NetNs& bns = AddNs("b");
  NetNs& sns = AddNs("s");
  NetNs& fns = AddNs("f");
  VethLink& l1 = AddLink(bns, sns, 1);
  VethLink& l2 = AddLink(sns, fns, 2);
  auto& bird = AddSpeaker<BirdSpeaker>(
      bns,
      SpeakerConfig{.name = "bird",
                    .local_as = kBirdAs,
                    .router_id = "10.255.0.1",
                    .neighbors = {Neighbor{
                        .address = l1.b_v4(), .remote_as = kLocalAs, .local_address = l1.a_v4()}},
                    // BIRD prepends its own AS: the path is "65001 65010".
                    .routes = {{.prefix = "10.1.0.0/24", .as_path = {kStrataAs}}}});
  auto& frr = AddSpeaker<FrrSpeaker>(
      fns,
      SpeakerConfig{.name = "frr",
                    .local_as = kFrrAs,
                    .router_id = "10.255.0.3",
                    .neighbors = {Neighbor{
                        .address = l2.a_v4(), .remote_as = kStrataAs, .local_address = l2.b_v4()}},
                    .routes = {{.prefix = "10.3.0.0/24"}, {.prefix = "10.4.0.0/24"}}});
  auto& strata = AddSpeaker<StrataSpeaker>(
      sns,
      SpeakerConfig{
          .name = "strata",
          .local_as = kStrataAs,
          .router_id = "10.255.0.10",
          .neighbors =
              {Neighbor{.address = l1.a_v4(), .remote_as = kBirdAs, .local_address = l1.b_v4()},
               Neighbor{.address = l2.b_v4(), .remote_as = kFrrAs, .local_address = l2.a_v4()}}},
      StrataBinariesFromEnv());
  ASSERT_OK(strata.Start());
  auto changed = strata.Call(
      strata.bgp_target() + "change_peer?peer:ipv4=" + l1.a_v4() +
      "&peer_as:u32=" + std::to_string(kBirdAs) + "&local_address:ipv4=" + l1.b_v4() +
      "&hold_time:u32=9&connect_retry:u32=1&ipv4_unicast:bool=true&ipv6_unicast:bool=false"
      "&ebgp_requires_policy:bool=false&local_as:u32=" +
      std::to_string(kLocalAs) +
      "&default_originate:bool=true&remove_private_as:txt=all&allowas_in:u32=1&group:txt=edge");
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  auto aggregated = strata.Call(strata.bgp_target() +
                                "add_aggregate?prefix:ipv4net=10.4.0.0/16&summary_only:bool=true");
  ASSERT_TRUE(aggregated.ok()) << aggregated.status().ToString();
  ASSERT_OK(bird.Start());
  ASSERT_OK(frr.Start());
  ASSERT_TRUE(strata.WaitEstablished(l1.a_v4(), kWait)) << strata.Logs();
  ASSERT_TRUE(strata.WaitEstablished(l2.b_v4(), kWait)) << strata.Logs();

  // BIRD's session: Strata is AS 64999 there.
  const std::string proto = bird.Birdc({"show", "protocols", "all", "nb0"}).output;
  EXPECT_THAT(proto, HasSubstr("Neighbor AS:      " + std::to_string(kLocalAs))) << proto;
  const nlohmann::json peer = strata.PeerStatus(l1.a_v4());
  EXPECT_EQ(peer.value("local_as", 0u), kLocalAs) << peer.dump();
  EXPECT_EQ(peer.value("group", ""), "edge") << peer.dump();
  EXPECT_EQ(peer.value("default_originate", false), true) << peer.dump();

  // The default route, originated for BIRD alone, with Strata's address as next hop.
  auto d = bird.WaitForRoute("0.0.0.0/0", kWait);
  ASSERT_TRUE(d.has_value()) << bird.Logs();
  EXPECT_EQ(d->nexthop, l1.b_v4());
  EXPECT_THAT(d->as_path, ElementsAre(kLocalAs, kStrataAs)) << d->ToString();

  // FRR's route: its private AS removed, local-as in front of Strata's AS.
  auto f = bird.WaitForRoute("10.3.0.0/24", kWait);
  ASSERT_TRUE(f.has_value()) << bird.Logs();
  EXPECT_THAT(f->as_path, ElementsAre(kLocalAs, kStrataAs)) << f->ToString();

  // BIRD's route holds 65010 once: allowas-in 1 accepts it; local-as is prepended on receipt.
  auto b = frr.WaitForRoute("10.1.0.0/24", kWait);
  ASSERT_TRUE(b.has_value()) << strata.Logs();
  EXPECT_THAT(b->as_path, ElementsAre(kStrataAs, kLocalAs, kBirdAs, kStrataAs)) << b->ToString();
  // FRR, without default-originate, has no default route (its table is complete by now).
  EXPECT_FALSE(frr.FindRoute("0.0.0.0/0").has_value());

  // aggregate-address 10.4.0.0/16 summary-only: FRR's 10.4.0.0/24 makes Strata originate the
  // aggregate, which both daemons get; the contributor reaches neither.
  auto agg = bird.WaitForRoute("10.4.0.0/16", kWait);
  ASSERT_TRUE(agg.has_value()) << strata.Logs();
  EXPECT_EQ(agg->nexthop, l1.b_v4());
  EXPECT_THAT(agg->as_path, ElementsAre(kLocalAs, kStrataAs)) << agg->ToString();
  auto agg_frr = frr.WaitForRoute("10.4.0.0/16", kWait);
  ASSERT_TRUE(agg_frr.has_value());
  EXPECT_THAT(agg_frr->as_path, ElementsAre(kStrataAs)) << agg_frr->ToString();
  EXPECT_FALSE(bird.FindRoute("10.4.0.0/24").has_value());
  // FRR withdraws its route: the aggregate has no contributor left and goes.
  ASSERT_OK(frr.Withdraw("10.4.0.0/24"));
  EXPECT_TRUE(bird.WaitForRouteGone("10.4.0.0/16", kWait));
}

}  // namespace
}  // namespace strata::interop
