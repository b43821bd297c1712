#include "rib/rib.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "testing/rib/rib_test_util.h"

namespace strata::rib {
namespace {

using test_util::A;
using test_util::FakeFea;
using test_util::P;
using test_util::Route;

TEST(RibTest, PipelineAcrossProtocolsAndFamilies) {
  TaskScheduler sched;
  FakeFea fea;
  Rib rib(sched, fea);
  ASSERT_TRUE(rib.add_route("connected", Route("192.168.1.0/24", "192.168.1.1")).ok());
  ASSERT_TRUE(rib.add_route("ebgp", Route("203.0.113.0/24", "192.168.1.7")).ok());
  ASSERT_TRUE(rib.add_route("static", Route("2001:db8::/32", "fe80::1")).ok());
  ASSERT_TRUE(rib.add_route("ibgp", Route("2001:db8:1::/48", "2001:db8::9")).ok());
  rib.flush_fea();
  EXPECT_EQ(fea.table.size(), 4u);
  EXPECT_EQ(rib.lookup_best(A("2001:db8:1::5"))->forwarding_nexthop(), A("fe80::1"));
  EXPECT_EQ(rib.lookup_best(A("203.0.113.5"))->forwarding_nexthop(), A("192.168.1.7"));
  EXPECT_EQ(rib.add_route("nope", Route("10.0.0.0/8", "192.0.2.1")).code(), StatusCode::kNotFound);
  EXPECT_EQ(rib.delete_route("static", P("10.0.0.0/8")).code(), StatusCode::kNotFound);
}

TEST(RibTest, ProtocolRegisteredAtRunTimeJoinsItsSide) {
  TaskScheduler sched;
  FakeFea fea;
  Rib rib(sched, fea);
  ASSERT_TRUE(rib.add_route("ebgp", Route("203.0.113.0/24", "10.9.9.9")).ok());
  EXPECT_EQ(rib.lookup_route(P("203.0.113.0/24")), nullptr);  // unresolved
  ASSERT_TRUE(rib.add_protocol("ospf", ProtocolKind::kIgp).ok());
  EXPECT_EQ(rib.table("ospf")->admin_distance(), 110u);
  EXPECT_EQ(rib.add_protocol("ospf", ProtocolKind::kIgp).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(rib.add_protocol("babel", ProtocolKind::kIgp).code(),
            StatusCode::kInvalidArgument);  // no default distance
  EXPECT_EQ(rib.add_protocol("babel", ProtocolKind::kIgp, 300).code(),
            StatusCode::kInvalidArgument);
  ASSERT_TRUE(rib.add_protocol("babel", ProtocolKind::kIgp, 125).ok());
  ASSERT_TRUE(rib.add_route("ospf", Route("10.0.0.0/8", "192.168.1.1")).ok());
  ASSERT_TRUE(rib.add_route("babel", Route("10.9.0.0/16", "192.168.1.2")).ok());
  EXPECT_EQ(rib.lookup_route(P("203.0.113.0/24"))->forwarding_nexthop(), A("192.168.1.2"));
  ASSERT_TRUE(rib.add_route("static", Route("10.9.0.0/16", "192.168.1.3")).ok());
  EXPECT_EQ(rib.lookup_route(P("10.9.0.0/16"))->protocol(), "static");
  ASSERT_TRUE(rib.set_admin_distance("babel", 0).ok());
  sched.run_until_idle();
  EXPECT_EQ(rib.lookup_route(P("10.9.0.0/16"))->protocol(), "babel");
}

// A floating static route: its own distance (250) keeps it behind the eBGP route (20) for the
// same prefix; it takes over when that route goes and steps back when it returns. The table's
// distance changing leaves a route's own alone.
TEST(RibTest, FloatingStaticTakesOverWhenTheBgpRouteGoes) {
  TaskScheduler sched;
  FakeFea fea;
  Rib rib(sched, fea);
  ASSERT_TRUE(rib.add_route("connected", Route("192.168.1.0/24", "192.168.1.1")).ok());
  RibRoute floating = Route("0.0.0.0/0", "192.168.1.9");
  RouteAttrs a = floating.attrs();
  a.admin_distance = 250;
  a.own_distance = true;
  floating.set_attrs(a);
  ASSERT_TRUE(rib.add_route("static", floating).ok());
  ASSERT_TRUE(rib.add_route("ebgp", Route("0.0.0.0/0", "192.168.1.7")).ok());
  rib.flush_fea();
  ASSERT_TRUE(fea.table.contains(P("0.0.0.0/0")));
  EXPECT_EQ(fea.table[P("0.0.0.0/0")]->protocol(), "ebgp");

  ASSERT_TRUE(rib.delete_route("ebgp", P("0.0.0.0/0")).ok());
  rib.flush_fea();
  EXPECT_EQ(fea.table[P("0.0.0.0/0")]->protocol(), "static");
  EXPECT_EQ(fea.table[P("0.0.0.0/0")]->admin_distance(), 250u);
  EXPECT_EQ(fea.table[P("0.0.0.0/0")]->forwarding_nexthop(), A("192.168.1.9"));

  ASSERT_TRUE(rib.set_admin_distance("static", 2).ok());
  sched.run_until_idle();
  EXPECT_EQ(rib.lookup_route(P("0.0.0.0/0"))->admin_distance(), 250u);
  ASSERT_TRUE(rib.add_route("ebgp", Route("0.0.0.0/0", "192.168.1.7")).ok());
  rib.flush_fea();
  EXPECT_EQ(fea.table[P("0.0.0.0/0")]->protocol(), "ebgp");
  EXPECT_TRUE(fea.errors.empty());
}

// Interface routes (zero next hop, an interface) and routes that drop resolve an EGP next hop
// inside them to the next hop itself, as a connected subnet does: there is no router to send to.
TEST(RibTest, InterfaceAndDropRoutesResolveEgpNextHopsToThemselves) {
  TaskScheduler sched;
  FakeFea fea;
  Rib rib(sched, fea);
  RibRoute via_if = Route("10.3.0.0/16", "0.0.0.0");
  via_if.set_ifname(Symbol("eth1"));
  ASSERT_TRUE(via_if.Validate().ok());
  ASSERT_TRUE(rib.add_route("static", via_if).ok());
  ASSERT_TRUE(rib.add_route("ebgp", Route("203.0.113.0/24", "10.3.0.7")).ok());
  const RouteRef r = rib.lookup_route(P("203.0.113.0/24"));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->forwarding_nexthop(), A("10.3.0.7"));
  EXPECT_EQ(r->ifname().str(), "eth1");
}

TEST(RibTest, LargeProtocolWithdrawalRunsInSlicesWhileOtherCallsAreAnswered) {
  constexpr int kRoutes = 200000;
  TaskScheduler sched;
  FakeFea fea;
  Rib::Options opts;
  opts.slice_routes = 5000;
  opts.fea.max_queue = kRoutes + 10;
  opts.fea.max_batch = 4096;
  Rib rib(sched, fea, nullptr, opts);
  ASSERT_TRUE(rib.add_route("connected", Route("192.168.1.0/24", "192.168.1.1")).ok());
  for (int i = 0; i < kRoutes; ++i) {
    RibRoute r;
    r.prefix = IpPrefix(IpAddr::V4(0x20000000u + (static_cast<uint32_t>(i) << 8)), 24);
    r.set_nexthop(A("192.168.1.7"));
    ASSERT_TRUE(rib.add_route("ebgp", std::move(r)).ok());
  }
  rib.flush_fea();
  ASSERT_EQ(fea.table.size(), kRoutes + 1u);
  ASSERT_TRUE(rib.delete_all_routes("ebgp").ok());
  EXPECT_EQ(rib.table("ebgp")->size(), 0u);
  // The peer comes straight back with one of the prefixes; slices run in between other calls.
  ASSERT_TRUE(rib.add_route("ebgp", Route("32.0.1.0/24", "192.168.1.9")).ok());
  size_t slices = 0;
  auto longest = std::chrono::steady_clock::duration::zero();
  while (true) {
    const auto start = std::chrono::steady_clock::now();
    const bool more = sched.run_slice();
    longest = std::max(longest, std::chrono::steady_clock::now() - start);
    ++slices;
    rib.flush_fea();
    ASSERT_TRUE(rib.add_route("static", Route("10.0.0.0/8", "192.168.1.1")).ok());
    ASSERT_NE(rib.lookup_best(A("10.1.1.1")), nullptr);
    ASSERT_TRUE(rib.delete_route("static", P("10.0.0.0/8")).ok());
    if (!more) break;
  }
  rib.flush_fea();
  EXPECT_GE(slices, static_cast<size_t>(kRoutes / opts.slice_routes));
  EXPECT_LT(longest, std::chrono::milliseconds(500));
  EXPECT_EQ(fea.table.size(), 2u);
  EXPECT_EQ(fea.table[P("32.0.1.0/24")]->nexthop(), A("192.168.1.9"));
  EXPECT_TRUE(fea.errors.empty());
  EXPECT_EQ(rib.table("ebgp")->deletion_stages(), 0u);
}

TEST(RibTest, GracefulRestartKeepsForwardingUntilSweep) {
  TaskScheduler sched;
  FakeFea fea;
  Rib rib(sched, fea);
  ASSERT_TRUE(rib.add_route("static", Route("10.0.0.0/8", "192.0.2.1")).ok());
  ASSERT_TRUE(rib.add_route("static", Route("11.0.0.0/8", "192.0.2.1")).ok());
  ASSERT_TRUE(rib.mark_stale("static").ok());
  ASSERT_TRUE(rib.add_route("static", Route("11.0.0.0/8", "192.0.2.1")).ok());
  rib.flush_fea();
  EXPECT_EQ(fea.table.size(), 2u);
  auto swept = rib.sweep_stale("static");
  ASSERT_TRUE(swept.ok());
  EXPECT_EQ(*swept, 1u);
  sched.run_until_idle();
  rib.flush_fea();
  EXPECT_EQ(fea.table.size(), 1u);
  EXPECT_TRUE(fea.table.contains(P("11.0.0.0/8")));
  EXPECT_EQ(rib.sweep_stale("nope").status().code(), StatusCode::kNotFound);
}

TEST(RibTest, RemovedProtocolIsWithdrawnInSlicesThenUnplumbed) {
  TaskScheduler sched;
  FakeFea fea;
  Rib::Options opts;
  opts.slice_routes = 10;
  opts.fea.max_queue = 1000;
  Rib rib(sched, fea, nullptr, opts);
  const size_t base_merges = rib.merge_count();
  RouteStage* const igp_tail = rib.ext_int().int_parent();
  ASSERT_TRUE(rib.add_protocol("ospf", ProtocolKind::kIgp).ok());
  ASSERT_TRUE(rib.add_protocol("rip", ProtocolKind::kIgp).ok());
  ASSERT_EQ(rib.merge_count(), base_merges + 2);
  ASSERT_TRUE(rib.add_route("connected", Route("192.168.1.0/24", "192.168.1.1")).ok());
  // ospf holds 100 routes; static and rip overlap some of them with worse distances.
  for (uint32_t i = 0; i < 100; ++i) {
    RibRoute r;
    r.prefix = IpPrefix(IpAddr::V4(0x0a000000u + (i << 8)), 24);
    r.set_nexthop(A("192.168.1.2"));
    ASSERT_TRUE(rib.add_route("ospf", std::move(r)).ok());
  }
  ASSERT_TRUE(rib.add_route("rip", Route("10.0.5.0/24", "192.168.1.3")).ok());
  ASSERT_TRUE(rib.set_admin_distance("static", 130).ok());
  ASSERT_TRUE(rib.add_route("static", Route("10.0.7.0/24", "192.168.1.4")).ok());
  // An EGP route resolving through an ospf route moves to the covering static one when it goes.
  ASSERT_TRUE(rib.add_route("static", Route("10.0.0.0/16", "192.168.1.5")).ok());
  ASSERT_TRUE(rib.add_route("ebgp", Route("203.0.113.0/24", "10.0.9.9")).ok());
  sched.run_until_idle();
  rib.flush_fea();
  ASSERT_EQ(fea.table.size(), 103u);
  EXPECT_EQ(rib.lookup_route(P("203.0.113.0/24"))->resolved_via(), P("10.0.9.0/24"));

  ASSERT_TRUE(rib.remove_protocol("ospf").ok());
  EXPECT_EQ(rib.table("ospf"), nullptr);
  EXPECT_EQ(rib.removals_pending(), 1u);
  EXPECT_EQ(rib.add_route("ospf", Route("10.1.0.0/16", "192.168.1.2")).code(),
            StatusCode::kNotFound);
  // Until withdrawn, the held routes still answer; the removal takes many slices.
  EXPECT_EQ(rib.lookup_route(P("10.0.50.0/24"))->protocol(), "ospf");
  ASSERT_TRUE(sched.run_slice());
  ASSERT_TRUE(sched.run_slice());
  rib.flush_fea();
  EXPECT_GT(fea.table.size(), 4u);
  EXPECT_LT(fea.table.size(), 103u);
  EXPECT_GE(sched.run_until_idle(), 5u);
  rib.flush_fea();
  EXPECT_EQ(rib.removals_pending(), 0u);
  EXPECT_EQ(rib.merge_count(), base_merges + 1);
  EXPECT_TRUE(fea.errors.empty());
  // What is left: connected, static's two, rip's one, and ebgp re-resolved via static.
  ASSERT_EQ(fea.table.size(), 5u);
  EXPECT_EQ(fea.table[P("10.0.5.0/24")]->protocol(), "rip");
  EXPECT_EQ(fea.table[P("10.0.7.0/24")]->protocol(), "static");
  EXPECT_EQ(fea.table[P("203.0.113.0/24")]->resolved_via(), P("10.0.0.0/16"));
  // The pipeline is as if ospf had never been: rip's merge now sits on static's merge.
  std::vector<std::string> protocols = rib.protocols();
  EXPECT_EQ(std::count(protocols.begin(), protocols.end(), "ospf"), 0);

  // Removing rip too restores the original IGP tail.
  ASSERT_TRUE(rib.remove_protocol("rip").ok());
  sched.run_until_idle();
  rib.flush_fea();
  EXPECT_EQ(rib.ext_int().int_parent(), igp_tail);
  EXPECT_EQ(rib.merge_count(), base_merges);
  EXPECT_EQ(fea.table.size(), 4u);
  EXPECT_FALSE(fea.table.contains(P("10.0.5.0/24")));
  EXPECT_TRUE(fea.errors.empty());

  // The name can be registered again and works as a fresh table.
  ASSERT_TRUE(rib.add_protocol("ospf", ProtocolKind::kIgp).ok());
  ASSERT_TRUE(rib.add_route("ospf", Route("10.0.7.0/24", "192.168.1.2")).ok());
  rib.flush_fea();
  EXPECT_EQ(fea.table[P("10.0.7.0/24")]->protocol(), "ospf");
}

TEST(RibTest, RemovalRefusesBuiltInAndUnknownTables) {
  TaskScheduler sched;
  FakeFea fea;
  Rib rib(sched, fea);
  for (const char* p : {"connected", "static", "ebgp", "ibgp"}) {
    EXPECT_EQ(rib.remove_protocol(p).code(), StatusCode::kFailedPrecondition) << p;
    EXPECT_NE(rib.table(p), nullptr);
  }
  EXPECT_EQ(rib.remove_protocol("ospf").code(), StatusCode::kNotFound);
  // An empty table goes at once.
  ASSERT_TRUE(rib.add_protocol("ospf", ProtocolKind::kIgp).ok());
  ASSERT_TRUE(rib.remove_protocol("ospf").ok());
  EXPECT_EQ(rib.removals_pending(), 0u);
  EXPECT_EQ(rib.merge_count(), 2u);
  EXPECT_EQ(sched.pending(), 0u);
}

TEST(RibTest, ProtocolReRegisteredWhileItsOldTableIsStillWithdrawing) {
  TaskScheduler sched;
  FakeFea fea;
  Rib::Options opts;
  opts.slice_routes = 4;
  Rib rib(sched, fea, nullptr, opts);
  ASSERT_TRUE(rib.add_route("connected", Route("192.168.1.0/24", "192.168.1.1")).ok());
  ASSERT_TRUE(rib.add_protocol("ebgp2", ProtocolKind::kEgp, 30).ok());
  for (uint32_t i = 0; i < 40; ++i) {
    RibRoute r;
    r.prefix = IpPrefix(IpAddr::V4(0x20000000u + (i << 8)), 24);
    r.set_nexthop(A("192.168.1.7"));
    ASSERT_TRUE(rib.add_route("ebgp2", std::move(r)).ok());
  }
  // Also flap an earlier delete_all so the removed table has stacked deletion stages.
  ASSERT_TRUE(rib.delete_all_routes("ebgp2").ok());
  ASSERT_TRUE(rib.add_route("ebgp2", Route("32.0.1.0/24", "192.168.1.8")).ok());
  ASSERT_TRUE(rib.add_route("ebgp2", Route("33.0.0.0/24", "192.168.1.8")).ok());
  ASSERT_TRUE(rib.remove_protocol("ebgp2").ok());
  ASSERT_TRUE(rib.add_protocol("ebgp2", ProtocolKind::kEgp, 30).ok());
  ASSERT_TRUE(rib.add_route("ebgp2", Route("32.0.2.0/24", "192.168.1.9")).ok());
  ASSERT_TRUE(rib.add_route("ebgp2", Route("32.0.3.0/24", "192.168.1.9")).ok());
  sched.run_slice();
  rib.flush_fea();
  sched.run_until_idle();
  rib.flush_fea();
  EXPECT_TRUE(fea.errors.empty());
  EXPECT_EQ(rib.removals_pending(), 0u);
  ASSERT_EQ(fea.table.size(), 3u);
  EXPECT_EQ(fea.table[P("32.0.2.0/24")]->nexthop(), A("192.168.1.9"));
  EXPECT_EQ(rib.table("ebgp2")->size(), 2u);
  EXPECT_EQ(rib.merge_count(), 3u);
}

}  // namespace
}  // namespace strata::rib
