#include "fea/vr_table.h"

#include <gtest/gtest.h>

namespace strata::fea {
namespace {

IpAddr A(const char* s) { return IpAddr::Parse(s).value(); }

RouteChange Add(const char* addr, int len, std::vector<NextHopSpec> nhs = {}) {
  RouteChange c;
  c.op = RouteOp::kAdd;
  c.prefix_addr = A(addr);
  c.prefix_len = len;
  c.nexthops = std::move(nhs);
  c.protocol = "static";
  return c;
}

NextHopSpec Via(const char* addr) { return NextHopSpec{A(addr), "", 0}; }

class VrTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ifs_.UpdateLink({1, "r0", true, true, 1500, std::nullopt});
    ifs_.UpdateLink({2, "b0", true, true, 1500, std::nullopt});
    ifs_.AddAddress({1, A("10.0.0.1"), 24});
    ifs_.AddAddress({1, A("2001:db8::1"), 64});
    ifs_.AddAddress({2, A("10.0.1.1"), 24});
    ASSERT_TRUE(vrs_.AddVr("red", 100).ok());
    ASSERT_TRUE(vrs_.AddVr("blue", 101).ok());
    ASSERT_TRUE(ifs_.Bind("r0", "red").ok());
    ASSERT_TRUE(ifs_.Bind("b0", "blue").ok());
  }
  Status Apply(const std::string& vr, std::vector<RouteChange> c) {
    return vrs_.Apply(vr, c).status();
  }
  InterfaceTable ifs_;
  VrTable vrs_{ifs_};
};

TEST_F(VrTableTest, RejectsBadInputAndAppliesNothing) {
  struct Case {
    const char* name;
    std::string vr;
    RouteChange change;
    StatusCode code;
  };
  RouteChange no_op = Add("192.0.2.0", 24, {Via("10.0.0.2")});
  no_op.op = RouteOp::kUnspecified;
  const std::vector<Case> cases = {
      {"unknown vr", "green", Add("192.0.2.0", 24, {Via("10.0.0.2")}), StatusCode::kNotFound},
      {"wrong family", "red", Add("192.0.2.0", 24, {Via("2001:db8::2")}),
       StatusCode::kInvalidArgument},
      {"host bits", "red", Add("192.0.2.1", 24, {Via("10.0.0.2")}), StatusCode::kInvalidArgument},
      {"bad length", "red", Add("192.0.2.0", 33, {Via("10.0.0.2")}), StatusCode::kInvalidArgument},
      {"on no interface", "red", Add("192.0.2.0", 24, {Via("10.9.9.9")}),
       StatusCode::kInvalidArgument},
      {"other vr's subnet", "red", Add("192.0.2.0", 24, {Via("10.0.1.2")}),
       StatusCode::kInvalidArgument},
      {"other vr's interface", "red", Add("192.0.2.0", 24, {NextHopSpec{std::nullopt, "b0", 0}}),
       StatusCode::kInvalidArgument},
      {"weight", "red", Add("192.0.2.0", 24, {NextHopSpec{A("10.0.0.2"), "", 300}}),
       StatusCode::kInvalidArgument},
      {"no op", "red", no_op, StatusCode::kInvalidArgument},
  };
  for (const auto& c : cases) {
    // A good change first: the bad second one must keep it out too.
    Status s = Apply(c.vr, {Add("198.51.100.0", 24, {Via("10.0.0.2")}), c.change});
    EXPECT_EQ(s.code(), c.code) << c.name << ": " << s.ToString();
    if (c.code == StatusCode::kInvalidArgument) {
      EXPECT_NE(s.message().find("changes[1]"), std::string::npos) << s.message();
    }
    EXPECT_TRUE(vrs_.Find("red")->routes.empty()) << c.name;
  }
}

TEST_F(VrTableTest, AppliesLooksUpThroughTheFibAndDeletes) {
  ASSERT_TRUE(Apply("red", {Add("192.0.2.0", 24, {Via("10.0.0.2")}),
                            Add("192.0.2.128", 25, {NextHopSpec{std::nullopt, "r0", 0}}),
                            Add("2001:db8:5::", 48, {Via("2001:db8::2"), Via("2001:db8::3")})})
                  .ok());
  auto r = vrs_.Lookup("red", A("192.0.2.200"));
  ASSERT_TRUE(r.ok() && r->has_value());
  EXPECT_EQ((*r)->prefix.ToString(), "192.0.2.128/25");
  EXPECT_EQ((*r)->nexthops[0].ifindex, 1u);
  r = vrs_.Lookup("red", A("192.0.2.1"));
  ASSERT_TRUE(r.ok() && r->has_value());
  EXPECT_EQ(*(*r)->nexthops[0].address, A("10.0.0.2"));
  r = vrs_.Lookup("red", A("2001:db8:5::9"));
  ASSERT_TRUE(r.ok() && r->has_value());
  EXPECT_EQ((*r)->nexthops.size(), 2u);
  // Blue is a separate VR.
  r = vrs_.Lookup("blue", A("192.0.2.1"));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->has_value());
  RouteChange del = Add("192.0.2.128", 25);
  del.op = RouteOp::kDelete;
  auto changed = vrs_.Apply("red", std::vector<RouteChange>{del, del});
  ASSERT_TRUE(changed.ok());
  EXPECT_EQ(changed->size(), 1u);
  r = vrs_.Lookup("red", A("192.0.2.200"));
  EXPECT_EQ((*r)->prefix.ToString(), "192.0.2.0/24");
  auto within = vrs_.ListRoutes("red", IpPrefix::Parse("2001:db8::/32").value(), 0);
  ASSERT_TRUE(within.ok());
  EXPECT_EQ(within->size(), 1u);
}

TEST_F(VrTableTest, RoutesThatDropHaveATypeAndNoNextHops) {
  RouteChange unreachable = Add("10.2.0.0", 16);
  unreachable.type = RouteType::kUnreachable;
  RouteChange prohibit = Add("10.3.0.0", 16);
  prohibit.type = RouteType::kProhibit;
  // No type and no next hop: a blackhole, as clients without types send it.
  ASSERT_TRUE(Apply("red", {Add("10.1.0.0", 16), unreachable, prohibit}).ok());
  const Vr* red = vrs_.Find("red");
  EXPECT_EQ(red->routes.at(IpPrefix::Parse("10.1.0.0/16").value()).type, RouteType::kBlackhole);
  EXPECT_EQ(red->routes.at(IpPrefix::Parse("10.2.0.0/16").value()).type, RouteType::kUnreachable);
  EXPECT_EQ(red->routes.at(IpPrefix::Parse("10.3.0.0/16").value()).type, RouteType::kProhibit);
  // The FIB holds it with its drop next hop; the lookup names the route and its type.
  auto r = vrs_.Lookup("red", A("10.3.0.1"));
  ASSERT_TRUE(r.ok() && r->has_value());
  EXPECT_EQ((*r)->type, RouteType::kProhibit);
  EXPECT_TRUE((*r)->nexthops.empty());

  RouteChange with_hop = Add("10.4.0.0", 16, {Via("10.0.0.2")});
  with_hop.type = RouteType::kProhibit;
  Status s = Apply("red", {with_hop});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("a prohibit route has no next hops"), std::string::npos)
      << s.ToString();
  RouteChange unicast_without = Add("10.4.0.0", 16);
  unicast_without.type = RouteType::kUnicast;
  s = Apply("red", {unicast_without});
  EXPECT_NE(s.message().find("needs a next hop"), std::string::npos) << s.ToString();
}

TEST_F(VrTableTest, ResyncRemovesRoutesNotSentAgain) {
  ASSERT_TRUE(Apply("red", {Add("192.0.2.0", 24, {Via("10.0.0.2")}),
                            Add("198.51.100.0", 24, {Via("10.0.0.2")})})
                  .ok());
  EXPECT_EQ(vrs_.EndResync("red").status().code(), StatusCode::kFailedPrecondition);
  ASSERT_TRUE(vrs_.BeginResync("red").ok());
  ASSERT_TRUE(Apply("red", {Add("192.0.2.0", 24, {Via("10.0.0.3")})}).ok());
  auto removed = vrs_.EndResync("red");
  ASSERT_TRUE(removed.ok());
  ASSERT_EQ(removed->size(), 1u);
  EXPECT_EQ((*removed)[0].ToString(), "198.51.100.0/24");
  EXPECT_EQ(vrs_.Find("red")->routes.size(), 1u);
  auto gone = vrs_.Lookup("red", A("198.51.100.1"));
  EXPECT_FALSE(gone->has_value());
}

TEST_F(VrTableTest, VrIdsAndTablesAreChecked) {
  EXPECT_TRUE(vrs_.AddVr("red", 100).ok());
  EXPECT_EQ(vrs_.AddVr("red", 102).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(vrs_.AddVr("green", 100).code(), StatusCode::kAlreadyExists);
  ASSERT_TRUE(Apply("blue", {Add("192.0.2.0", 24, {Via("10.0.1.2")})}).ok());
  ASSERT_TRUE(vrs_.DeleteVr("blue").ok());
  ASSERT_TRUE(vrs_.AddVr("green", 101).ok());  // reuses blue's FIB id: must start empty
  auto r = vrs_.Lookup("green", A("192.0.2.1"));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->has_value());
}

TEST_F(VrTableTest, SetTableMovesTheVrAndKeepsItsRoutes) {
  ASSERT_TRUE(Apply("red", {Add("192.0.2.0", 24, {Via("10.0.0.2")})}).ok());
  EXPECT_EQ(vrs_.SetTable("red", 101).code(), StatusCode::kAlreadyExists);  // blue's
  EXPECT_EQ(vrs_.Find("red")->table_id, 100u);
  EXPECT_EQ(vrs_.SetTable("green", 102).code(), StatusCode::kNotFound);
  ASSERT_TRUE(vrs_.SetTable("red", 102).ok());
  EXPECT_EQ(vrs_.Find("red")->table_id, 102u);
  EXPECT_EQ(vrs_.Find("red")->routes.size(), 1u);
  ASSERT_TRUE(vrs_.SetTable("red", 0).ok());  // none: any number of VRs may have it
  ASSERT_TRUE(vrs_.SetTable("blue", 0).ok());
  // Table 100 is free again.
  ASSERT_TRUE(vrs_.AddVr("green", 100).ok());
}

}  // namespace
}  // namespace strata::fea
