// One speaker, both families, as BIRD sees it:
//
//   BIRD (AS 65001) --link 1: 10.200.1.0/24, fd00:200:1::/64-- Strata (AS 65010)
//
// BIRD has two sessions with Strata, one over IPv4 carrying IPv4 and IPv6 routes and one over
// IPv6. Strata is passive on both, so both reach its one listener (no listen-address: both
// families on one port). On the IPv4 session Strata sends its IPv6 route with its own IPv6
// address on the link as next hop (found on the session's interface, as FRR does), and takes
// BIRD's IPv6 route. Binaries: $STRATA_BIN_DIR (strata-bgp from $STRATA_BGP_BIN when set).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;

constexpr uint32_t kBirdAs = 65001;
constexpr uint32_t kStrataAs = 65010;
constexpr auto kWait = 30s;

class DualStackInteropTest : public InteropTest {
 protected:
  void SetUp() override {
    InteropTest::SetUp();
    if (IsSkipped()) return;
    RequireBinary("/usr/sbin/bird");
  }
};

TEST_F(DualStackInteropTest, OneListenerTakesBothFamiliesAndIpv6RoutesCrossAnIpv4Session) {
  NetNs& bns = AddNs("b");
  NetNs& sns = AddNs("s");
  VethLink& l1 = AddLink(bns, sns, 1);
  auto& bird =
      AddSpeaker<BirdSpeaker>(bns, SpeakerConfig{.name = "bird",
                                                 .local_as = kBirdAs,
                                                 .router_id = "10.255.0.1",
                                                 .neighbors = {Neighbor{.address = l1.b_v4(),
                                                                        .remote_as = kStrataAs,
                                                                        .local_address = l1.a_v4(),
                                                                        .ipv6 = true},
                                                               Neighbor{.address = l1.b_v6(),
                                                                        .remote_as = kStrataAs,
                                                                        .local_address = l1.a_v6(),
                                                                        .ipv4 = false,
                                                                        .ipv6 = true}},
                                                 .routes = {{.prefix = "fd00:1::/48"}}});
  auto& strata =
      AddSpeaker<StrataSpeaker>(sns,
                                SpeakerConfig{.name = "strata",
                                              .local_as = kStrataAs,
                                              .router_id = "10.255.0.10",
                                              .neighbors = {Neighbor{.address = l1.a_v4(),
                                                                     .remote_as = kBirdAs,
                                                                     .local_address = l1.b_v4(),
                                                                     .ipv6 = true},
                                                            Neighbor{.address = l1.a_v6(),
                                                                     .remote_as = kBirdAs,
                                                                     .local_address = l1.b_v6(),
                                                                     .ipv4 = false,
                                                                     .ipv6 = true}},
                                              .routes = {{.prefix = "fd00:10::/48"}}},
                                StrataBinariesFromEnv());
  ASSERT_OK(strata.Start());
  // Passive on both sessions: BIRD's connections must reach Strata's listener on each family.
  for (const auto& [peer, local, v4] :
       {std::tuple(l1.a_v4(), l1.b_v4(), true), std::tuple(l1.a_v6(), l1.b_v6(), false)}) {
    const std::string type = v4 ? "ipv4" : "ipv6";
    auto changed = strata.Call(
        strata.bgp_target() + "change_peer?peer:" + type + "=" + peer +
        "&peer_as:u32=" + std::to_string(kBirdAs) + "&local_address:" + type + "=" + local +
        "&hold_time:u32=9&connect_retry:u32=1&passive:bool=true"
        "&ipv4_unicast:bool=" +
        (v4 ? "true" : "false") + "&ipv6_unicast:bool=true&ebgp_requires_policy:bool=false");
    ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  }
  ASSERT_OK(bird.Start());
  ASSERT_TRUE(strata.WaitEstablished(l1.a_v4(), kWait)) << strata.Logs();
  ASSERT_TRUE(strata.WaitEstablished(l1.a_v6(), kWait)) << strata.Logs();

  // The IPv4 session's IPv6 next hop: Strata's address on the link, shown by list_peers.
  const nlohmann::json peer = strata.PeerStatus(l1.a_v4());
  EXPECT_EQ(peer.value("other_family_next_hop", ""), l1.b_v6()) << peer.dump();
  EXPECT_EQ(strata.PeerStatus(l1.a_v6()).value("other_family_next_hop", ""), "")
      << "the IPv6 session carries no IPv4 route";

  // Strata's IPv6 route reaches BIRD with that next hop on either session.
  auto r = bird.WaitForRoute("fd00:10::/48", kWait);
  ASSERT_TRUE(r.has_value()) << strata.Logs() << bird.Logs();
  EXPECT_EQ(r->nexthop, l1.b_v6());
  EXPECT_THAT(r->as_path, ElementsAre(kStrataAs));
  const std::string via_v4 =
      bird.Birdc({"show", "route", "for", "fd00:10::/48", "protocol", "nb0", "all"}).output;
  EXPECT_NE(via_v4.find(l1.b_v6()), std::string::npos) << via_v4;

  // BIRD's IPv6 route reaches Strata on both sessions (the harness resolves BIRD's IPv6
  // address by a host route).
  auto b = strata.WaitForRoute("fd00:1::/48", kWait);
  ASSERT_TRUE(b.has_value()) << strata.Logs() << bird.Logs();
  EXPECT_THAT(b->as_path, ElementsAre(kBirdAs));
  EXPECT_EQ(b->nexthop, l1.a_v6());
  EXPECT_EQ(StrataSpeaker::Counter(strata.PeerStatus(l1.a_v4()), "prefixes_received"), 1u)
      << strata.PeerStatus(l1.a_v4()).dump();
}

}  // namespace
}  // namespace strata::interop
