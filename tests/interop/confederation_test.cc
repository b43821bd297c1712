// Strata in a BGP confederation (RFC 5065) with real daemons:
//
//   BIRD member   (AS 64513, link 1) --+                      +-- link 2 -- BIRD external (AS
//   65009)
//                                      Strata (member AS 64512)
//                                      confederation 65000, members 64512 64513
//
// BIRD-member peers with Strata as a confederation member (`confederation 65000; confederation
// member yes`); BIRD-external knows only AS 65000. The member's route reaches the external peer
// with the confederation identifier alone (the AS_CONFED_SEQUENCE stripped) and our next hop;
// the external route reaches the member with Strata's member AS in front (a confed segment) and
// LOCAL_PREF (next-hop-self, as BIRD wants a member's next hop on the link); the member's
// LOCAL_PREF reaches Strata.
// Binaries: $STRATA_BIN_DIR (strata-bgp from $STRATA_BGP_BIN when set).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/interop/bird_speaker.h"
#include "tests/interop/interop_fixture.h"
#include "tests/interop/strata_speaker.h"

namespace strata::interop {
namespace {

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
    RequireBinary("/usr/sbin/bird");
    if (IsSkipped()) return;
    mid_ = &AddNs("s");
    for (int n = 1; n <= 2; ++n) {
      ns_[n] = &AddNs("c" + std::to_string(n));
      links_[n] = &AddLink(*ns_[n], *mid_, n);
    }
  }
  std::string Addr(int n) const { return links_[n]->a_v4(); }
  std::string StrataAddr(int n) const { return links_[n]->b_v4(); }

  NetNs* mid_ = nullptr;
  NetNs* ns_[3] = {};
  VethLink* links_[3] = {};
};

TEST_F(ConfederationInteropTest, MemberSegmentsInsideIdentifierOutside) {
  auto& member = AddSpeaker<BirdSpeaker>(
      *ns_[1], SpeakerConfig{.name = "bird-member",
                             .local_as = kMemberAs,
                             .router_id = "10.255.0.1",
                             .neighbors = {Neighbor{.address = StrataAddr(1),
                                                    .remote_as = kStrataAs,
                                                    .local_address = Addr(1),
                                                    .confederation = kConfedId}},
                             .routes = {{.prefix = "10.1.0.0/24", .local_pref = 200}}});
  auto& external = AddSpeaker<BirdSpeaker>(
      *ns_[2], SpeakerConfig{
                   .name = "bird-external",
                   .local_as = kExternalAs,
                   .router_id = "10.255.0.2",
                   .neighbors = {Neighbor{
                       .address = StrataAddr(2), .remote_as = kConfedId, .local_address = Addr(2)}},
                   .routes = {{.prefix = "10.9.0.0/24"}}});
  ASSERT_OK(member.Start());
  ASSERT_OK(external.Start());
  auto& strata = AddSpeaker<StrataSpeaker>(
      *mid_,
      SpeakerConfig{
          .name = "strata",
          .local_as = kStrataAs,
          .router_id = "10.255.0.10",
          .neighbors =
              {Neighbor{.address = Addr(1), .remote_as = kMemberAs, .local_address = StrataAddr(1)},
               Neighbor{
                   .address = Addr(2), .remote_as = kExternalAs, .local_address = StrataAddr(2)}}},
      StrataBinariesFromEnv());
  ASSERT_OK(strata.Start());
  // The confederation, as an operator sets it (the sessions restart with it).
  ASSERT_OK(strata
                .Call(strata.bgp_target() +
                      "set_local_config?local_as:u32=" + std::to_string(kStrataAs) +
                      "&router_id:ipv4=10.255.0.10&confederation_identifier:u32=" +
                      std::to_string(kConfedId) +
                      "&confederation_members:list<u32>=" + std::to_string(kMemberAs))
                .status());
  // next-hop-self toward the member: BIRD takes a member session's next hop as direct (on link).
  ASSERT_OK(strata
                .Call(strata.bgp_target() + "change_peer?peer:ipv4=" + Addr(1) + "&peer_as:u32=" +
                      std::to_string(kMemberAs) + "&local_address:ipv4=" + StrataAddr(1) +
                      "&hold_time:u32=9&connect_retry:u32=1" +
                      "&ipv4_unicast:bool=true&ipv6_unicast:bool=false" +
                      "&ebgp_requires_policy:bool=false&next_hop_self:bool=true")
                .status());
  ASSERT_TRUE(strata.WaitEstablished(Addr(1))) << strata.Logs() << member.Logs();
  ASSERT_TRUE(strata.WaitEstablished(Addr(2))) << strata.Logs() << external.Logs();
  EXPECT_EQ(strata.PeerStatus(Addr(1)).value("peer_type", ""), "confed-external");
  EXPECT_EQ(strata.PeerStatus(Addr(2)).value("peer_type", ""), "external");

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

}  // namespace
}  // namespace strata::interop
