// RibServiceTest: strata-rib in one process for its service tests. A FinderServer, the RIB
// (RibProcess on its own Router), a protocol client, a fake FEA and a fake RIB client, each on a
// Router of its own, so calls cross sockets. RecordingClient records what the RIB sends a client.
// Test-only; single-threaded on the fixture's io_context.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libipc/interfaces/rib_client.strata.h"
#include "libipc/run_until.h"
#include "rib/process/proto_convert.h"
#include "rib/process/rib_process.h"
#include "testing/common/value_literals.h"
#include "testing/finder/test_finder.h"
#include "testing/rib/fake_fea.h"

namespace strata::rib::test_util {

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

using strata::test_util::A;
using strata::test_util::P;

inline rpb::RouteEntry Entry(std::string_view prefix, std::string_view nexthop,
                             uint32_t metric = 0) {
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

// Adds one more address (with host bits, as the FEA sends it) to an interface.
inline void AddAddress(fea::v1::Interface& ifc, const std::string& addr, uint32_t len) {
  auto* a = ifc.add_addresses();
  ipc::AddrToProto(A(addr), a->mutable_address());
  common::v1::IpAddress bytes;
  ipc::AddrToProto(A(addr), &bytes);
  a->mutable_prefix()->set_addr(bytes.addr());
  a->mutable_prefix()->set_len(len);
}

// An interface as the FEA reports it, with one address.
inline fea::v1::Interface Ifc(const std::string& name, bool up, const std::string& vr,
                              const std::string& addr, uint32_t len) {
  fea::v1::Interface ifc;
  ifc.set_name(name);
  ifc.set_up(up);
  ifc.set_vr(vr);
  AddAddress(ifc, addr, len);
  return ifc;
}

}  // namespace strata::rib::test_util
