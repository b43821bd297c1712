// FeaService over IPC, in one process: a Finder, the FEA's Router serving fea/1.0 with a fake
// kernel, and a client Router that also serves fea_client/1.0 to watch interfaces.
#include "fea/fea_service.h"

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "libipc/run_until.h"
#include "testing/fea/fake_link_kernel.h"
#include "testing/fea/fake_route_kernel.h"
#include "testing/finder/test_finder.h"

namespace strata::fea {
namespace {

using namespace std::chrono_literals;
namespace fcpb = strata::fea_client::v1;

IpAddr A(const char* s) { return IpAddr::Parse(s).value(); }
IpPrefix P(const char* s) { return IpPrefix::Parse(s).value(); }

void SetAddr(const char* s, common::v1::IpAddress* out) {
  const IpAddr a = A(s);
  auto b = a.bytes();
  out->set_addr(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
}

v1::RouteChange Change(v1::Op op, const char* prefix, int len, const char* via) {
  v1::RouteChange c;
  c.set_op(op);
  const IpAddr a = A(prefix);
  auto b = a.bytes();
  c.mutable_prefix()->set_addr(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
  c.mutable_prefix()->set_len(static_cast<uint32_t>(len));
  if (via != nullptr) SetAddr(via, c.add_nexthops()->mutable_address());
  c.set_protocol("static");
  return c;
}

class Recorder : public fcpb::FeaClientHandler {
 public:
  void InterfaceEvent(const fcpb::InterfaceEventRequest& req,
                      ipc::Responder<fcpb::InterfaceEventReply> reply) override {
    events.push_back(req);
    reply(fcpb::InterfaceEventReply());
  }
  std::vector<fcpb::InterfaceEventRequest> events;
};

class FeaServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    finder_ = std::make_unique<finder::TestFinder>(io_, "strata-fea-service-test");
    ASSERT_TRUE(finder_->status().ok());
    ifs_.UpdateLink({3, "r0", true, true, 1500, std::nullopt});
    ifs_.AddAddress({3, A("10.0.0.1"), 24});
    fea_router_ = std::make_unique<ipc::Router>(io_);
    service_ = std::make_unique<FeaService>(io_, *fea_router_, ifs_, vrs_, kr_, recovery_);
    fea_router_->AddTarget("fea", "fea", true).Serve(*service_);
    Start(*fea_router_);
    client_ = std::make_unique<ipc::Router>(io_);
    client_->AddTarget("rib", "rib.red", false).Serve(recorder_);
    Start(*client_);
    fea_ = std::make_unique<v1::FeaClient>(*client_, "fea");
  }
  void TearDown() override {
    fea_.reset();
    client_.reset();
    fea_router_.reset();
    service_.reset();
    finder_.reset();
    io_.poll();
  }
  template <typename Pred>
  bool RunUntil(Pred done) {
    return ipc::RunUntil(io_, done);
  }
  void Start(ipc::Router& r) {
    std::optional<Status> s;
    r.Start([&](const Status& st) { s = st; });
    ASSERT_TRUE(RunUntil([&] { return s.has_value(); }));
    ASSERT_TRUE(s->ok()) << s->ToString();
  }
  // Calls a FeaClient method and waits for its answer.
  template <typename Rep, typename Fn>
  std::pair<Status, Rep> Wait(Fn call) {
    std::optional<std::pair<Status, Rep>> out;
    call([&](const Status& s, const Rep& r) { out.emplace(s, r); });
    EXPECT_TRUE(RunUntil([&] { return out.has_value(); }));
    return out.value_or(std::make_pair(Internal("no answer"), Rep()));
  }
  Status AddVr(const std::string& vr, uint32_t table) {
    v1::AddVrRequest req;
    req.set_vr(vr);
    req.set_table_id(table);
    return Wait<v1::AddVrReply>([&](auto cb) { fea_->AddVr(req, cb); }).first;
  }
  Status Bind(const std::string& ifname, const std::string& vr) {
    v1::BindInterfaceRequest req;
    req.set_interface(ifname);
    req.set_vr(vr);
    return Wait<v1::BindInterfaceReply>([&](auto cb) { fea_->BindInterface(req, cb); }).first;
  }
  std::pair<Status, v1::ApplyRoutesReply> Apply(const std::string& vr,
                                                std::vector<v1::RouteChange> changes,
                                                bool report_refused = false) {
    v1::ApplyRoutesRequest req;
    req.set_vr(vr);
    req.set_report_refused(report_refused);
    for (auto& c : changes) *req.add_changes() = c;
    return Wait<v1::ApplyRoutesReply>([&](auto cb) { fea_->ApplyRoutes(req, cb); });
  }

  VrRecovery::Options recovery_;
  boost::asio::io_context io_{1};
  std::unique_ptr<finder::TestFinder> finder_;
  FakeRouteKernel kernel_;
  InterfaceTable ifs_;
  VrTable vrs_{ifs_};
  KernelRoutes kr_{&kernel_, vrs_, KernelRoutesOptions{}};
  std::unique_ptr<ipc::Router> fea_router_;
  std::unique_ptr<FeaService> service_;
  Recorder recorder_;
  std::unique_ptr<ipc::Router> client_;
  std::unique_ptr<v1::FeaClient> fea_;
};

TEST_F(FeaServiceTest, ReportsEveryRefusedEntryByIndexAndPrefixAndAppliesNothing) {
  ASSERT_TRUE(AddVr("red", 100).ok());
  ASSERT_TRUE(Bind("r0", "red").ok());
  auto [s, rep] = Apply("red",
                        {Change(v1::OP_ADD, "192.0.2.0", 24, "10.0.0.2"),
                         Change(v1::OP_ADD, "198.51.100.0", 24, "172.16.0.1"),  // on no interface
                         Change(v1::OP_ADD, "203.0.113.0", 24, "10.0.0.3"),
                         Change(v1::OP_ADD, "203.0.114.0", 24, "172.16.0.2")},  // neither
                        /*report_refused=*/true);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(rep.applied(), 0u);
  ASSERT_EQ(rep.refused_size(), 2);
  EXPECT_EQ(rep.refused(0).index(), 1u);
  EXPECT_EQ(rep.refused(0).prefix().len(), 24u);
  EXPECT_EQ(rep.refused(0).prefix().addr(),
            Change(v1::OP_ADD, "198.51.100.0", 24, nullptr).prefix().addr());
  EXPECT_NE(rep.refused(0).reason().find("172.16.0.1 is on no interface"), std::string::npos)
      << rep.refused(0).reason();
  EXPECT_EQ(rep.refused(1).index(), 3u);
  EXPECT_TRUE(kernel_.routes.empty());  // whole or nothing still
  // Without the refused entries the batch goes in.
  auto [ok, rep2] = Apply("red",
                          {Change(v1::OP_ADD, "192.0.2.0", 24, "10.0.0.2"),
                           Change(v1::OP_ADD, "203.0.113.0", 24, "10.0.0.3")},
                          true);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(rep2.applied(), 2u);
  EXPECT_EQ(rep2.refused_size(), 0);
  EXPECT_EQ(kernel_.routes.size(), 2u);
}

TEST_F(FeaServiceTest, AppliesRoutesIntoFibAndKernelAndRejectsBadBatchesWhole) {
  ASSERT_TRUE(AddVr("red", 100).ok());
  ASSERT_TRUE(Bind("r0", "red").ok());
  EXPECT_EQ(Bind("r0", "green").code(), StatusCode::kNotFound);
  auto [s, rep] = Apply("red", {Change(v1::OP_ADD, "192.0.2.0", 24, "10.0.0.2"),
                                Change(v1::OP_ADD, "198.51.100.0", 24, "10.0.0.3")});
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(rep.applied(), 2u);
  EXPECT_EQ(kernel_.routes.size(), 2u);
  auto [bad, unused] = Apply("red", {Change(v1::OP_DELETE, "192.0.2.0", 24, nullptr),
                                     Change(v1::OP_ADD, "203.0.113.0", 24, "2001:db8::1")});
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.message().find("changes[1]"), std::string::npos) << bad.message();
  EXPECT_EQ(kernel_.routes.size(), 2u);
  auto [nf, unused2] = Apply("green", {Change(v1::OP_ADD, "192.0.2.0", 24, "10.0.0.2")});
  EXPECT_EQ(nf.code(), StatusCode::kNotFound);

  v1::LookupRequest lreq;
  lreq.set_vr("red");
  SetAddr("192.0.2.77", lreq.mutable_address());
  auto [ls, lrep] = Wait<v1::LookupReply>([&](auto cb) { fea_->Lookup(lreq, cb); });
  ASSERT_TRUE(ls.ok());
  EXPECT_TRUE(lrep.found());
  EXPECT_EQ(lrep.prefix().len(), 24u);
  ASSERT_EQ(lrep.nexthops_size(), 1);
  EXPECT_EQ(lrep.nexthops(0).interface(), "r0");

  v1::ListRoutesRequest rreq;
  rreq.set_vr("red");
  auto [rs, rrep] = Wait<v1::ListRoutesReply>([&](auto cb) { fea_->ListRoutes(rreq, cb); });
  ASSERT_TRUE(rs.ok());
  ASSERT_EQ(rrep.routes_size(), 2);
  EXPECT_TRUE(rrep.routes(0).in_kernel());

  auto [gs, stats] =
      Wait<v1::GetStatsReply>([&](auto cb) { fea_->GetStats(v1::GetStatsRequest(), cb); });
  ASSERT_TRUE(gs.ok());
  EXPECT_EQ(stats.kernel_routes_installed(), 2u);
  EXPECT_EQ(stats.batches_applied(), 1u);
  EXPECT_EQ(stats.batches_rejected(), 2u);
  EXPECT_GT(stats.trie_nodes(), 0u);
}

// Routes that drop, by type, through the service: the kernel gets each type, lookup and
// list_routes name it, and a type with a next hop is refused with the entry named.
TEST_F(FeaServiceTest, RouteTypesReachTheKernelAndAreShown) {
  ASSERT_TRUE(AddVr("red", 100).ok());
  ASSERT_TRUE(Bind("r0", "red").ok());
  v1::RouteChange prohibit = Change(v1::OP_ADD, "10.13.0.0", 16, nullptr);
  prohibit.set_type(strata::common::v1::ROUTE_TYPE_PROHIBIT);
  v1::RouteChange unreachable = Change(v1::OP_ADD, "10.12.0.0", 16, nullptr);
  unreachable.set_type(strata::common::v1::ROUTE_TYPE_UNREACHABLE);
  v1::RouteChange hole = Change(v1::OP_ADD, "10.11.0.0", 16, nullptr);  // no type: blackhole
  auto [s, rep] = Apply("red", {prohibit, unreachable, hole});
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(kernel_.routes.size(), 3u);
  std::map<std::string, RouteType> types;
  for (const auto& [key, r] : kernel_.routes) types[r.prefix.ToString()] = r.type;
  EXPECT_EQ(types["10.13.0.0/16"], RouteType::kProhibit);
  EXPECT_EQ(types["10.12.0.0/16"], RouteType::kUnreachable);
  EXPECT_EQ(types["10.11.0.0/16"], RouteType::kBlackhole);

  v1::LookupRequest lreq;
  lreq.set_vr("red");
  SetAddr("10.13.1.1", lreq.mutable_address());
  auto [ls, lrep] = Wait<v1::LookupReply>([&](auto cb) { fea_->Lookup(lreq, cb); });
  ASSERT_TRUE(ls.ok() && lrep.found());
  EXPECT_EQ(lrep.type(), strata::common::v1::ROUTE_TYPE_PROHIBIT);
  EXPECT_EQ(lrep.nexthops_size(), 0);
  v1::ListRoutesRequest rreq;
  rreq.set_vr("red");
  auto [rs, rrep] = Wait<v1::ListRoutesReply>([&](auto cb) { fea_->ListRoutes(rreq, cb); });
  ASSERT_TRUE(rs.ok());
  ASSERT_EQ(rrep.routes_size(), 3);
  EXPECT_EQ(rrep.routes(0).type(), strata::common::v1::ROUTE_TYPE_BLACKHOLE);

  v1::RouteChange bad = Change(v1::OP_ADD, "10.14.0.0", 16, "10.0.0.2");
  bad.set_type(strata::common::v1::ROUTE_TYPE_UNREACHABLE);
  auto [b, unused] = Apply("red", {bad});
  EXPECT_EQ(b.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(b.message().find("changes[0]: an unreachable route has no next hops"),
            std::string::npos)
      << b.message();
}

// get_stats reports the FIB's rebuilds: a table loaded route by route outgrows the empty group
// the VR was created with, so the FIB's worker rebuilds it in the background; the reply shows
// that run, when it completed and how long it took, and the garbage counters of the FIB.
TEST_F(FeaServiceTest, GetStatsShowsTheBackgroundRebuildOfAGrowingTable) {
  ASSERT_TRUE(AddVr("red", 100).ok());
  ASSERT_TRUE(Bind("r0", "red").ok());
  const auto before = std::chrono::system_clock::now();
  std::vector<v1::RouteChange> changes;
  std::vector<std::string> nets;
  for (int i = 0; i < 5000; ++i) {
    nets.push_back("20." + std::to_string(i / 256) + "." + std::to_string(i % 256) + ".0");
  }
  for (const std::string& net : nets) {
    changes.push_back(Change(v1::OP_ADD, net.c_str(), 24, "10.0.0.2"));
  }
  auto [as, arep] = Apply("red", changes);
  ASSERT_TRUE(as.ok()) << as.ToString();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (vrs_.Stats4().background_rebuilds == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const fib::FibStats f4 = vrs_.Stats4();
  const fib::FibStats f6 = vrs_.Stats6();
  ASSERT_GE(f4.background_rebuilds, 1u);
  auto [gs, stats] =
      Wait<v1::GetStatsReply>([&](auto cb) { fea_->GetStats(v1::GetStatsRequest(), cb); });
  ASSERT_TRUE(gs.ok());
  EXPECT_GE(stats.background_rebuilds_started(), stats.background_rebuilds_completed());
  EXPECT_EQ(stats.background_rebuilds_completed(), f4.background_rebuilds + f6.background_rebuilds);
  EXPECT_GE(stats.background_rebuilds_completed(), 1u);
  EXPECT_GE(stats.rebuilds(), stats.background_rebuilds_completed());
  EXPECT_EQ(stats.abandoned_rebuilds(), f4.abandoned_rebuilds + f6.abandoned_rebuilds);
  EXPECT_EQ(stats.garbage_trie_nodes(), f4.dead_trie_nodes + f6.dead_trie_nodes);
  EXPECT_EQ(stats.garbage_rows(), f4.dead_rows + f6.dead_rows);
  EXPECT_EQ(stats.garbage_bytes(), f4.dead_bytes + f6.dead_bytes);
  const auto ms = [](std::chrono::system_clock::time_point t) {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count());
  };
  EXPECT_GE(stats.last_rebuild_unix_ms(), ms(before));
  EXPECT_LE(stats.last_rebuild_unix_ms(), ms(std::chrono::system_clock::now()));
  EXPECT_GT(stats.last_rebuild_usec(), 0u);
  EXPECT_EQ(stats.last_rebuild_usec(), static_cast<uint64_t>(f4.last_rebuild_seconds * 1e6));
}

// A VR moved to another kernel table keeps its routes and interfaces; its routes leave the old
// table for the new one. add_vr moves an existing VR only when asked (move_table: the rtrmgr).
TEST_F(FeaServiceTest, SetVrTableAndAddVrWithMoveTableMoveTheVrsKernelRoutes) {
  ASSERT_TRUE(AddVr("red", 100).ok());
  ASSERT_TRUE(AddVr("blue", 101).ok());
  ASSERT_TRUE(Bind("r0", "red").ok());
  ASSERT_TRUE(Apply("red", {Change(v1::OP_ADD, "192.0.2.0", 24, "10.0.0.2")}).first.ok());
  auto tables = [&] {
    std::set<uint32_t> out;
    for (const auto& [key, r] : kernel_.routes) out.insert(r.table);
    return out;
  };
  ASSERT_EQ(tables(), std::set<uint32_t>{100});
  auto set_table = [&](const std::string& vr, uint32_t table) {
    v1::SetVrTableRequest req;
    req.set_vr(vr);
    req.set_table_id(table);
    return Wait<v1::SetVrTableReply>([&](auto cb) { fea_->SetVrTable(req, cb); });
  };
  auto [s, rep] = set_table("red", 200);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(rep.old_table_id(), 100u);
  EXPECT_EQ(tables(), std::set<uint32_t>{200});
  EXPECT_EQ(set_table("red", 101).first.code(), StatusCode::kAlreadyExists);  // blue's
  EXPECT_EQ(set_table("green", 5).first.code(), StatusCode::kNotFound);
  EXPECT_EQ(tables(), std::set<uint32_t>{200});

  v1::ListRoutesRequest rreq;
  rreq.set_vr("red");
  auto [rs, rrep] = Wait<v1::ListRoutesReply>([&](auto cb) { fea_->ListRoutes(rreq, cb); });
  ASSERT_TRUE(rs.ok());
  EXPECT_EQ(rrep.table_id(), 200u);
  ASSERT_EQ(rrep.routes_size(), 1);
  EXPECT_TRUE(rrep.routes(0).in_kernel());

  // The RIB's add_vr with a table from before the change does not move it back.
  EXPECT_EQ(AddVr("red", 100).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(tables(), std::set<uint32_t>{200});
  v1::AddVrRequest move;
  move.set_vr("red");
  move.set_table_id(300);
  move.set_move_table(true);
  ASSERT_TRUE(Wait<v1::AddVrReply>([&](auto cb) { fea_->AddVr(move, cb); }).first.ok());
  EXPECT_EQ(tables(), std::set<uint32_t>{300});
  // Later batches go to the new table.
  ASSERT_TRUE(Apply("red", {Change(v1::OP_ADD, "198.51.100.0", 24, "10.0.0.2")}).first.ok());
  EXPECT_EQ(tables(), std::set<uint32_t>{300});
  EXPECT_EQ(kernel_.routes.size(), 2u);
}

TEST_F(FeaServiceTest, WatchersHearTheCurrentStateThenChangesAndAreDroppedWhenGone) {
  ASSERT_TRUE(AddVr("red", 100).ok());
  ASSERT_TRUE(Bind("r0", "red").ok());
  v1::WatchInterfacesRequest w;
  w.set_watcher("rib.red");
  w.set_vr("red");
  ASSERT_TRUE(
      Wait<v1::WatchInterfacesReply>([&](auto cb) { fea_->WatchInterfaces(w, cb); }).first.ok());
  ASSERT_TRUE(RunUntil([&] { return recorder_.events.size() == 1; }));
  EXPECT_EQ(recorder_.events[0].change(), fcpb::INTERFACE_CHANGE_UPDATED);
  EXPECT_EQ(recorder_.events[0].interface().addresses_size(), 1);
  ifs_.UpdateLink({3, "r0", true, false, 1500, std::nullopt});    // carrier lost
  ifs_.UpdateLink({4, "other", true, true, 1500, std::nullopt});  // another VR's: not sent
  ifs_.RemoveLink(3);
  ASSERT_TRUE(RunUntil([&] { return recorder_.events.size() == 3; }));
  EXPECT_FALSE(recorder_.events[1].interface().up());
  EXPECT_EQ(recorder_.events[2].change(), fcpb::INTERFACE_CHANGE_REMOVED);

  // A watcher that is not there: the first failed event drops it.
  w.set_watcher("rib.gone");
  w.set_vr("");
  ASSERT_TRUE(
      Wait<v1::WatchInterfacesReply>([&](auto cb) { fea_->WatchInterfaces(w, cb); }).first.ok());
  EXPECT_TRUE(RunUntil([&] { return service_->watchers() == 1; }));
  EXPECT_EQ(service_->watchers_dropped(), 1u);
}

// The FEA's half of the restart protocol (docs/restart.md), with times long enough that only
// the calls end the waits.
class FeaServiceRestartTest : public FeaServiceTest {
 protected:
  FeaServiceRestartTest() {
    recovery_.grace = std::chrono::hours(1);
    recovery_.await_config = std::chrono::hours(1);
  }
  KernelRoute Ours(const char* prefix, const char* via) {
    return KernelRoute{100, P(prefix), 201, 20, RouteType::kUnicast, {{A(via), 3, 1}}};
  }
};

TEST_F(FeaServiceRestartTest, RoutesAdoptedWaitForTheRibAndOnlyWhatItDoesNotResendGoes) {
  kernel_.Put(Ours("192.0.2.0/24", "10.0.0.2"));     // the RIB sends it again
  kernel_.Put(Ours("198.51.100.0/24", "10.0.0.2"));  // withdrawn while the FEA was down
  // The RIB asks whether the configuration is in: not before the rtrmgr says so.
  std::optional<std::pair<Status, v1::WaitConfigReply>> waited;
  v1::WaitConfigRequest wreq;
  wreq.set_vr("red");
  fea_->WaitConfig(wreq,
                   [&](const Status& s, const v1::WaitConfigReply& r) { waited.emplace(s, r); });
  v1::AddVrRequest add;
  add.set_vr("red");
  add.set_table_id(100);
  auto [as, arep] = Wait<v1::AddVrReply>([&](auto cb) { fea_->AddVr(add, cb); });
  ASSERT_TRUE(as.ok()) << as.ToString();
  EXPECT_EQ(arep.held_routes(), 2u) << "adopted from the kernel";
  EXPECT_FALSE(waited.has_value());
  auto [ls, vrs] =
      Wait<v1::ListVrsReply>([&](auto cb) { fea_->ListVrs(v1::ListVrsRequest(), cb); });
  ASSERT_EQ(vrs.vrs_size(), 1);
  EXPECT_TRUE(vrs.vrs(0).stale());
  EXPECT_EQ(vrs.vrs(0).kernel_routes(), 2u);
  ASSERT_TRUE(Bind("r0", "red").ok());  // the rtrmgr's replay
  auto [cs, crep] = Wait<v1::ConfigCompleteReply>(
      [&](auto cb) { fea_->ConfigComplete(v1::ConfigCompleteRequest(), cb); });
  ASSERT_TRUE(cs.ok());
  EXPECT_EQ(crep.released(), 1u);
  ASSERT_TRUE(RunUntil([&] { return waited.has_value(); }));
  EXPECT_TRUE(waited->first.ok());
  EXPECT_FALSE(waited->second.timed_out());

  // The RIB claims the routes, then re-sends one and ends its resync.
  v1::BeginResyncRequest begin;
  begin.set_vr("red");
  begin.set_hold_ms(3600000);
  ASSERT_TRUE(
      Wait<v1::BeginResyncReply>([&](auto cb) { fea_->BeginResync(begin, cb); }).first.ok());
  auto [ps, prep] = Apply("red", {Change(v1::OP_ADD, "192.0.2.0", 24, "10.0.0.2")});
  ASSERT_TRUE(ps.ok()) << ps.ToString();
  EXPECT_TRUE(kernel_.applied.empty()) << "an identical adopted route is left as it is";
  v1::EndResyncRequest end;
  end.set_vr("red");
  auto [es, erep] = Wait<v1::EndResyncReply>([&](auto cb) { fea_->EndResync(end, cb); });
  ASSERT_TRUE(es.ok()) << es.ToString();
  EXPECT_EQ(erep.removed(), 1u);
  ASSERT_EQ(kernel_.applied.size(), 1u);
  EXPECT_EQ(kernel_.applied[0].type, KernelOpType::kDelete);
  EXPECT_EQ(kernel_.applied[0].route.prefix, P("198.51.100.0/24"));
  EXPECT_NE(kernel_.Get(100, P("192.0.2.0/24"), 20), nullptr);
  auto [ls2, vrs2] =
      Wait<v1::ListVrsReply>([&](auto cb) { fea_->ListVrs(v1::ListVrsRequest(), cb); });
  EXPECT_FALSE(vrs2.vrs(0).stale());
  // A second end is an error, and a RIB that adds the VR again hears what it holds.
  EXPECT_EQ(Wait<v1::EndResyncReply>([&](auto cb) { fea_->EndResync(end, cb); }).first.code(),
            StatusCode::kFailedPrecondition);
  add.clear_table_id();
  add.set_table_id(100);
  auto [as2, arep2] = Wait<v1::AddVrReply>([&](auto cb) { fea_->AddVr(add, cb); });
  EXPECT_EQ(arep2.held_routes(), 1u);
}

// VRF devices through the service: add_vr makes the VR's device (named by vrf_device) and
// enslaves the bound interface; a device name Linux refuses fails add_vr and adds no VR;
// list_vrs shows the device; delete_vr deletes it.
TEST_F(FeaServiceTest, VrsGetVrfDevices) {
  FakeLinkKernel links;
  VrfDevices vrf(&links, ifs_);
  service_->set_vrf_devices(&vrf);
  links.AddLink({3, "r0", true, true, 1500, std::nullopt});
  v1::AddVrRequest req;
  req.set_vr("customer-backbone-1");
  req.set_table_id(100);
  auto bad = Wait<v1::AddVrReply>([&](auto cb) { fea_->AddVr(req, cb); });
  EXPECT_EQ(bad.first.code(), StatusCode::kInvalidArgument) << bad.first.ToString();
  EXPECT_EQ(vrs_.Find("customer-backbone-1"), nullptr);
  req.set_vrf_device("cust1");
  ASSERT_TRUE(Wait<v1::AddVrReply>([&](auto cb) { fea_->AddVr(req, cb); }).first.ok());
  ASSERT_TRUE(Bind("r0", "customer-backbone-1").ok());
  links.Deliver(ifs_);
  ASSERT_NE(ifs_.Find("cust1"), nullptr);
  EXPECT_EQ(links.links.at(3).master, ifs_.Find("cust1")->link.ifindex);
  auto listed =
      Wait<v1::ListVrsReply>([&](auto cb) { fea_->ListVrs(v1::ListVrsRequest(), cb); }).second;
  ASSERT_EQ(listed.vrs_size(), 1);
  EXPECT_EQ(listed.vrs(0).vrf_device(), "cust1");
  EXPECT_FALSE(listed.vrs(0).vrf_adopted());
  v1::DeleteVrRequest del;
  del.set_vr("customer-backbone-1");
  ASSERT_TRUE(Wait<v1::DeleteVrReply>([&](auto cb) { fea_->DeleteVr(del, cb); }).first.ok());
  links.Deliver(ifs_);
  EXPECT_EQ(ifs_.Find("cust1"), nullptr);
  EXPECT_EQ(links.links.at(3).master, 0u);
  service_->set_vrf_devices(nullptr);
}

}  // namespace
}  // namespace strata::fea
