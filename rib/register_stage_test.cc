#include "rib/register_stage.h"

#include <gtest/gtest.h>

#include <random>

#include "rib/origin_table.h"
#include "testing/rib/rib_test_util.h"

namespace strata::rib {
namespace {

using test_util::A;
using test_util::P;
using test_util::Route;

class Invalidations : public InterestListener {
 public:
  void interest_invalidated(const std::string& client, const IpPrefix& subnet) override {
    log.push_back(client + " " + subnet.ToString());
  }
  std::vector<std::string> log;
};

class RegisterStageTest : public ::testing::Test {
 protected:
  RegisterStageTest() : table_("ospf", ProtocolKind::kIgp, 110, sched_), reg_(&table_, &inv_) {
    table_.set_next(&reg_);
  }
  void AddPaperRoutes(std::initializer_list<const char*> prefixes) {
    for (const char* p : prefixes) {
      const char* nexthop = P(p).is_v4() ? "192.0.2.1" : "2001:db8:ffff::1";
      ASSERT_TRUE(table_.add(Route(p, nexthop)).ok());
    }
  }
  TaskScheduler sched_;
  Invalidations inv_;
  OriginTable table_;
  RegisterStage reg_;
};

TEST_F(RegisterStageTest, PaperExample) {
  AddPaperRoutes({"128.16.0.0/16", "128.16.0.0/18", "128.16.128.0/17", "128.16.192.0/18"});
  RouteRange a = reg_.register_interest("bgp", A("128.16.32.1"));
  ASSERT_NE(a.route, nullptr);
  EXPECT_EQ(a.route->prefix, P("128.16.0.0/18"));
  EXPECT_EQ(a.valid, P("128.16.0.0/18"));
  RouteRange b = reg_.register_interest("bgp", A("128.16.160.1"));
  ASSERT_NE(b.route, nullptr);
  EXPECT_EQ(b.route->prefix, P("128.16.128.0/17"));
  EXPECT_EQ(b.route->nexthop(), A("192.0.2.1"));
  EXPECT_EQ(b.route->protocol(), "ospf");
  EXPECT_EQ(b.valid, P("128.16.128.0/18"));
  // A route appearing inside the second answer's subnet invalidates it, and only it.
  ASSERT_TRUE(table_.add(Route("128.16.130.0/24", "192.0.2.2")).ok());
  EXPECT_EQ(inv_.log, std::vector<std::string>{"bgp 128.16.128.0/18"});
  EXPECT_EQ(reg_.registered_subnets(), 1u);
  // A less specific route than the matched one changes nothing.
  ASSERT_TRUE(table_.add(Route("128.0.0.0/8", "192.0.2.2")).ok());
  EXPECT_EQ(inv_.log.size(), 1u);
  // The matched route going invalidates its registration.
  ASSERT_TRUE(table_.remove(P("128.16.0.0/18")).ok());
  EXPECT_EQ(inv_.log.back(), "bgp 128.16.0.0/18");
  EXPECT_EQ(reg_.registered_subnets(), 0u);
}

TEST_F(RegisterStageTest, NoRouteAnswerAndIpv6) {
  AddPaperRoutes({"128.16.0.0/16", "2001:db8::/32", "2001:db8:8000::/33"});
  RouteRange none = reg_.register_interest("pim", A("10.1.1.1"));
  EXPECT_EQ(none.route, nullptr);
  EXPECT_EQ(none.valid, P("0.0.0.0/1"));
  RouteRange v6 = reg_.register_interest("bgp", A("2001:db8::1"));
  EXPECT_EQ(v6.route->prefix, P("2001:db8::/32"));
  EXPECT_EQ(v6.valid, P("2001:db8::/33"));
  RouteRange v6none = reg_.register_interest("bgp", A("2001:db9::1"));
  EXPECT_EQ(v6none.route, nullptr);
  EXPECT_EQ(v6none.valid, P("2001:db9::/32"));                    // 2001:db8::/32 is its sibling
  ASSERT_TRUE(table_.add(Route("0.0.0.0/0", "192.0.2.9")).ok());  // now 10.1.1.1 has a route
  EXPECT_EQ(inv_.log, std::vector<std::string>{"pim 0.0.0.0/1"});
  EXPECT_EQ(reg_.deregister_interest("bgp", P("2001:db8::/33")).code(), StatusCode::kOk);
  EXPECT_EQ(reg_.deregister_interest("bgp", P("2001:db8::/33")).code(), StatusCode::kNotFound);
}

TEST_F(RegisterStageTest, RandomRegistrationsMatchBruteForce) {
  std::mt19937 rng(3);
  std::vector<IpPrefix> routes;
  for (int i = 0; i < 60; ++i) {
    IpPrefix p(IpAddr::V4(0x80100000u | (rng() & 0xffff)), 16 + static_cast<int>(rng() % 13));
    if (table_.add(Route(p.ToString(), "192.0.2.1")).ok()) routes.push_back(p);
  }
  for (int i = 0; i < 500; ++i) {
    const IpAddr a = IpAddr::V4(0x80100000u | (rng() & 0x1ffff));
    const IpPrefix* m = nullptr;
    for (const IpPrefix& p : routes) {
      if (p.Contains(a) && (!m || p.len() > m->len())) m = &p;
    }
    int len = m ? m->len() : 0;
    for (;; ++len) {
      bool overlaid = false;
      for (const IpPrefix& p : routes) overlaid |= p.len() > len && IpPrefix(a, len).Contains(p);
      if (!overlaid) break;
    }
    RouteRange got = reg_.register_interest("c", a);
    ASSERT_EQ(got.route == nullptr, m == nullptr) << a.ToString();
    if (m) {
      EXPECT_EQ(got.route->prefix, *m);
    }
    EXPECT_EQ(got.valid, IpPrefix(a, len)) << a.ToString();
  }
}

}  // namespace
}  // namespace strata::rib
