// bgp.proto -> core types: the graceful restart times of set_local_config.
#include "bgp/process/bgp_proto_convert.h"

#include <gtest/gtest.h>

#include "libipc/common_convert.h"

namespace strata::bgp {
namespace {

v1::SetLocalConfigRequest Base() {
  v1::SetLocalConfigRequest r;
  r.set_local_as(65001);
  ipc::AddrToProto(*IpAddr::Parse("192.0.2.1"), r.mutable_router_id());
  return r;
}

TEST(BgpProtoConvertTest, SelectionDeferralTimeDefaultsTo360AndIsItsOwnSetting) {
  auto c = LocalConfigFromProto(Base());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->graceful_restart.selection_deferral_time, 360u);
  v1::SetLocalConfigRequest r = Base();
  r.set_graceful_selection_deferral_time(90);
  r.set_graceful_stale_time(500);
  c = LocalConfigFromProto(r);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->graceful_restart.selection_deferral_time, 90u);
  EXPECT_EQ(c->graceful_restart.stale_time, 500u);
  // Only the times the sessions are built with reset them.
  GracefulRestartConfig other = c->graceful_restart;
  other.selection_deferral_time = 30;
  EXPECT_TRUE(c->graceful_restart.SameSessionTimes(other));
  other.stale_time = 30;
  EXPECT_FALSE(c->graceful_restart.SameSessionTimes(other));
}

TEST(BgpProtoConvertTest, SelectionDeferralTimeOutOfRangeIsRefusedByName) {
  for (uint32_t bad : {0u, 3601u}) {
    v1::SetLocalConfigRequest r = Base();
    r.set_graceful_selection_deferral_time(bad);
    auto c = LocalConfigFromProto(r);
    ASSERT_FALSE(c.ok()) << bad;
    EXPECT_NE(c.status().ToString().find("graceful_selection_deferral_time"), std::string::npos);
  }
  v1::SetLocalConfigRequest r = Base();
  r.set_graceful_selection_deferral_time(3600);
  EXPECT_TRUE(LocalConfigFromProto(r).ok());
}

}  // namespace
}  // namespace strata::bgp

namespace strata::bgp {
namespace {

v1::AddPeerRequest PeerBase() {
  v1::AddPeerRequest r;
  ipc::AddrToProto(*IpAddr::Parse("192.0.2.2"), r.mutable_peer());
  r.set_peer_as(65002);
  return r;
}

TEST(BgpProtoConvertTest, PeerEssentialsReachThePeerSettings) {
  v1::AddPeerRequest r = PeerBase();
  r.set_allowas_in(3);
  r.set_remove_private_as("all,replace-as");
  r.set_local_as(64999);
  r.set_local_as_no_prepend(true);
  r.set_default_originate(true);
  r.set_group("transit");
  auto s = PeerSettingsFromProto(r);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  const AsPathOptions& o = s->session.as_path;
  EXPECT_EQ(o.allowas_in, 3u);
  EXPECT_EQ(o.remove_private_as, RemovePrivateAs::kAll);
  EXPECT_TRUE(o.remove_private_replace_as);
  EXPECT_EQ(o.local_as, 64999u);
  EXPECT_TRUE(o.local_as_no_prepend);
  EXPECT_FALSE(o.local_as_replace_as);
  EXPECT_TRUE(s->session.default_originate);
  EXPECT_EQ(s->group, "transit");
  // replace-as alone means "if all private, replace".
  r.set_remove_private_as("replace-as");
  s = PeerSettingsFromProto(r);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->session.as_path.remove_private_as, RemovePrivateAs::kIfAllPrivate);
  EXPECT_TRUE(s->session.as_path.remove_private_replace_as);
}

TEST(BgpProtoConvertTest, BadPeerEssentialsAreRefusedByName) {
  v1::AddPeerRequest r = PeerBase();
  r.set_allowas_in(11);
  EXPECT_NE(PeerSettingsFromProto(r).status().message().find("allowas_in"), std::string::npos);
  r = PeerBase();
  r.set_remove_private_as("some");
  EXPECT_NE(PeerSettingsFromProto(r).status().message().find("remove_private_as"),
            std::string::npos);
  r = PeerBase();
  r.set_local_as_replace_as(true);
  EXPECT_NE(PeerSettingsFromProto(r).status().message().find("local_as"), std::string::npos);
}

TEST(BgpProtoConvertTest, TheOtherFamilysNextHopIsTheOneNotOfThePeersFamily) {
  v1::AddPeerRequest r = PeerBase();  // an IPv4 peer
  ipc::AddrToProto(*IpAddr::Parse("2001:db8::1"), r.mutable_ipv6_next_hop());
  auto s = PeerSettingsFromProto(r);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->session.other_family_next_hop, IpAddr::Parse("2001:db8::1").value());
  EXPECT_FALSE(PeerSettingsFromProto(PeerBase())->session.other_family_next_hop);

  r = PeerBase();
  ipc::AddrToProto(*IpAddr::Parse("192.0.2.9"), r.mutable_ipv4_next_hop());
  EXPECT_NE(PeerSettingsFromProto(r).status().message().find("ipv4_next_hop is for routes of "
                                                             "the other family"),
            std::string::npos);
  r = PeerBase();
  ipc::AddrToProto(*IpAddr::Parse("192.0.2.9"), r.mutable_ipv6_next_hop());
  EXPECT_NE(PeerSettingsFromProto(r).status().message().find("ipv6_next_hop: not an ipv6"),
            std::string::npos);
}

}  // namespace
}  // namespace strata::bgp
