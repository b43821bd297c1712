// Strata as a BGP route reflector (RFC 4456) for real daemons, all in AS 65000:
//
//   BIRD client  (10.255.0.1) --link 1--+                 +--link 3-- BIRD non-client (10.255.0.3)
//                                       Strata (reflector)
//   FRR client   (10.255.0.2) --link 2--+ cluster 10.255.255.1 +--link 4-- FRR non-client (.4)
//
// Every daemon peers with Strata only. A client's route reaches the other client and the
// non-clients with ORIGINATOR_ID = the originator's router id and CLUSTER_LIST = Strata's
// cluster id, nexthop unchanged; a non-client's route reaches the clients only (the other
// non-client does not get it); a withdrawal is reflected too.
// The reflected nexthops are on other links: the FRR namespaces get a kernel route to them
// through Strata (zebra passes it to bgpd's nexthop tracking); BIRD (iBGP: recursive gateway,
// no IGP table here) keeps such routes as "unreachable" but still selects and shows them, with
// their attributes, which is all this test reads.
// Binaries: $STRATA_BIN_DIR (strata-bgp from $STRATA_BGP_BIN when set).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/frr_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr uint32_t kAs = 65000;
constexpr char kClusterId[] = "10.255.255.1";

class RouteReflectionInteropTest : public InteropTest {
 protected:
  void SetUp() override {
    InteropTest::SetUp();
    if (IsSkipped()) return;
    RequireBinary("/usr/sbin/bird");
    RequireBinary("/usr/lib/frr/bgpd");
    if (IsSkipped()) return;
    mid_ = &AddNs("s");
    for (int n = 1; n <= 4; ++n) {
      NetNs& ns = AddNs("c" + std::to_string(n));
      links_[n] = &AddLink(ns, *mid_, n);
      ns_[n] = &ns;
    }
  }
  // The daemon on link n: side A of the link, router id 10.255.0.n.
  std::string Addr(int n) const { return links_[n]->a_v4(); }
  std::string StrataAddr(int n) const { return links_[n]->b_v4(); }
  std::string RouterId(int n) const { return "10.255.0." + std::to_string(n); }
  SpeakerConfig ClientConfig(int n, const std::string& name, std::vector<Route> routes) const {
    return SpeakerConfig{.name = name,
                         .local_as = kAs,
                         .router_id = RouterId(n),
                         .neighbors = {Neighbor{
                             .address = StrataAddr(n), .remote_as = kAs, .local_address = Addr(n)}},
                         .routes = std::move(routes)};
  }
  StrataSpeaker& AddStrata() {
    SpeakerConfig c{.name = "strata", .local_as = kAs, .router_id = "10.255.0.10"};
    for (int n = 1; n <= 4; ++n) {
      c.neighbors.push_back(
          Neighbor{.address = Addr(n), .remote_as = kAs, .local_address = StrataAddr(n)});
    }
    return AddSpeaker<StrataSpeaker>(*mid_, c, StrataBinariesFromEnv());
  }
  // Strata's cluster id and its clients (links 1 and 2), as an operator would set them.
  Status MakeReflector(StrataSpeaker& s) {
    auto r = s.Call(s.bgp_target() + "set_local_config?local_as:u32=" + std::to_string(kAs) +
                    "&router_id:ipv4=10.255.0.10&cluster_id:ipv4=" + kClusterId);
    if (!r.ok()) return r.status();
    for (int n : {1, 2}) {
      r = s.Call(s.bgp_target() + "change_peer?peer:ipv4=" + Addr(n) +
                 "&peer_as:u32=" + std::to_string(kAs) + "&local_address:ipv4=" + StrataAddr(n) +
                 "&hold_time:u32=9&connect_retry:u32=1&ipv4_unicast:bool=true" +
                 "&ipv6_unicast:bool=false&route_reflector_client:bool=true");
      if (!r.ok()) return r.status();
    }
    return Status::Ok();
  }

  NetNs* mid_ = nullptr;
  NetNs* ns_[5] = {};
  VethLink* links_[5] = {};
};

TEST_F(RouteReflectionInteropTest, ReflectsBetweenBirdAndFrrClientsButNotBetweenNonClients) {
  auto& bird =
      AddSpeaker<BirdSpeaker>(*ns_[1], ClientConfig(1, "bird-client", {{.prefix = "10.1.0.0/24"}}));
  auto& frr =
      AddSpeaker<FrrSpeaker>(*ns_[2], ClientConfig(2, "frr-client", {{.prefix = "10.2.0.0/24"}}));
  auto& bird_nc = AddSpeaker<BirdSpeaker>(
      *ns_[3], ClientConfig(3, "bird-nonclient", {{.prefix = "10.3.0.0/24"}}));
  auto& frr_nc = AddSpeaker<FrrSpeaker>(*ns_[4], ClientConfig(4, "frr-nonclient", {}));
  // FRR uses a route only if it can reach its nexthop: the other links, through Strata.
  for (int n : {2, 4}) {
    ASSERT_TRUE(ns_[n]->Exec({"ip", "route", "add", "10.200.0.0/16", "via", StrataAddr(n)}).ok());
  }
  ASSERT_OK(bird.Start());
  ASSERT_OK(frr.Start());
  ASSERT_OK(bird_nc.Start());
  ASSERT_OK(frr_nc.Start());
  StrataSpeaker& strata = AddStrata();
  ASSERT_OK(strata.Start());
  ASSERT_OK(MakeReflector(strata));
  for (int n = 1; n <= 4; ++n) ASSERT_TRUE(strata.WaitEstablished(Addr(n))) << Addr(n);
  EXPECT_EQ(strata.PeerStatus(Addr(1)).value("route_reflector_client", false), true);
  EXPECT_EQ(strata.PeerStatus(Addr(3)).value("route_reflector_client", false), false);

  // BIRD client -> FRR client: ORIGINATOR_ID is BIRD's router id, CLUSTER_LIST ours.
  auto r = frr.WaitForRoute("10.1.0.0/24");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->originator_id, RouterId(1)) << r->ToString();
  EXPECT_THAT(r->cluster_list, ElementsAre(kClusterId));
  EXPECT_EQ(r->nexthop, Addr(1));
  EXPECT_THAT(r->as_path, IsEmpty());
  // FRR client -> BIRD client.
  r = bird.WaitForRoute("10.2.0.0/24");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->originator_id, RouterId(2)) << r->ToString();
  EXPECT_THAT(r->cluster_list, ElementsAre(kClusterId));
  EXPECT_EQ(r->nexthop, Addr(2));
  // Clients -> non-clients.
  for (BgpSpeaker* s : std::vector<BgpSpeaker*>{&bird_nc, &frr_nc}) {
    r = s->WaitForRoute("10.1.0.0/24");
    ASSERT_TRUE(r.has_value()) << s->config().name;
    EXPECT_EQ(r->originator_id, RouterId(1)) << r->ToString();
    EXPECT_THAT(r->cluster_list, ElementsAre(kClusterId));
    r = s->WaitForRoute("10.2.0.0/24");
    ASSERT_TRUE(r.has_value()) << s->config().name;
    EXPECT_EQ(r->originator_id, RouterId(2)) << r->ToString();
  }
  // Non-client -> clients only.
  for (BgpSpeaker* s : std::vector<BgpSpeaker*>{&bird, &frr}) {
    r = s->WaitForRoute("10.3.0.0/24");
    ASSERT_TRUE(r.has_value()) << s->config().name;
    EXPECT_EQ(r->originator_id, RouterId(3)) << r->ToString();
    EXPECT_THAT(r->cluster_list, ElementsAre(kClusterId));
  }
  // Strata has had it (it went to both clients) and the other non-client never gets it.
  ASSERT_TRUE(strata.FindRoute("10.3.0.0/24").has_value());
  EXPECT_FALSE(frr_nc.WaitForRoute("10.3.0.0/24", 3s).has_value());
  EXPECT_FALSE(frr_nc.FindRoute("10.3.0.0/24").has_value());

  // Withdrawals are reflected the same way.
  ASSERT_OK(bird.Withdraw("10.1.0.0/24"));
  EXPECT_TRUE(frr.WaitForRouteGone("10.1.0.0/24"));
  EXPECT_TRUE(frr_nc.WaitForRouteGone("10.1.0.0/24"));
  EXPECT_TRUE(bird_nc.WaitForRouteGone("10.1.0.0/24"));
  // Nothing came back in a loop.
  const auto peer = strata.PeerStatus(Addr(1));
  EXPECT_EQ(peer.value("originator_id_loops", 0u), 0u) << peer.dump();
  EXPECT_EQ(peer.value("cluster_list_loops", 0u), 0u) << peer.dump();
}

}  // namespace
}  // namespace strata::interop
