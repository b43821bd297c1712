// KernelRoutes against the fake kernel: installs, adoption after a restart, the grace period,
// foreign routes left alone, and the removal of everything at a clean stop.
#include "fea/kernel_routes.h"

#include <gtest/gtest.h>

#include "testing/fea/fake_route_kernel.h"

namespace strata::fea {
namespace {

IpAddr A(const char* s) { return IpAddr::Parse(s).value(); }
IpPrefix P(const char* s) { return IpPrefix::Parse(s).value(); }

RouteChange Add(const char* prefix, const char* via) {
  RouteChange c;
  c.op = RouteOp::kAdd;
  IpPrefix p = P(prefix);
  c.prefix_addr = p.addr();
  c.prefix_len = p.len();
  c.nexthops.push_back({A(via), "", 0});
  return c;
}

class KernelRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ifs_.UpdateLink({3, "r0", true, true, 1500, std::nullopt});
    ifs_.AddAddress({3, A("10.0.0.1"), 24});
    ASSERT_TRUE(vrs_.AddVr("red", 100).ok());
    ASSERT_TRUE(ifs_.Bind("r0", "red").ok());
  }
  void Apply(std::vector<RouteChange> c) {
    auto changed = vrs_.Apply("red", c);
    ASSERT_TRUE(changed.ok()) << changed.status().ToString();
    kr_.Sync("red", *changed);
  }
  KernelRoute Ours(const char* prefix, const char* via) {
    return KernelRoute{100, P(prefix), 196, 20, RouteType::kUnicast, {{A(via), 3, 1}}};
  }

  FakeRouteKernel kernel_;
  InterfaceTable ifs_;
  VrTable vrs_{ifs_};
  KernelRoutesOptions opts_{196, 20};
  KernelRoutes kr_{&kernel_, vrs_, opts_};
};

TEST_F(KernelRoutesTest, InstallsReplacesAndDeletesInOneBatch) {
  kr_.AddVr("red");
  Apply({Add("192.0.2.0/24", "10.0.0.2"), Add("198.51.100.0/24", "10.0.0.2")});
  EXPECT_EQ(kernel_.applied.size(), 2u);
  EXPECT_EQ(*kernel_.Get(100, P("192.0.2.0/24"), 20), Ours("192.0.2.0/24", "10.0.0.2"));
  Apply({Add("192.0.2.0/24", "10.0.0.2")});  // unchanged: no kernel op
  EXPECT_EQ(kernel_.applied.size(), 2u);
  Apply({Add("192.0.2.0/24", "10.0.0.3")});
  EXPECT_EQ(kernel_.applied.back().type, KernelOpType::kReplace);
  RouteChange del = Add("198.51.100.0/24", "10.0.0.2");
  del.op = RouteOp::kDelete;
  Apply({del});
  EXPECT_EQ(kernel_.Get(100, P("198.51.100.0/24"), 20), nullptr);
  EXPECT_TRUE(kr_.InKernel("red", P("192.0.2.0/24")));
  EXPECT_EQ(kr_.stats().installed, 1u);
}

TEST_F(KernelRoutesTest, AdoptsRoutesOfAPreviousRunAndRemovesStaleOnesAtEndOfGrace) {
  const KernelRoute foreign{100, P("203.0.113.0/24"), 4,
                            20,  RouteType::kUnicast, {{A("10.0.0.9"), 3, 1}}};
  kernel_.Put(Ours("192.0.2.0/24", "10.0.0.2"));     // still wanted
  kernel_.Put(Ours("198.51.100.0/24", "10.0.0.2"));  // no longer wanted
  kernel_.Put(
      KernelRoute{100, P("203.0.113.0/24"), 4, 0, RouteType::kUnicast, {{A("10.0.0.9"), 3, 1}}});
  kernel_.Put(foreign);  // a static route at our metric: it holds our key
  EXPECT_EQ(kr_.AddVr("red"), 2u) << "the two Strata routes at our metric";
  EXPECT_TRUE(kr_.InGrace("red"));
  EXPECT_TRUE(kernel_.applied.empty());
  Apply({Add("192.0.2.0/24", "10.0.0.2")});
  EXPECT_TRUE(kernel_.applied.empty()) << "an adopted identical route is kept as it is";
  Apply({Add("203.0.113.0/24", "10.0.0.2")});  // refused: the static route holds the key
  EXPECT_EQ(kr_.stats().errors, 1u);
  EXPECT_FALSE(kr_.InKernel("red", P("203.0.113.0/24")));
  EXPECT_NE(kernel_.Get(100, P("198.51.100.0/24"), 20), nullptr) << "kept during grace";
  kr_.Reconcile("red");  // a link came up: adopted routes are still kept
  EXPECT_NE(kernel_.Get(100, P("198.51.100.0/24"), 20), nullptr) << "kept during grace";
  // The RIB's resync ended (or the VR's stale window closed).
  EXPECT_EQ(kr_.EndGrace("red"), 1u);
  EXPECT_FALSE(kr_.InGrace("red"));
  EXPECT_EQ(kernel_.Get(100, P("198.51.100.0/24"), 20), nullptr);
  EXPECT_NE(kernel_.Get(100, P("192.0.2.0/24"), 20), nullptr);
  EXPECT_EQ(*kernel_.Get(100, P("203.0.113.0/24"), 20), foreign);
  EXPECT_NE(kernel_.Get(100, P("203.0.113.0/24"), 0), nullptr);
  for (const auto& op : kernel_.applied) EXPECT_EQ(op.route.protocol, 196);
  EXPECT_EQ(kr_.stats().stale_removed, 1u);
}

TEST_F(KernelRoutesTest, ReconcileRepairsRoutesTheKernelFlushed) {
  EXPECT_EQ(kr_.AddVr("red"), 0u);
  EXPECT_FALSE(kr_.InGrace("red")) << "nothing adopted, nothing to wait for";
  Apply({Add("192.0.2.0/24", "10.0.0.2")});
  kernel_.routes.clear();  // the link went down
  kr_.Reconcile("red");
  EXPECT_NE(kernel_.Get(100, P("192.0.2.0/24"), 20), nullptr);
  kr_.RemoveVr("red");
  EXPECT_TRUE(kernel_.routes.empty());
}

TEST_F(KernelRoutesTest, NoKernelMeansNoOps) {
  KernelRoutes none(nullptr, vrs_, opts_);
  none.AddVr("red");
  auto changed = vrs_.Apply("red", std::vector<RouteChange>{Add("192.0.2.0/24", "10.0.0.2")});
  ASSERT_TRUE(changed.ok());
  none.Sync("red", *changed);
  EXPECT_FALSE(none.InKernel("red", P("192.0.2.0/24")));
  EXPECT_TRUE(kernel_.applied.empty());
}

TEST_F(KernelRoutesTest, MoveVrTakesStratasRoutesFromTheOldTableToTheNew) {
  const KernelRoute foreign{100, P("203.0.113.0/24"), 4,
                            20,  RouteType::kUnicast, {{A("10.0.0.9"), 3, 1}}};
  kernel_.Put(foreign);
  kr_.AddVr("red");
  Apply({Add("192.0.2.0/24", "10.0.0.2"), Add("198.51.100.0/24", "10.0.0.3")});
  ASSERT_NE(kernel_.Get(100, P("192.0.2.0/24"), 20), nullptr);
  ASSERT_TRUE(vrs_.SetTable("red", 200).ok());
  kr_.MoveVr("red");
  EXPECT_EQ(kernel_.Get(100, P("192.0.2.0/24"), 20), nullptr);
  EXPECT_EQ(kernel_.Get(100, P("198.51.100.0/24"), 20), nullptr);
  EXPECT_EQ(*kernel_.Get(100, P("203.0.113.0/24"), 20), foreign) << "not ours: left alone";
  KernelRoute moved = Ours("192.0.2.0/24", "10.0.0.2");
  moved.table = 200;
  EXPECT_EQ(*kernel_.Get(200, P("192.0.2.0/24"), 20), moved);
  EXPECT_NE(kernel_.Get(200, P("198.51.100.0/24"), 20), nullptr);
  EXPECT_TRUE(kr_.InKernel("red", P("192.0.2.0/24")));
  // Later batches go to the new table.
  Apply({Add("192.0.2.0/24", "10.0.0.3")});
  EXPECT_EQ(kernel_.Get(200, P("192.0.2.0/24"), 20)->nexthops[0].gateway, A("10.0.0.3"));
  EXPECT_EQ(kernel_.Get(100, P("192.0.2.0/24"), 20), nullptr);
  // To table 0: out of the kernel.
  ASSERT_TRUE(vrs_.SetTable("red", 0).ok());
  kr_.MoveVr("red");
  EXPECT_EQ(kernel_.Get(200, P("192.0.2.0/24"), 20), nullptr);
  EXPECT_FALSE(kr_.InKernel("red", P("192.0.2.0/24")));
  EXPECT_EQ(kr_.stats().errors, 0u);
}

GatewayHop Hop(const char* via) { return GatewayHop{A(via), 3}; }

// The kernel hears of a hop when the last installed route through it goes, and not before:
// deletes, replaces to another gateway, a reconcile that finds routes gone, RemoveVr.
TEST_F(KernelRoutesTest, ReleasesAGatewayHopWhenTheLastRouteThroughItGoes) {
  kr_.AddVr("red");
  EXPECT_EQ(kr_.EndGrace("red"), 0u);
  Apply({Add("192.0.2.0/24", "10.0.0.2"), Add("198.51.100.0/24", "10.0.0.2"),
         Add("203.0.113.0/24", "10.0.0.3")});
  RouteChange del = Add("198.51.100.0/24", "10.0.0.2");
  del.op = RouteOp::kDelete;
  Apply({del});
  EXPECT_TRUE(kernel_.released.empty()) << "192.0.2.0/24 still goes through 10.0.0.2";
  Apply({Add("192.0.2.0/24", "10.0.0.3")});  // replaced: nothing through 10.0.0.2 now
  EXPECT_EQ(kernel_.released, (std::vector<GatewayHop>{Hop("10.0.0.2")}));
  // A replace whose new route goes through the same hop as another: nothing to release.
  Apply({Add("192.0.2.0/24", "10.0.0.2"), Add("203.0.113.0/24", "10.0.0.2")});
  EXPECT_EQ(kernel_.released, (std::vector<GatewayHop>{Hop("10.0.0.2"), Hop("10.0.0.3")}));
  // The kernel flushed one of them; the reconcile puts it back: the hop stays in use.
  kernel_.routes.erase({100, P("192.0.2.0/24"), 20});
  kr_.Reconcile("red");
  EXPECT_EQ(kernel_.released.size(), 2u);
  kernel_.released.clear();
  kr_.RemoveVr("red");
  EXPECT_EQ(kernel_.released, (std::vector<GatewayHop>{Hop("10.0.0.2")}));
}

// A hop is a gateway through one device, so each VR's are its own (its own interfaces); a
// refused install hands its hop back when no installed route uses it.
TEST_F(KernelRoutesTest, EachVrHasItsOwnHopsAndARefusedRouteGivesItsHopBack) {
  ifs_.UpdateLink({4, "b0", true, true, 1500, std::nullopt});
  ifs_.AddAddress({4, A("10.0.0.1"), 24});
  ASSERT_TRUE(vrs_.AddVr("blue", 101).ok());
  ASSERT_TRUE(ifs_.Bind("b0", "blue").ok());
  kr_.AddVr("red");
  kr_.AddVr("blue");
  Apply({Add("192.0.2.0/24", "10.0.0.2")});
  auto changed = vrs_.Apply("blue", std::vector<RouteChange>{Add("192.0.2.0/24", "10.0.0.2")});
  ASSERT_TRUE(changed.ok());
  kr_.Sync("blue", *changed);
  ASSERT_NE(kernel_.Get(101, P("192.0.2.0/24"), 20), nullptr);
  EXPECT_EQ(kernel_.Get(101, P("192.0.2.0/24"), 20)->nexthops[0].ifindex, 4u);
  kernel_.fail_prefixes.insert(P("198.51.100.0/24"));
  Apply({Add("198.51.100.0/24", "10.0.0.9")});
  EXPECT_EQ(kernel_.released, (std::vector<GatewayHop>{Hop("10.0.0.9")}));
  kernel_.released.clear();
  kr_.RemoveVr("red");
  EXPECT_EQ(kernel_.released, (std::vector<GatewayHop>{Hop("10.0.0.2")}));
  kr_.RemoveVr("blue");
  EXPECT_EQ(kernel_.released.back(), (GatewayHop{A("10.0.0.2"), 4}));
}

TEST_F(KernelRoutesTest, RemoveAllTakesEveryStrataRouteAndHopOutButNothingElse) {
  const KernelRoute foreign{100, P("203.0.113.0/24"), 4,
                            20,  RouteType::kUnicast, {{A("10.0.0.9"), 3, 1}}};
  kernel_.Put(foreign);
  kernel_.Put(Ours("198.51.100.0/24", "10.0.0.2"));  // adopted, not re-sent yet
  ASSERT_TRUE(vrs_.AddVr("blue", 101).ok());
  kr_.AddVr("red");
  kr_.AddVr("blue");
  Apply({Add("192.0.2.0/24", "10.0.0.2"), Add("192.0.3.0/24", "10.0.0.3")});
  ASSERT_EQ(kr_.stats().installed, 3u);
  EXPECT_EQ(kr_.RemoveAll(), 3u);
  EXPECT_EQ(kernel_.released_all, 1) << "the nexthop objects go first";
  ASSERT_EQ(kernel_.routes.size(), 1u);
  EXPECT_EQ(kernel_.routes.begin()->second, foreign);
  EXPECT_EQ(kr_.stats().installed, 0u);
  EXPECT_FALSE(kr_.InKernel("red", P("192.0.2.0/24")));
}

}  // namespace
}  // namespace strata::fea
