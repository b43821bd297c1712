// strata-rib in one process: a FinderServer, the RIB (RibProcess on its own Router), a protocol
// client, a fake FEA and a fake RIB client, each on a Router of its own, so calls cross sockets.
#include <gtest/gtest.h>

#include <optional>

#include "libipc/demo/test_service.h"
#include "libipc/interfaces/rib_client.strata.h"
#include "libipc/run_until.h"
#include "rib/process/proto_convert.h"
#include "rib/process/rib_process.h"
#include "testing/finder/test_finder.h"
#include "testing/rib/fake_fea.h"

namespace strata::rib {
namespace {

using namespace std::chrono_literals;
namespace rpb = strata::rib::v1;
namespace rcpb = strata::rib_client::v1;

// Records what the RIB sends to a client.
class RecordingClient : public rcpb::RibClientHandler {
 public:
  void InterestInvalidated(const rcpb::InterestInvalidatedRequest& r,
                           ipc::Responder<rcpb::InterestInvalidatedReply> reply) override {
    invalidated.push_back(*ipc::PrefixFromProto(r.valid(), "valid"));
    reply(rcpb::InterestInvalidatedReply());
  }
  void RedistAdd(const rcpb::RedistAddRequest& r,
                 ipc::Responder<rcpb::RedistAddReply> reply) override {
    for (const auto& route : r.routes())
      added.push_back(*ipc::PrefixFromProto(route.prefix(), "p"));
    reply(rcpb::RedistAddReply());
  }
  void RedistDelete(const rcpb::RedistDeleteRequest& r,
                    ipc::Responder<rcpb::RedistDeleteReply> reply) override {
    for (const auto& route : r.routes())
      deleted.push_back(*ipc::PrefixFromProto(route.prefix(), "p"));
    reply(rcpb::RedistDeleteReply());
  }
  void RedistDumpDone(const rcpb::RedistDumpDoneRequest&,
                      ipc::Responder<rcpb::RedistDumpDoneReply> reply) override {
    dump_done = true;
    reply(rcpb::RedistDumpDoneReply());
  }
  std::vector<IpPrefix> invalidated, added, deleted;
  bool dump_done = false;
};

IpPrefix P(std::string_view s) { return *IpPrefix::Parse(s); }
IpAddr A(std::string_view s) { return *IpAddr::Parse(s); }

rpb::RouteEntry Entry(std::string_view prefix, std::string_view nexthop, uint32_t metric = 0) {
  rpb::RouteEntry e;
  ipc::PrefixToProto(P(prefix), e.mutable_prefix());
  ipc::AddrToProto(A(nexthop), e.mutable_nexthop());
  e.set_metric(metric);
  return e;
}

class RibServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    finder_ = std::make_unique<finder::TestFinder>(io_, "strata-rib-test");
    ASSERT_TRUE(finder_->status().ok());
    rib_router_ = std::make_unique<ipc::Router>(io_);
    RibProcess::Options opts;
    opts.vr = "red";
    opts.restart_timeout = 300ms;
    opts.max_restart_deferral = 2500ms;
    opts.rib.fea.max_batch = 100;
    Configure(opts);
    rib_ = std::make_unique<RibProcess>(*rib_router_, opts);
    rib_->AddTarget();
    StartAndWait(*rib_router_);
    rib_->Started();
    client_ = std::make_unique<ipc::Router>(io_);
    StartAndWait(*client_);
  }
  // Lets a derived fixture change the RIB's options.
  virtual void Configure(RibProcess::Options& /*opts*/) {}
  void TearDown() override {
    fea_.reset();
    fea_router_.reset();
    rib_.reset();
    rib_router_.reset();
    client_.reset();
    extra_.clear();
    finder_.reset();
    io_.poll();
  }

  template <typename Pred>
  bool RunUntil(Pred done, std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) {
    return ipc::RunUntil(io_, done, limit);
  }
  void Run(std::chrono::milliseconds d) {
    const auto end = std::chrono::steady_clock::now() + d;
    while (std::chrono::steady_clock::now() < end) io_.run_one_for(5ms);
  }
  void StartAndWait(ipc::Router& r) {
    std::optional<Status> started;
    r.Start([&](const Status& s) { started = s; });
    ASSERT_TRUE(RunUntil([&] { return started.has_value(); }));
    ASSERT_TRUE(started->ok()) << started->ToString();
  }

  template <typename Req, typename Rep>
  std::pair<Status, Rep> Call(const std::string& method, const Req& req) {
    std::optional<std::pair<Status, Rep>> result;
    client_->Call<Req, Rep>("rib.red", "rib/1.0/" + method, req,
                            [&](const Status& s, const Rep& rep) { result.emplace(s, rep); });
    EXPECT_TRUE(RunUntil([&] { return result.has_value(); }));
    return result.value_or(std::make_pair(Internal("no answer"), Rep()));
  }

  Status AddTable(const std::string& protocol, const std::string& owner = "", bool graceful = false,
                  std::optional<uint32_t> distance = std::nullopt, uint32_t restart_time_s = 0,
                  uint32_t selection_deferral_s = 0) {
    rpb::AddOriginTableRequest req;
    req.set_selection_deferral_s(selection_deferral_s);
    req.set_protocol(protocol);
    req.set_kind(rpb::PROTOCOL_KIND_IGP);
    req.set_owner(owner);
    req.set_graceful_restart(graceful);
    req.set_restart_time_s(restart_time_s);
    if (distance) req.set_admin_distance(*distance);
    return Call<rpb::AddOriginTableRequest, rpb::AddOriginTableReply>("add_origin_table", req)
        .first;
  }
  Status AddRoutes(const std::string& protocol, std::vector<rpb::RouteEntry> routes) {
    rpb::AddRoutesRequest req;
    req.set_protocol(protocol);
    for (auto& r : routes) *req.add_routes() = r;
    return Call<rpb::AddRoutesRequest, rpb::AddRoutesReply>("add_routes", req).first;
  }
  Status DeleteRoutes(const std::string& protocol, std::vector<std::string> prefixes) {
    rpb::DeleteRoutesRequest req;
    req.set_protocol(protocol);
    for (auto& p : prefixes) ipc::PrefixToProto(P(p), req.add_prefixes());
    return Call<rpb::DeleteRoutesRequest, rpb::DeleteRoutesReply>("delete_routes", req).first;
  }
  std::optional<rpb::Route> Lookup(std::string_view addr) {
    rpb::LookupRouteRequest req;
    ipc::AddrToProto(A(addr), req.mutable_addr());
    auto [s, rep] = Call<rpb::LookupRouteRequest, rpb::LookupRouteReply>("lookup_route", req);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!rep.found()) return std::nullopt;
    return rep.route();
  }
  size_t Routes(const std::string& protocol) {
    rpb::ListRoutesRequest req;
    req.set_protocol(protocol);
    auto [s, rep] = Call<rpb::ListRoutesRequest, rpb::ListRoutesReply>("list_routes", req);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return static_cast<size_t>(rep.routes_size());
  }

  void StartFea() {
    fea_router_ = std::make_unique<ipc::Router>(io_);
    fea_ = std::make_unique<FakeFea>(*fea_router_);
    for (const auto& ifc : fea_interfaces_) fea_->set_interface(ifc);
    fea_router_->AddTarget("fea", "fea", true).Serve(*fea_);
    StartAndWait(*fea_router_);
  }
  void StopFea() {
    fea_router_->Stop();
    fea_router_.reset();
    fea_.reset();
  }
  size_t FeaRoutes() { return fea_ ? fea_->routes["red"].size() : 0; }

  boost::asio::io_context io_{1};
  std::unique_ptr<finder::TestFinder> finder_;
  std::unique_ptr<ipc::Router> rib_router_;
  std::unique_ptr<RibProcess> rib_;
  std::unique_ptr<ipc::Router> client_;
  std::unique_ptr<ipc::Router> fea_router_;
  std::unique_ptr<FakeFea> fea_;
  std::vector<fea::v1::Interface> fea_interfaces_;
  std::vector<std::unique_ptr<ipc::Router>> extra_;
};

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

fea::v1::Interface Ifc(const std::string& name, bool up, const std::string& vr,
                       const std::string& addr, uint32_t len) {
  fea::v1::Interface ifc;
  ifc.set_name(name);
  ifc.set_up(up);
  ifc.set_vr(vr);
  auto* a = ifc.add_addresses();
  ipc::AddrToProto(A(addr), a->mutable_address());
  common::v1::IpAddress bytes;
  ipc::AddrToProto(A(addr), &bytes);
  a->mutable_prefix()->set_addr(bytes.addr());  // the address with host bits, as the FEA sends
  a->mutable_prefix()->set_len(len);
  return ifc;
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

// Adds one more address (with host bits, as the FEA sends it) to an interface.
void AddAddress(fea::v1::Interface& ifc, const std::string& addr, uint32_t len) {
  auto* a = ifc.add_addresses();
  ipc::AddrToProto(A(addr), a->mutable_address());
  common::v1::IpAddress bytes;
  ipc::AddrToProto(A(addr), &bytes);
  a->mutable_prefix()->set_addr(bytes.addr());
  a->mutable_prefix()->set_len(len);
}

// A RIB that starts while the FEA holds routes of its VR (the RIB restarted; or the FEA adopted
// them from the kernel) keeps its routes back until its table is complete, then sends it as one
// resync: the FEA removes only what is really gone (docs/restart.md).
class RibRecoveryTest : public RibServiceTest {
 protected:
  void Configure(RibProcess::Options& opts) override {
    opts.await_config = true;
    opts.recovery_time = 60s;  // only the calls end the wait here
  }
  // The FEA, holding two routes of VR red from the RIB's earlier life.
  void StartFeaHolding() {
    fea_interfaces_ = {Ifc("eth0", true, "red", "192.168.1.1", 24)};
    StartFea();
    for (const char* p : {"10.0.0.0/8", "12.0.0.0/8"}) {
      fea::v1::RouteChange c;
      c.set_op(fea::v1::OP_ADD);
      ipc::PrefixToProto(P(p), c.mutable_prefix());
      ipc::AddrToProto(A("192.168.1.2"), c.add_nexthops()->mutable_address());
      fea_->routes["red"][P(p)] = c;
    }
  }
  rpb::GetStatsReply Stats() {
    return Call<rpb::GetStatsRequest, rpb::GetStatsReply>("get_stats", rpb::GetStatsRequest())
        .second;
  }
  Status Done(const std::string& protocol) {
    rpb::GracefulRestartDoneRequest done;
    done.set_protocol(protocol);
    return Call<rpb::GracefulRestartDoneRequest, rpb::GracefulRestartDoneReply>(
               "graceful_restart_done", done)
        .first;
  }
};

TEST_F(RibRecoveryTest, RoutesWaitForTheConfigurationTheConnectedRoutesAndEveryOwner) {
  extra_.push_back(std::make_unique<ipc::Router>(io_));
  ipc::TestService svc(io_);
  extra_.back()->AddTarget("test", "proto1", false).Serve(svc);
  StartAndWait(*extra_.back());
  StartFeaHolding();
  ASSERT_TRUE(RunUntil([&] { return Stats().recovering(); }));
  // The FEA's routes are claimed at once, for longer than the recovery time.
  ASSERT_TRUE(RunUntil([&] { return fea_->begin_resyncs == 1; }));
  EXPECT_GT(fea_->begin_resync_holds.at(0), 60000u);
  ASSERT_TRUE(RunUntil([&] { return Routes("connected") == 1; }));
  // The owner re-sends 10/8 (12/8 was withdrawn while the RIB was away); the rtrmgr's replay
  // adds a static route and names the owner.
  ASSERT_TRUE(AddTable("ospf", "proto1", /*graceful=*/true).ok());
  ASSERT_TRUE(AddRoutes("ospf", {Entry("10.0.0.0/8", "192.168.1.2")}).ok());
  ASSERT_TRUE(AddRoutes("static", {Entry("11.0.0.0/8", "192.168.1.3")}).ok());
  rpb::ConfigCompleteRequest cc;
  cc.add_owners("proto1");
  ASSERT_TRUE((Call<rpb::ConfigCompleteRequest, rpb::ConfigCompleteReply>("config_complete", cc))
                  .first.ok());
  const rpb::GetStatsReply waiting = Stats();
  EXPECT_FALSE(waiting.table_complete());
  ASSERT_EQ(waiting.awaiting_size(), 1);
  EXPECT_EQ(waiting.awaiting(0), "owner proto1");
  EXPECT_GT(waiting.recovery_remaining_ms(), 0u);
  Run(100ms);
  EXPECT_EQ(fea_->apply_calls, 0u) << "nothing partial reaches the FEA";
  EXPECT_EQ(FeaRoutes(), 2u);

  ASSERT_TRUE(Done("ospf").ok());
  ASSERT_TRUE(RunUntil([&] { return fea_->end_resyncs == 1; }));
  EXPECT_EQ(Stats().completed_how(), "every owner re-sent its routes");
  EXPECT_FALSE(Stats().recovering());
  // Exactly the table now: the withdrawn route went, nothing else did.
  ASSERT_TRUE(RunUntil([&] { return FeaRoutes() == 3; }));
  EXPECT_TRUE(fea_->routes["red"].contains(P("10.0.0.0/8")));
  EXPECT_TRUE(fea_->routes["red"].contains(P("11.0.0.0/8")));
  EXPECT_TRUE(fea_->routes["red"].contains(P("192.168.1.0/24")));
  EXPECT_EQ(fea_->bad_changes, 0u);
}

// While recovering, next-hop answers wait for the connected and static routes: a BGP next hop
// answered "unreachable" before they are back would withdraw routes that stay valid.
TEST_F(RibRecoveryTest, InterestAnswersWaitForTheIgpSide) {
  StartFeaHolding();
  ASSERT_TRUE(RunUntil([&] { return Stats().recovering(); }));
  std::optional<std::pair<Status, rpb::RegisterInterestReply>> answer;
  rpb::RegisterInterestRequest reg;
  reg.set_client("bgp.red");
  ipc::AddrToProto(A("192.168.1.7"), reg.mutable_addr());
  client_->Call<rpb::RegisterInterestRequest, rpb::RegisterInterestReply>(
      "rib.red", "rib/1.0/register_interest", reg,
      [&](const Status& s, const rpb::RegisterInterestReply& r) { answer.emplace(s, r); });
  ASSERT_TRUE(RunUntil([&] { return Routes("connected") == 1; }));
  Run(100ms);
  EXPECT_FALSE(answer.has_value()) << "the static routes are not replayed yet";
  ASSERT_TRUE((Call<rpb::ConfigCompleteRequest, rpb::ConfigCompleteReply>(
                   "config_complete", rpb::ConfigCompleteRequest()))
                  .first.ok());
  ASSERT_TRUE(RunUntil([&] { return answer.has_value(); }));
  ASSERT_TRUE(answer->first.ok()) << answer->first.ToString();
  EXPECT_TRUE(answer->second.resolves());
}

TEST_F(RibRecoveryTest, GetRestartStateWaitsForTheFeasAnswer) {
  std::optional<std::pair<Status, rpb::GetRestartStateReply>> state;
  rpb::GetRestartStateRequest req;
  req.add_protocols("ebgp");
  client_->Call<rpb::GetRestartStateRequest, rpb::GetRestartStateReply>(
      "rib.red", "rib/1.0/get_restart_state", req,
      [&](const Status& s, const rpb::GetRestartStateReply& r) { state.emplace(s, r); });
  Run(100ms);
  EXPECT_FALSE(state.has_value()) << "no FEA yet: the RIB cannot tell";
  StartFeaHolding();
  ASSERT_TRUE(RunUntil([&] { return state.has_value(); }));
  ASSERT_TRUE(state->first.ok()) << state->first.ToString();
  EXPECT_TRUE(state->second.recovering());
  EXPECT_EQ(state->second.stale_routes(), 0u);
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

TEST_F(RibServiceTest, OwnerDeathWithdrawsItsRoutes) {
  extra_.push_back(std::make_unique<ipc::Router>(io_));
  ipc::TestService svc(io_);
  extra_.back()->AddTarget("test", "proto1", false).Serve(svc);
  StartAndWait(*extra_.back());
  ASSERT_TRUE(AddTable("ospf", "proto1").ok());
  ASSERT_TRUE(AddRoutes("ospf", {Entry("10.0.0.0/8", "192.0.2.1")}).ok());
  extra_.back()->Stop();
  ASSERT_TRUE(RunUntil([&] { return Routes("ospf") == 0; }));
  EXPECT_FALSE(Lookup("10.0.0.1").has_value());
}

TEST_F(RibServiceTest, GracefulRestartKeepsRoutesStaleThenSweeps) {
  extra_.push_back(std::make_unique<ipc::Router>(io_));
  ipc::TestService svc(io_);
  extra_.back()->AddTarget("test", "proto1", false).Serve(svc);
  StartAndWait(*extra_.back());
  ASSERT_TRUE(AddTable("ospf", "proto1", /*graceful=*/true).ok());
  ASSERT_TRUE(AddRoutes("ospf", {Entry("10.0.0.0/8", "192.0.2.1"), Entry("11.0.0.0/8", "192.0.2.1"),
                                 Entry("12.0.0.0/8", "192.0.2.1")})
                  .ok());
  extra_.back()->Stop();
  rpb::ListRoutesRequest req;
  req.set_protocol("ospf");
  ASSERT_TRUE(RunUntil([&] {
    auto [s, rep] = Call<rpb::ListRoutesRequest, rpb::ListRoutesReply>("list_routes", req);
    return rep.routes_size() == 3 && rep.routes(0).stale();
  }));
  // The restarted protocol registers again, re-announces one route and says it is done.
  ASSERT_TRUE(AddTable("ospf", "proto1", true).ok());
  ASSERT_TRUE(AddRoutes("ospf", {Entry("11.0.0.0/8", "192.0.2.1")}).ok());
  rpb::GracefulRestartDoneRequest done;
  done.set_protocol("ospf");
  auto [s, rep] = Call<rpb::GracefulRestartDoneRequest, rpb::GracefulRestartDoneReply>(
      "graceful_restart_done", done);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(RunUntil([&] { return Routes("ospf") == 1; }));
  EXPECT_TRUE(Lookup("11.0.0.1").has_value());
  EXPECT_FALSE(Lookup("10.0.0.1").has_value());
}

TEST_F(RibServiceTest, GracefulRestartTimerSweeps) {
  extra_.push_back(std::make_unique<ipc::Router>(io_));
  ipc::TestService svc(io_);
  extra_.back()->AddTarget("test", "proto1", false).Serve(svc);
  StartAndWait(*extra_.back());
  ASSERT_TRUE(AddTable("ospf", "proto1", true).ok());
  ASSERT_TRUE(AddRoutes("ospf", {Entry("10.0.0.0/8", "192.0.2.1")}).ok());
  extra_.back()->Stop();
  Run(100ms);
  EXPECT_EQ(Routes("ospf"), 1u);  // the timer is 300 ms here
  ASSERT_TRUE(RunUntil([&] { return Routes("ospf") == 0; }, 3000ms));
}

uint32_t TableRestartTime(const rpb::GetStatsReply& stats, const std::string& protocol) {
  for (const auto& t : stats.tables()) {
    if (t.protocol() == protocol) return t.restart_time_s();
  }
  return 0;
}

// The owner's own restart time (1 s here) outlasts the RIB's default (300 ms here).
TEST_F(RibServiceTest, GracefulRestartUsesTheOwnersRestartTime) {
  extra_.push_back(std::make_unique<ipc::Router>(io_));
  ipc::TestService svc(io_);
  extra_.back()->AddTarget("test", "proto1", false).Serve(svc);
  StartAndWait(*extra_.back());
  ASSERT_TRUE(AddTable("ospf", "proto1", true, std::nullopt, /*restart_time_s=*/1).ok());
  auto [s, stats] = Call<rpb::GetStatsRequest, rpb::GetStatsReply>("get_stats", {});
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(TableRestartTime(stats, "ospf"), 1u);
  ASSERT_TRUE(AddRoutes("ospf", {Entry("10.0.0.0/8", "192.0.2.1")}).ok());
  const auto died = std::chrono::steady_clock::now();
  extra_.back()->Stop();
  Run(600ms);
  EXPECT_EQ(Routes("ospf"), 1u);  // past the default: still kept, stale
  EXPECT_TRUE(Lookup("10.0.0.1").has_value());
  ASSERT_TRUE(RunUntil([&] { return Routes("ospf") == 0; }, 3000ms));
  EXPECT_GE(std::chrono::steady_clock::now() - died, 900ms);
}

// 0 (or an owner that says nothing) means the RIB's --restart-timeout.
TEST_F(RibServiceTest, GracefulRestartTimeZeroFallsBackToTheDefault) {
  extra_.push_back(std::make_unique<ipc::Router>(io_));
  ipc::TestService svc(io_);
  extra_.back()->AddTarget("test", "proto1", false).Serve(svc);
  StartAndWait(*extra_.back());
  ASSERT_TRUE(AddTable("ospf", "proto1", true, std::nullopt, /*restart_time_s=*/0).ok());
  auto [s, stats] = Call<rpb::GetStatsRequest, rpb::GetStatsReply>("get_stats", {});
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(TableRestartTime(stats, "ospf"), 0u);  // 300 ms, shown in whole seconds
  ASSERT_TRUE(AddRoutes("ospf", {Entry("10.0.0.0/8", "192.0.2.1")}).ok());
  const auto died = std::chrono::steady_clock::now();
  extra_.back()->Stop();
  ASSERT_TRUE(RunUntil([&] { return Routes("ospf") == 0; }, 3000ms));
  EXPECT_LT(std::chrono::steady_clock::now() - died, 900ms);
}

const rpb::TableStats* FindTable(const rpb::GetStatsReply& stats, const std::string& protocol) {
  for (const auto& t : stats.tables()) {
    if (t.protocol() == protocol) return &t;
  }
  return nullptr;
}

// The owner of "ospf" (graceful restart, the RIB's 300 ms restart timeout) with two routes,
// killed: its routes are stale and the restart timer runs.
class OwnerRestartTest : public RibServiceTest {
 protected:
  void KillOwnerWithRoutes() {
    extra_.push_back(std::make_unique<ipc::Router>(io_));
    extra_.back()->AddTarget("test", "proto1", false).Serve(svc_);
    StartAndWait(*extra_.back());
    ASSERT_TRUE(AddTable("ospf", "proto1", /*graceful=*/true).ok());
    ASSERT_TRUE(
        AddRoutes("ospf", {Entry("10.0.0.0/8", "192.0.2.1"), Entry("11.0.0.0/8", "192.0.2.1")})
            .ok());
    extra_.back()->Stop();
    ASSERT_TRUE(RunUntil([&] { return Stats().restarting(); }));
    died_ = std::chrono::steady_clock::now();
  }
  rpb::TableStats Stats() {
    auto [s, stats] = Call<rpb::GetStatsRequest, rpb::GetStatsReply>("get_stats", {});
    EXPECT_TRUE(s.ok()) << s.ToString();
    const rpb::TableStats* t = FindTable(stats, "ospf");
    return t ? *t : rpb::TableStats();
  }
  std::chrono::milliseconds SinceDeath() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 died_);
  }
  ipc::TestService svc_{io_};
  std::chrono::steady_clock::time_point died_;
};

// The owner comes back and defers its selection 1 s: the 300 ms timer is replaced by one of
// 1 s + 300 ms, so the stale routes outlive the old timer and wait for restart_done.
TEST_F(OwnerRestartTest, ReturningOwnersDeferralReplacesTheRestartTimer) {
  KillOwnerWithRoutes();
  EXPECT_EQ(Stats().stale(), 2u);
  ASSERT_TRUE(AddTable("ospf", "proto1", true, std::nullopt, 0, /*selection_deferral_s=*/1).ok());
  const rpb::TableStats t = Stats();
  EXPECT_TRUE(t.restarting());
  EXPECT_EQ(t.restart_remaining_s(), 2u);  // 1.3 s, rounded up
  Run(700ms);
  EXPECT_EQ(Routes("ospf"), 2u);  // past the RIB's 300 ms: still kept, stale
  EXPECT_TRUE(Lookup("10.0.0.1").has_value());
  EXPECT_EQ(Stats().stale(), 2u);
  // The owner re-announces one route and is done: the other goes, the timer with it.
  ASSERT_TRUE(AddRoutes("ospf", {Entry("11.0.0.0/8", "192.0.2.1")}).ok());
  rpb::GracefulRestartDoneRequest done;
  done.set_protocol("ospf");
  auto [s, rep] = Call<rpb::GracefulRestartDoneRequest, rpb::GracefulRestartDoneReply>(
      "graceful_restart_done", done);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(rep.swept(), 1u);
  EXPECT_EQ(Routes("ospf"), 1u);
  EXPECT_FALSE(Stats().restarting());
  Run(800ms);  // past the replaced timer: nothing more goes
  EXPECT_EQ(Routes("ospf"), 1u);
  EXPECT_TRUE(Lookup("11.0.0.1").has_value());
}

// Without restart_done the replaced timer still sweeps, at deferral + restart time.
TEST_F(OwnerRestartTest, ReplacedTimerSweepsWhenTheOwnerNeverSaysDone) {
  KillOwnerWithRoutes();
  ASSERT_TRUE(AddTable("ospf", "proto1", true, std::nullopt, 0, /*selection_deferral_s=*/1).ok());
  ASSERT_TRUE(RunUntil([&] { return Routes("ospf") == 0; }, 4000ms));
  EXPECT_GE(SinceDeath(), 1200ms);
  EXPECT_FALSE(Stats().restarting());
}

// The deferral is bounded by --max-restart-deferral (2.5 s here), however long the owner asks.
TEST_F(OwnerRestartTest, DeferralIsBoundedByTheRibsMaximum) {
  KillOwnerWithRoutes();
  ASSERT_TRUE(AddTable("ospf", "proto1", true, std::nullopt, 0, /*selection_deferral_s=*/600).ok());
  EXPECT_EQ(Stats().restart_remaining_s(), 3u);  // 2.5 s, rounded up
  ASSERT_TRUE(RunUntil([&] { return Routes("ospf") == 0; }, 5000ms));
  EXPECT_GE(SinceDeath(), 2400ms);
  EXPECT_LT(SinceDeath(), 4500ms);
}

// Registering again without a deferral (or outside a restart) leaves the timer as it was.
TEST_F(OwnerRestartTest, RegistrationWithoutDeferralKeepsTheTimer) {
  ASSERT_TRUE(AddTable("ospf", "proto1", true, std::nullopt, 0, /*selection_deferral_s=*/5).ok());
  EXPECT_FALSE(Stats().restarting());  // no restart in progress: nothing to defer
  KillOwnerWithRoutes();
  ASSERT_TRUE(AddTable("ospf", "proto1", true).ok());
  ASSERT_TRUE(RunUntil([&] { return Routes("ospf") == 0; }, 3000ms));
  EXPECT_LT(SinceDeath(), 1000ms);
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
