// PlanReconcile: exact ops from (kernel dump, wanted set); other protocols are never touched.
#include "fea/reconcile.h"

#include <gtest/gtest.h>

namespace strata::fea {
namespace {

constexpr uint8_t kProto = 196;
constexpr uint32_t kMetric = 20;

KernelRoute R(const char* prefix, const char* gw, uint32_t ifindex, uint8_t proto = kProto,
              uint32_t metric = kMetric) {
  return KernelRoute{100,
                     IpPrefix::Parse(prefix).value(),
                     proto,
                     metric,
                     RouteType::kUnicast,
                     {{IpAddr::Parse(gw).value(), ifindex, 1}}};
}

TEST(ReconcileTest, KeepsReplacesAddsAndDeletesOnlyStrataRoutes) {
  const std::vector<KernelRoute> kernel = {
      R("192.0.2.0/24", "10.0.0.2", 3),              // wanted as is: kept
      R("198.51.100.0/24", "10.0.0.2", 3),           // wanted elsewhere: replaced
      R("203.0.113.0/24", "10.0.0.2", 3),            // unwanted: deleted
      R("203.0.113.0/24", "10.0.0.9", 3, 4, 0),      // foreign (static): untouched
      R("192.0.2.0/24", "10.0.0.9", 3, 4, kMetric),  // foreign at our metric: untouched
      R("10.9.0.0/16", "10.0.0.2", 3, kProto, 50),   // ours at another metric: deleted
  };
  const std::vector<KernelRoute> wanted = {
      R("192.0.2.0/24", "10.0.0.2", 3),
      R("198.51.100.0/24", "10.0.1.2", 4),
      R("100.64.0.0/10", "10.0.0.2", 3),
  };
  ReconcilePlan plan = PlanReconcile(kernel, wanted, kProto, kMetric, true);
  const std::vector<KernelOp> expected = {
      {KernelOpType::kDelete, kernel[2]},
      {KernelOpType::kDelete, kernel[5]},
      {KernelOpType::kReplace, wanted[1]},
      {KernelOpType::kAdd, wanted[2]},
  };
  EXPECT_EQ(plan.ops, expected);
  ASSERT_EQ(plan.kept.size(), 1u);
  EXPECT_EQ(*plan.kept[0], kernel[0]);
  for (const auto& op : plan.ops) EXPECT_EQ(op.route.protocol, kProto);
}

TEST(ReconcileTest, DuringGraceNothingIsDeleted) {
  const std::vector<KernelRoute> kernel = {R("203.0.113.0/24", "10.0.0.2", 3)};
  ReconcilePlan plan = PlanReconcile(kernel, {}, kProto, kMetric, false);
  EXPECT_TRUE(plan.ops.empty());
}

TEST(ReconcileTest, EcmpOrderAndSingleNextHopWeightDoNotCountAsDifferences) {
  KernelRoute k = R("192.0.2.0/24", "10.0.0.2", 3);
  k.nexthops.push_back({IpAddr::Parse("10.0.1.2").value(), 4, 2});
  KernelRoute w = k;
  std::swap(w.nexthops[0], w.nexthops[1]);
  EXPECT_TRUE(PlanReconcile({&k, 1}, {&w, 1}, kProto, kMetric, true).ops.empty());
  KernelRoute k1 = R("10.0.0.0/8", "10.0.0.2", 3);
  KernelRoute w1 = k1;
  w1.nexthops[0].weight = 7;
  EXPECT_TRUE(PlanReconcile({&k1, 1}, {&w1, 1}, kProto, kMetric, true).ops.empty());
  w.nexthops[0].weight = 9;  // an ECMP weight change is a difference
  EXPECT_EQ(PlanReconcile({&k, 1}, {&w, 1}, kProto, kMetric, true).ops.size(), 1u);
}

}  // namespace
}  // namespace strata::fea
