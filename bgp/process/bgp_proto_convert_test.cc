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
