// strata-rib's service in one process (testing/rib/rib_service_fixture.h): routes in and out,
// bad input, tables, the FEA's batches, death and resync, connected routes, interest and
// redistribution. The restart protocol's side is in rib_service_restart_test.cc.
#include <gtest/gtest.h>

#include <optional>

#include "libipc/demo/test_service.h"
#include "testing/rib/rib_service_fixture.h"

namespace strata::rib {
namespace {

using namespace std::chrono_literals;
namespace rpb = strata::rib::v1;
namespace rcpb = strata::rib_client::v1;
using strata::test_util::A;
using strata::test_util::P;
using test_util::AddAddress;
using test_util::Entry;
using test_util::Ifc;
using test_util::RecordingClient;
using test_util::RibServiceTest;

TEST_F(RibServiceTest, AddsLooksUpAndListsRoutesOfBothFamilies) {
  ASSERT_TRUE(AddTable("ospf").ok());
  ASSERT_TRUE(
      AddRoutes("ospf", {Entry("10.0.0.0/8", "192.0.2.1", 5), Entry("2001:db8::/32", "fe80::1", 7)})
          .ok());
  ASSERT_TRUE(AddRoutes("static", {Entry("10.1.0.0/16", "192.0.2.9")}).ok());
  auto r = Lookup("10.2.3.4");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*ipc::PrefixFromProto(r->prefix(), "p"), P("10.0.0.0/8"));
  EXPECT_EQ(*ipc::AddrFromProto(r->nexthop(), "n"), A("192.0.2.1"));
  EXPECT_EQ(r->protocol(), "ospf");
  EXPECT_EQ(r->metric(), 5u);
  EXPECT_EQ(r->admin_distance(), 110u);
  EXPECT_EQ(Lookup("10.1.0.1")->protocol(), "static");
  EXPECT_EQ(Lookup("2001:db8::5")->metric(), 7u);
  EXPECT_FALSE(Lookup("11.0.0.1").has_value());

  rpb::LookupPrefixRequest exact;
  ipc::PrefixToProto(P("10.1.0.0/16"), exact.mutable_prefix());
  auto [s, rep] = Call<rpb::LookupPrefixRequest, rpb::LookupPrefixReply>("lookup_prefix", exact);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(rep.found());
  EXPECT_EQ(Routes(""), 3u);
  EXPECT_EQ(Routes("ospf"), 2u);

  rpb::ListRoutesRequest within;
  ipc::PrefixToProto(P("10.0.0.0/8"), within.mutable_within());
  auto [s2, listed] = Call<rpb::ListRoutesRequest, rpb::ListRoutesReply>("list_routes", within);
  ASSERT_TRUE(s2.ok());
  EXPECT_EQ(listed.routes_size(), 2);
}

TEST_F(RibServiceTest, BadInputGetsAnErrorAndChangesNothing) {
  ASSERT_TRUE(AddTable("ospf").ok());
  EXPECT_EQ(AddRoutes("nope", {Entry("10.0.0.0/8", "192.0.2.1")}).code(), StatusCode::kNotFound);
  // Nexthop of the other family, second in the batch: the first does not apply either.
  EXPECT_EQ(
      AddRoutes("ospf", {Entry("10.0.0.0/8", "192.0.2.1"), Entry("11.0.0.0/8", "::1")}).code(),
      StatusCode::kInvalidArgument);
  rpb::RouteEntry host_bits = Entry("12.0.0.0/8", "192.0.2.1");
  host_bits.mutable_prefix()->set_addr(std::string("\x0c\x00\x00\x01", 4));
  EXPECT_EQ(AddRoutes("ospf", {host_bits}).code(), StatusCode::kInvalidArgument);
  rpb::RouteEntry short_addr = Entry("12.0.0.0/8", "192.0.2.1");
  short_addr.mutable_prefix()->set_addr("abc");
  EXPECT_EQ(AddRoutes("ospf", {short_addr}).code(), StatusCode::kInvalidArgument);
  rpb::RouteEntry long_len = Entry("12.0.0.0/8", "192.0.2.1");
  long_len.mutable_prefix()->set_len(33);
  EXPECT_EQ(AddRoutes("ospf", {long_len}).code(), StatusCode::kInvalidArgument);
  rpb::RouteEntry no_nexthop = Entry("12.0.0.0/8", "192.0.2.1");
  no_nexthop.clear_nexthop();
  EXPECT_EQ(AddRoutes("ospf", {no_nexthop}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(DeleteRoutes("ospf", {"10.0.0.0/8"}).code(), StatusCode::kNotFound);
  EXPECT_EQ(Routes(""), 0u);

  // A duplicate inside one batch, and a delete batch with one unknown prefix.
  ASSERT_TRUE(AddRoutes("ospf", {Entry("10.0.0.0/8", "192.0.2.1")}).ok());
  EXPECT_EQ(AddRoutes("ospf", {Entry("13.0.0.0/8", "192.0.2.1"), Entry("13.0.0.0/8", "192.0.2.2")})
                .code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(DeleteRoutes("ospf", {"10.0.0.0/8", "14.0.0.0/8"}).code(), StatusCode::kNotFound);
  EXPECT_EQ(Routes("ospf"), 1u);

  rpb::AddOriginTableRequest bad_kind;
  bad_kind.set_protocol("x");
  EXPECT_EQ(
      (Call<rpb::AddOriginTableRequest, rpb::AddOriginTableReply>("add_origin_table", bad_kind)
           .first.code()),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(AddTable("x").code(), StatusCode::kInvalidArgument);  // no default distance
  EXPECT_EQ(AddTable("x", "", false, 256).code(), StatusCode::kInvalidArgument);
  rpb::LookupRouteRequest no_addr;
  EXPECT_EQ(
      (Call<rpb::LookupRouteRequest, rpb::LookupRouteReply>("lookup_route", no_addr).first.code()),
      StatusCode::kInvalidArgument);
}

TEST_F(RibServiceTest, ReplaceAndDeleteAndDeletedTableRefusesRoutes) {
  ASSERT_TRUE(AddTable("ospf").ok());
  ASSERT_TRUE(AddRoutes("ospf", {Entry("10.0.0.0/8", "192.0.2.1")}).ok());
  rpb::ReplaceRoutesRequest rep;
  rep.set_protocol("ospf");
  *rep.add_routes() = Entry("10.0.0.0/8", "192.0.2.2", 9);
  ASSERT_TRUE(
      (Call<rpb::ReplaceRoutesRequest, rpb::ReplaceRoutesReply>("replace_routes", rep).first.ok()));
  EXPECT_EQ(Lookup("10.0.0.1")->metric(), 9u);
  *rep.add_routes() = Entry("11.0.0.0/8", "192.0.2.2");
  EXPECT_EQ((Call<rpb::ReplaceRoutesRequest, rpb::ReplaceRoutesReply>("replace_routes", rep)
                 .first.code()),
            StatusCode::kNotFound);
  ASSERT_TRUE(DeleteRoutes("ospf", {"10.0.0.0/8"}).ok());
  EXPECT_FALSE(Lookup("10.0.0.1").has_value());

  ASSERT_TRUE(AddRoutes("ospf", {Entry("10.0.0.0/8", "192.0.2.1")}).ok());
  rpb::DeleteOriginTableRequest del;
  del.set_protocol("ospf");
  ASSERT_TRUE(
      (Call<rpb::DeleteOriginTableRequest, rpb::DeleteOriginTableReply>("delete_origin_table", del)
           .first.ok()));
  ASSERT_TRUE(RunUntil([&] { return !Lookup("10.0.0.1").has_value(); }));
  EXPECT_EQ(AddRoutes("ospf", {Entry("10.0.0.0/8", "192.0.2.1")}).code(), StatusCode::kNotFound);
  ASSERT_TRUE(AddTable("ospf").ok());  // registering again creates it anew
  EXPECT_TRUE(AddRoutes("ospf", {Entry("10.0.0.0/8", "192.0.2.1")}).ok());

  // A built-in table is only emptied and disabled; registering it again enables it.
  ASSERT_TRUE(AddRoutes("static", {Entry("11.0.0.0/8", "192.0.2.1")}).ok());
  del.set_protocol("static");
  ASSERT_TRUE(
      (Call<rpb::DeleteOriginTableRequest, rpb::DeleteOriginTableReply>("delete_origin_table", del)
           .first.ok()));
  ASSERT_TRUE(RunUntil([&] { return Routes("static") == 0; }));
  EXPECT_EQ(AddRoutes("static", {Entry("11.0.0.0/8", "192.0.2.1")}).code(), StatusCode::kNotFound);
  ASSERT_TRUE(AddTable("static").ok());
  EXPECT_TRUE(AddRoutes("static", {Entry("11.0.0.0/8", "192.0.2.1")}).ok());
}

TEST_F(RibServiceTest, DeletedRunTimeTableIsWithdrawnThenRemoved) {
  StartFea();
  ASSERT_TRUE(RunUntil([&] { return rib_->fea().ready(); }));
  const size_t base_merges = rib_->rib().merge_count();
  ASSERT_TRUE(AddTable("ospf").ok());
  ASSERT_TRUE(AddTable("rip").ok());
  std::vector<rpb::RouteEntry> batch;
  for (int i = 0; i < 3000; ++i) {
    batch.push_back(Entry("10." + std::to_string(i / 256) + "." + std::to_string(i % 256) + ".0/24",
                          "192.0.2.1"));
  }
  ASSERT_TRUE(AddRoutes("ospf", batch).ok());
  ASSERT_TRUE(AddRoutes("rip", {Entry("10.0.5.0/24", "192.0.2.2")}).ok());
  ASSERT_TRUE(RunUntil([&] { return FeaRoutes() == 3000; }));

  rpb::DeleteOriginTableRequest del;
  del.set_protocol("ospf");
  ASSERT_TRUE(
      (Call<rpb::DeleteOriginTableRequest, rpb::DeleteOriginTableReply>("delete_origin_table", del)
           .first.ok()));
  // The table is gone from the name space at once; its routes go in the background.
  auto [s, stats] = Call<rpb::GetStatsRequest, rpb::GetStatsReply>("get_stats", {});
  ASSERT_TRUE(s.ok());
  for (const auto& t : stats.tables()) EXPECT_NE(t.protocol(), "ospf");
  EXPECT_EQ(AddRoutes("ospf", {Entry("11.0.0.0/8", "192.0.2.1")}).code(), StatusCode::kNotFound);
  EXPECT_EQ(
      (Call<rpb::DeleteOriginTableRequest, rpb::DeleteOriginTableReply>("delete_origin_table", del)
           .first.code()),
      StatusCode::kNotFound);
  ASSERT_TRUE(RunUntil([&] { return FeaRoutes() == 1 && rib_->rib().removals_pending() == 0; }));
  EXPECT_EQ(rib_->rib().merge_count(), base_merges + 1);
  EXPECT_EQ(fea_->bad_changes, 0u);
  EXPECT_EQ(fea_->routes["red"].at(P("10.0.5.0/24")).protocol(), "rip");
  EXPECT_EQ(Lookup("10.0.5.1")->protocol(), "rip");
  EXPECT_FALSE(Lookup("10.0.6.1").has_value());
  // Registered again, it is a new table with the default distance.
  ASSERT_TRUE(AddTable("ospf").ok());
  ASSERT_TRUE(AddRoutes("ospf", {Entry("10.0.5.0/24", "192.0.2.3")}).ok());
  EXPECT_EQ(Lookup("10.0.5.1")->protocol(), "ospf");
  ASSERT_TRUE(
      RunUntil([&] { return fea_->routes["red"].at(P("10.0.5.0/24")).protocol() == "ospf"; }));
}

TEST_F(RibServiceTest, BatchesReachTheFeaAndItsDeathThenRebirthResyncs) {
  StartFea();
  ASSERT_TRUE(RunUntil([&] { return rib_->fea().ready(); }));
  EXPECT_EQ(fea_->add_vrs, std::vector<std::string>{"red"});
  ASSERT_TRUE(AddTable("ospf").ok());
  std::vector<rpb::RouteEntry> batch;
  for (int i = 0; i < 1000; ++i) {
    batch.push_back(Entry("10." + std::to_string(i / 256) + "." + std::to_string(i % 256) + ".0/24",
                          "192.0.2.1"));
  }
  ASSERT_TRUE(AddRoutes("ospf", batch).ok());
  ASSERT_TRUE(RunUntil([&] { return FeaRoutes() == 1000; }));
  EXPECT_GE(fea_->apply_calls, 10u);  // batches of at most 100
  EXPECT_EQ(fea_->bad_changes, 0u);
  const auto& c = fea_->routes["red"].at(P("10.0.0.0/24"));
  EXPECT_EQ(c.protocol(), "ospf");
  EXPECT_EQ(*ipc::AddrFromProto(c.nexthops(0).address(), "n"), A("192.0.2.1"));
  ASSERT_TRUE(DeleteRoutes("ospf", {"10.0.0.0/24"}).ok());
  ASSERT_TRUE(RunUntil([&] { return FeaRoutes() == 999; }));

  StopFea();
  ASSERT_TRUE(RunUntil([&] { return !rib_->fea().ready(); }));
  // The RIB keeps working while the FEA is away.
  ASSERT_TRUE(AddRoutes("static", {Entry("172.16.0.0/12", "192.0.2.7")}).ok());
  ASSERT_TRUE(DeleteRoutes("ospf", {"10.0.1.0/24"}).ok());
  EXPECT_EQ(Lookup("172.16.0.1")->protocol(), "static");

  StartFea();  // a new FEA with no state: the full table is sent again
  ASSERT_TRUE(RunUntil([&] { return fea_->end_resyncs == 1 && FeaRoutes() == 999; }));
  EXPECT_EQ(fea_->begin_resyncs, 1u);
  EXPECT_EQ(fea_->add_vrs, std::vector<std::string>{"red"});
  EXPECT_TRUE(fea_->routes["red"].contains(P("172.16.0.0/12")));
  EXPECT_FALSE(fea_->routes["red"].contains(P("10.0.1.0/24")));
  EXPECT_EQ(fea_->bad_changes, 0u);
}

// Static routes of every kind, as rtrmgr's template sends them (next hops all in
// multipath_nexthops, weights beside them, a type by its short name): the RIB lists them as
// given and the FEA gets weighted next hops, an interface without a gateway, and types with no
// next hop. Contradictions are refused whole.
TEST_F(RibServiceTest, StaticRoutesOfEveryKindReachTheFea) {
  StartFea();
  ASSERT_TRUE(RunUntil([&] { return rib_->fea().ready(); }));
  rpb::RouteEntry ecmp;
  ipc::PrefixToProto(P("10.0.0.0/8"), ecmp.mutable_prefix());
  ipc::AddrToProto(A("192.0.2.1"), ecmp.add_multipath_nexthops());
  ipc::AddrToProto(A("192.0.2.2"), ecmp.add_multipath_nexthops());
  ecmp.add_weights(2);
  ecmp.add_weights(1);
  ecmp.set_admin_distance(5);
  rpb::RouteEntry via_if;
  ipc::PrefixToProto(P("10.3.0.0/16"), via_if.mutable_prefix());
  via_if.set_interface("eth1");
  rpb::RouteEntry hole;
  ipc::PrefixToProto(P("10.1.0.0/16"), hole.mutable_prefix());
  hole.set_type(strata::common::v1::ROUTE_TYPE_BLACKHOLE);
  rpb::RouteEntry prohibit = hole;
  ipc::PrefixToProto(P("10.4.0.0/16"), prohibit.mutable_prefix());
  prohibit.set_type(strata::common::v1::ROUTE_TYPE_PROHIBIT);
  ASSERT_TRUE(AddRoutes("static", {ecmp, via_if, hole, prohibit}).ok());
  ASSERT_TRUE(RunUntil([&] { return FeaRoutes() == 4; }));
  EXPECT_EQ(fea_->bad_changes, 0u);

  const auto& e = fea_->routes["red"].at(P("10.0.0.0/8"));
  ASSERT_EQ(e.nexthops_size(), 2);
  EXPECT_EQ(*ipc::AddrFromProto(e.nexthops(0).address(), "n"), A("192.0.2.1"));
  EXPECT_EQ(e.nexthops(0).weight(), 2u);
  EXPECT_EQ(*ipc::AddrFromProto(e.nexthops(1).address(), "n"), A("192.0.2.2"));
  EXPECT_EQ(e.nexthops(1).weight(), 1u);
  EXPECT_EQ(e.admin_distance(), 5u);
  EXPECT_EQ(e.type(), strata::common::v1::ROUTE_TYPE_UNICAST);
  const auto& i = fea_->routes["red"].at(P("10.3.0.0/16"));
  ASSERT_EQ(i.nexthops_size(), 1);
  EXPECT_FALSE(i.nexthops(0).has_address());
  EXPECT_EQ(i.nexthops(0).interface(), "eth1");
  const auto& h = fea_->routes["red"].at(P("10.1.0.0/16"));
  EXPECT_EQ(h.type(), strata::common::v1::ROUTE_TYPE_BLACKHOLE);
  EXPECT_EQ(h.nexthops_size(), 0);
  EXPECT_EQ(fea_->routes["red"].at(P("10.4.0.0/16")).type(),
            strata::common::v1::ROUTE_TYPE_PROHIBIT);

  auto listed = Lookup("10.9.9.9");
  ASSERT_TRUE(listed.has_value());
  EXPECT_EQ(listed->weight(), 2u);
  ASSERT_EQ(listed->multipath_size(), 1);
  EXPECT_EQ(listed->multipath(0).weight(), 1u);
  EXPECT_EQ(listed->admin_distance(), 5u);
  EXPECT_EQ(Lookup("10.4.0.1")->type(), strata::common::v1::ROUTE_TYPE_PROHIBIT);

  // The static table's distance does not reach a route with its own.
  rpb::SetAdminDistanceRequest dist;
  dist.set_protocol("static");
  dist.set_admin_distance(7);
  ASSERT_TRUE(
      (Call<rpb::SetAdminDistanceRequest, rpb::SetAdminDistanceReply>("set_admin_distance", dist))
          .first.ok());
  ASSERT_TRUE(RunUntil([&] { return Lookup("10.1.0.1")->admin_distance() == 7u; }));
  EXPECT_EQ(Lookup("10.9.9.9")->admin_distance(), 5u);

  // Refused whole: a drop with a next hop, weights that do not match, a weight of 0, nothing.
  rpb::RouteEntry drop_with_hop = hole;
  ipc::PrefixToProto(P("10.5.0.0/16"), drop_with_hop.mutable_prefix());
  ipc::AddrToProto(A("192.0.2.1"), drop_with_hop.mutable_nexthop());
  rpb::RouteEntry bad_weights = ecmp;
  ipc::PrefixToProto(P("10.6.0.0/16"), bad_weights.mutable_prefix());
  bad_weights.add_weights(1);
  rpb::RouteEntry zero_weight = ecmp;
  ipc::PrefixToProto(P("10.7.0.0/16"), zero_weight.mutable_prefix());
  zero_weight.set_weights(0, 0);
  rpb::RouteEntry nothing;
  ipc::PrefixToProto(P("10.8.0.0/16"), nothing.mutable_prefix());
  for (const auto& bad : {drop_with_hop, bad_weights, zero_weight, nothing}) {
    EXPECT_EQ(AddRoutes("static", {Entry("172.20.0.0/16", "192.0.2.1"), bad}).code(),
              StatusCode::kInvalidArgument);
  }
  EXPECT_FALSE(Lookup("172.20.0.1").has_value());
}

TEST_F(RibServiceTest, ConnectedRoutesFollowTheFeasInterfaces) {
  fea_interfaces_ = {Ifc("eth0", true, "red", "192.168.1.1", 24),
                     Ifc("eth1", true, "blue", "192.168.2.1", 24)};
  StartFea();
  ASSERT_TRUE(RunUntil([&] { return Routes("connected") == 1; }));
  auto r = Lookup("192.168.1.77");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->protocol(), "connected");
  EXPECT_EQ(r->interface(), "eth0");
  ASSERT_TRUE(RunUntil([&] { return FeaRoutes() == 1; }))
      << "fea apply " << fea_->apply_calls << " begin " << fea_->begin_resyncs << " end "
      << fea_->end_resyncs << " state " << static_cast<int>(rib_->rib().fea().sync_state())
      << " queued " << rib_->rib().fea().queued() << " sent " << rib_->rib().fea().batches_sent()
      << " failures " << rib_->rib().fea().send_failures() << " inflight "
      << rib_->fea().in_flight();
  // Connected routes reach the FEA by interface, without a nexthop address.
  EXPECT_FALSE(fea_->routes["red"].at(P("192.168.1.0/24")).nexthops(0).has_address());

  fea_->send_interface(Ifc("eth0", false, "red", "192.168.1.1", 24));
  ASSERT_TRUE(RunUntil([&] { return Routes("connected") == 0; }));
  fea_->send_interface(Ifc("eth0", true, "red", "192.168.1.1", 24));
  ASSERT_TRUE(RunUntil([&] { return Routes("connected") == 1; }));
  fea_->send_interface(Ifc("eth0", true, "red", "192.168.1.1", 24), /*removed=*/true);
  ASSERT_TRUE(RunUntil([&] { return Routes("connected") == 0; }));
}

TEST_F(RibServiceTest, AFeaHoldingNothingGetsRoutesAsTheyCome) {
  StartFea();
  ASSERT_TRUE(AddRoutes("static", {Entry("11.0.0.0/8", "192.0.2.3")}).ok());
  ASSERT_TRUE(RunUntil([&] { return FeaRoutes() == 1; }));
  rpb::GetRestartStateRequest req;
  auto [s, rep] =
      Call<rpb::GetRestartStateRequest, rpb::GetRestartStateReply>("get_restart_state", req);
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(rep.recovering());
}

TEST_F(RibServiceTest, InterfacesChangedWhileTheFeaWasAwayAreResynchronised) {
  fea::v1::Interface eth0 = Ifc("eth0", true, "red", "192.168.1.1", 24);
  AddAddress(eth0, "10.1.1.1", 16);
  fea_interfaces_ = {eth0, Ifc("eth1", true, "blue", "192.168.2.1", 24),
                     Ifc("eth2", true, "red", "192.168.3.1", 24),
                     Ifc("eth5", true, "red", "192.168.5.1", 24)};
  StartFea();
  ASSERT_TRUE(RunUntil([&] { return Routes("connected") == 4 && FeaRoutes() == 4; }));
  ASSERT_TRUE(Lookup("192.168.3.9").has_value());

  StopFea();
  ASSERT_TRUE(RunUntil([&] { return !rib_->fea().ready(); }));
  // While the FEA is away: eth2 is deleted, eth0 loses 10.1.1.1/16 and gains 172.16.0.1/16,
  // eth5 moves to VR blue, and eth3 appears. No event tells the RIB about the removals.
  fea::v1::Interface eth0_now = Ifc("eth0", true, "red", "192.168.1.1", 24);
  AddAddress(eth0_now, "172.16.0.1", 16);
  fea_interfaces_ = {eth0_now, Ifc("eth1", true, "blue", "192.168.2.1", 24),
                     Ifc("eth3", true, "red", "192.168.4.1", 24),
                     Ifc("eth5", true, "blue", "192.168.5.1", 24)};
  StartFea();
  ASSERT_TRUE(RunUntil([&] { return fea_->end_resyncs >= 1 && fea_->list_interfaces_calls == 1; }));
  ASSERT_TRUE(RunUntil([&] {
    return Routes("connected") == 3 && FeaRoutes() == 3 && !Lookup("192.168.3.9").has_value();
  }));
  EXPECT_FALSE(Lookup("10.1.2.3").has_value());
  EXPECT_FALSE(Lookup("192.168.5.9").has_value());
  EXPECT_EQ(Lookup("172.16.9.9")->interface(), "eth0");
  EXPECT_EQ(Lookup("192.168.4.9")->interface(), "eth3");
  EXPECT_EQ(Lookup("192.168.1.9")->interface(), "eth0");
  const auto& fea_table = fea_->routes["red"];
  EXPECT_TRUE(fea_table.contains(P("172.16.0.0/16")));
  EXPECT_TRUE(fea_table.contains(P("192.168.4.0/24")));
  EXPECT_FALSE(fea_table.contains(P("192.168.3.0/24")));
  EXPECT_FALSE(fea_table.contains(P("10.1.0.0/16")));
  EXPECT_EQ(fea_->bad_changes, 0u);
  EXPECT_EQ(rib_->connected().resyncs(), 2u);
  // eth2 can only go by the re-sync; eth5 (moved to blue) by it or by its watch event.
  EXPECT_GE(rib_->connected().resync_removals(), 1u);

  // Events keep working after the re-sync.
  fea_->send_interface(Ifc("eth3", false, "red", "192.168.4.1", 24));
  ASSERT_TRUE(RunUntil([&] { return Routes("connected") == 2; }));
}

// The FEA refuses a route whose next hop is on no interface of the VR and names it: the rest of
// its batch goes in at once, and the RIB offers the refused route again, alone (no resync of the
// table), whenever the VR gains a connected subnet.
TEST_F(RibServiceTest, GainingASubnetReoffersTheRefusedRoutes) {
  fea_interfaces_ = {Ifc("eth0", true, "red", "192.168.1.1", 24)};
  StartFea();
  fea_->refuse_unreachable = true;
  // The FEA's birth resyncs, and so may the interface the watch reports: count from here.
  ASSERT_TRUE(RunUntil([&] { return fea_->end_resyncs >= 1 && FeaRoutes() == 1; }));
  Run(100ms);
  const size_t resyncs = fea_->end_resyncs;
  ASSERT_TRUE(AddTable("ospf").ok());
  ASSERT_TRUE(AddRoutes("ospf", {Entry("203.0.113.0/24", "10.0.0.2"),
                                 Entry("198.51.100.0/24", "192.168.1.2")})
                  .ok());
  ASSERT_TRUE(RunUntil([&] { return FeaRoutes() == 2; }));
  EXPECT_TRUE(fea_->routes["red"].contains(P("198.51.100.0/24")));
  EXPECT_FALSE(fea_->routes["red"].contains(P("203.0.113.0/24")));
  EXPECT_EQ(rib_->rib().fea().refused(), 1u);
  rpb::GetStatsRequest sreq;
  auto [ss, stats] = Call<rpb::GetStatsRequest, rpb::GetStatsReply>("get_stats", sreq);
  ASSERT_TRUE(ss.ok()) << ss.ToString();
  EXPECT_EQ(stats.fea_routes_refused(), 1u);
  EXPECT_EQ(stats.fea_refused_waiting(), 1u);
  const uint64_t gains = rib_->connected().subnet_gains();
  const size_t changes = fea_->changes;

  // An address added to an interface already in the VR: the refused route goes again, alone.
  fea::v1::Interface eth0 = Ifc("eth0", true, "red", "192.168.1.1", 24);
  AddAddress(eth0, "10.0.0.1", 24);
  fea_->send_interface(eth0);
  ASSERT_TRUE(RunUntil([&] { return FeaRoutes() == 4 && Routes("connected") == 2; }));
  EXPECT_TRUE(fea_->routes["red"].contains(P("203.0.113.0/24")));
  EXPECT_EQ(rib_->connected().subnet_gains(), gains + 1);
  EXPECT_EQ(fea_->changes, changes + 2);  // the new connected route and the refused one
  EXPECT_EQ(fea_->end_resyncs, resyncs);
  EXPECT_EQ(rib_->rib().fea().refused(), 0u);

  // Nothing refused is waiting: the link going down and up again re-sends nothing more.
  fea_->send_interface(Ifc("eth0", false, "red", "192.168.1.1", 24));
  ASSERT_TRUE(RunUntil([&] { return Routes("connected") == 0; }));
  fea_->send_interface(eth0);
  ASSERT_TRUE(RunUntil([&] { return Routes("connected") == 2; }));
  Run(100ms);
  EXPECT_EQ(rib_->connected().subnet_gains(), gains + 2);
  EXPECT_EQ(fea_->end_resyncs, resyncs);
  EXPECT_EQ(fea_->refused_batches, 1u);
}

TEST_F(RibServiceTest, InterestAndRedistributionReachTheClient) {
  extra_.push_back(std::make_unique<ipc::Router>(io_));
  RecordingClient client;
  extra_.back()->AddTarget("bgp", "bgp.red", false).Serve(client);
  StartAndWait(*extra_.back());
  ASSERT_TRUE(AddRoutes("static", {Entry("10.0.0.0/8", "192.0.2.1")}).ok());

  rpb::RegisterInterestRequest reg;
  reg.set_client("bgp.red");
  ipc::AddrToProto(A("10.1.1.1"), reg.mutable_addr());
  auto [s, rep] =
      Call<rpb::RegisterInterestRequest, rpb::RegisterInterestReply>("register_interest", reg);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(rep.resolves());
  EXPECT_EQ(*ipc::PrefixFromProto(rep.route().prefix(), "p"), P("10.0.0.0/8"));
  EXPECT_EQ(*ipc::PrefixFromProto(rep.valid(), "v"), P("10.0.0.0/8"));

  rpb::EnableRedistRequest redist;
  redist.set_client("bgp.red");
  redist.add_protocols("static");
  auto [s2, id] = Call<rpb::EnableRedistRequest, rpb::EnableRedistReply>("enable_redist", redist);
  ASSERT_TRUE(s2.ok()) << s2.ToString();
  ASSERT_TRUE(RunUntil([&] { return client.dump_done; }));
  EXPECT_EQ(client.added, std::vector<IpPrefix>{P("10.0.0.0/8")});

  // A more specific route overlays the registered answer and is redistributed.
  ASSERT_TRUE(AddRoutes("static", {Entry("10.1.0.0/16", "192.0.2.2")}).ok());
  ASSERT_TRUE(RunUntil([&] { return !client.invalidated.empty() && client.added.size() == 2; }));
  EXPECT_EQ(client.invalidated[0], P("10.0.0.0/8"));
  ASSERT_TRUE(DeleteRoutes("static", {"10.1.0.0/16"}).ok());
  ASSERT_TRUE(RunUntil([&] { return client.deleted.size() == 1; }));

  rpb::EnableRedistRequest bad = redist;
  bad.set_protocols(0, "nope");
  EXPECT_EQ(
      (Call<rpb::EnableRedistRequest, rpb::EnableRedistReply>("enable_redist", bad).first.code()),
      StatusCode::kNotFound);
  rpb::DisableRedistRequest off;
  off.set_id(id.id());
  EXPECT_TRUE(
      (Call<rpb::DisableRedistRequest, rpb::DisableRedistReply>("disable_redist", off).first.ok()));
  EXPECT_EQ((Call<rpb::DisableRedistRequest, rpb::DisableRedistReply>("disable_redist", off)
                 .first.code()),
            StatusCode::kNotFound);
}

}  // namespace
}  // namespace strata::rib
