// strata-rib's side of restarts (docs/restart.md), in one process
// (testing/rib/rib_service_fixture.h): a RIB recovering while the FEA holds its routes, owners
// that die, restart gracefully or defer their selection.
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

}  // namespace
}  // namespace strata::rib
