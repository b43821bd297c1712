// FinderServer holding resolutions until the permissions are complete: a Finder, a target, a
// caller with a secret and the admin, each on a Router of its own, so calls cross sockets.
#include "finder/finder_server.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>

#include "libipc/demo/test_service.h"
#include "libipc/interfaces/finder.pb.h"
#include "libipc/interfaces/test.strata.h"
#include "libipc/router.h"
#include "libipc/run_until.h"
#include "testing/finder/test_finder.h"

namespace strata::finder {
namespace {

using namespace std::chrono_literals;
namespace tpb = strata::test::v1;

constexpr char kAdmin[] = "admin-secret";

class FinderHoldTest : public ::testing::Test {
 protected:
  void Start(std::chrono::milliseconds await) {
    FinderOptions fo;
    fo.strict = true;
    fo.admin_secret = kAdmin;
    fo.await_permissions = await;
    finder_ = std::make_unique<TestFinder>(io_, "strata-finder-hold", fo);
    ASSERT_TRUE(finder_->status().ok());
    target_router_ = std::make_unique<ipc::Router>(io_);
    service_ = std::make_unique<ipc::TestService>(io_);
    target_router_->AddTarget("test", "t1", false).Serve(*service_);
    StartAndWait(*target_router_);
    admin_ = std::make_unique<ipc::Router>(io_);
    StartAndWait(*admin_);
    ipc::RouterOptions ro;
    ro.secret = "caller-secret";
    caller_ = std::make_unique<ipc::Router>(io_, ro);
    StartAndWait(*caller_);
  }
  void TearDown() override {
    caller_.reset();
    admin_.reset();
    target_router_.reset();
    service_.reset();
    finder_.reset();
    io_.poll();
  }

  template <typename Pred>
  bool RunUntil(Pred done, std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) {
    return ipc::RunUntil(io_, done, limit);
  }
  void StartAndWait(ipc::Router& r) {
    std::optional<Status> started;
    r.Start([&](const Status& s) { started = s; });
    ASSERT_TRUE(RunUntil([&] { return started.has_value(); }));
    ASSERT_TRUE(started->ok()) << started->ToString();
  }
  // Pings t1 from the caller; the answer lands in `result`.
  void Ping(std::optional<Status>& result) {
    caller_->Call<tpb::PingRequest, tpb::PingReply>(
        "t1", "test/1.0/ping", tpb::PingRequest(),
        [&result](const Status& s, const tpb::PingReply&) { result = s; });
  }
  Status Admin(const std::string& method, const google::protobuf::Message& req) {
    std::optional<Status> result;
    admin_->SendRaw("finder", "finder/1.0/" + method, req.SerializeAsString(),
                    [&result](const Status& s, std::string_view) { result = s; }, {});
    EXPECT_TRUE(RunUntil([&] { return result.has_value(); }));
    return result.value_or(Internal("no answer"));
  }
  Status GiveRights(const std::string& secret) {
    v1::SetPermissionsRequest req;
    req.set_admin_secret(kAdmin);
    req.set_secret(secret);
    req.add_allowed_targets("t1");
    req.add_allowed_methods("*");
    return Admin("set_permissions", req);
  }
  Status Complete(const std::string& admin_secret = kAdmin) {
    v1::PermissionsCompleteRequest req;
    req.set_admin_secret(admin_secret);
    return Admin("permissions_complete", req);
  }

  boost::asio::io_context io_{1};
  std::unique_ptr<TestFinder> finder_;
  std::unique_ptr<ipc::Router> target_router_;
  std::unique_ptr<ipc::TestService> service_;
  std::unique_ptr<ipc::Router> admin_;
  std::unique_ptr<ipc::Router> caller_;
};

// The window after a Finder restart: the caller resolves before the rtrmgr re-gave its rights.
TEST_F(FinderHoldTest, ResolutionWaitsForTheCallersRightsInsteadOfBeingRefused) {
  Start(10s);
  std::optional<Status> result;
  Ping(result);
  ASSERT_TRUE(RunUntil([&] { return finder_->server().held() == 1; }));
  EXPECT_FALSE(RunUntil([&] { return result.has_value(); }, 200ms));
  ASSERT_TRUE(GiveRights("caller-secret").ok());
  ASSERT_TRUE(RunUntil([&] { return result.has_value(); }));
  EXPECT_TRUE(result->ok()) << result->ToString();
  EXPECT_EQ(finder_->server().held(), 0u);
  EXPECT_TRUE(finder_->server().holding());
}

TEST_F(FinderHoldTest, CompleteAnswersHeldResolutionsByTheUsualRules) {
  Start(10s);
  std::optional<Status> result;
  Ping(result);
  ASSERT_TRUE(RunUntil([&] { return finder_->server().held() == 1; }));
  EXPECT_EQ(Complete("not-the-admin").code(), StatusCode::kPermissionDenied);
  EXPECT_TRUE(finder_->server().holding());
  ASSERT_TRUE(Complete().ok());
  ASSERT_TRUE(RunUntil([&] { return result.has_value(); }));
  EXPECT_EQ(result->code(), StatusCode::kPermissionDenied);  // strict: no rights, no resolution
  EXPECT_FALSE(finder_->server().holding());
  // Once complete, nothing waits: a caller without rights is refused at once.
  std::optional<Status> again;
  ipc::RouterOptions other;
  other.secret = "other";
  caller_ = std::make_unique<ipc::Router>(io_, other);
  StartAndWait(*caller_);
  Ping(again);
  ASSERT_TRUE(RunUntil([&] { return again.has_value(); }, 1000ms));
  EXPECT_EQ(again->code(), StatusCode::kPermissionDenied);
}

TEST_F(FinderHoldTest, HoldingEndsByItselfAfterItsBound) {
  Start(300ms);
  std::optional<Status> result;
  Ping(result);
  ASSERT_TRUE(RunUntil([&] { return finder_->server().held() == 1 || result.has_value(); }));
  ASSERT_TRUE(RunUntil([&] { return result.has_value(); }, 3000ms));
  EXPECT_EQ(result->code(), StatusCode::kPermissionDenied);
  EXPECT_FALSE(finder_->server().holding());
}

}  // namespace
}  // namespace strata::finder
