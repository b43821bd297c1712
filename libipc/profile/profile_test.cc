// profile/1.0 served by a target and called through the Router, and the summary of records.
#include <gtest/gtest.h>

#include <optional>

#include "libipc/interfaces/profile.strata.h"
#include "libipc/profile/profile_report.h"
#include "libipc/profile/profile_service.h"
#include "libipc/run_until.h"
#include "testing/finder/test_finder.h"

namespace strata::ipc {
namespace {

namespace pb = profile::v1;

PointRecord Rec(std::string point, int64_t ms, std::string detail) {
  return {std::move(point), {ms * 1000000, std::move(detail)}};
}

TEST(ProfileReportTest, FollowsEachEventToTheFirstLaterRecordAtEveryPoint) {
  const std::vector<PointRecord> recs = {
      Rec("bgp_in", 0, "add 10.0.0.0/24"),
      Rec("rib_in", 2, "add 10.0.0.0/24"),
      Rec("fea_in", 5, "add 10.0.0.0/24"),
      Rec("bgp_in", 1000, "delete 10.0.0.0/24"),
      Rec("rib_in", 1001, "delete 10.0.0.0/24"),
      Rec("bgp_in", 2000, "add 10.0.0.0/24"),  // second sample of the same route
      Rec("rib_in", 2004, "add 10.0.0.0/24"),
      Rec("fea_in", 2009, "add 10.0.0.0/24"),
      Rec("rib_in", 2010, "add 10.0.0.0/24"),  // a later record: not this event's
  };
  const auto s =
      SummarizeProfile(recs, {"bgp_in", "rib_in", "fea_in", "fea_kernel"}, "bgp_in", "add ");
  EXPECT_EQ(2u, s.events);
  ASSERT_EQ(4u, s.points.size());
  EXPECT_EQ(2u, s.points[0].events);
  EXPECT_DOUBLE_EQ(0, s.points[0].max_ms);
  EXPECT_EQ(2u, s.points[1].events);  // 2 and 4 ms
  EXPECT_DOUBLE_EQ(3, s.points[1].avg_ms);
  EXPECT_DOUBLE_EQ(1, s.points[1].sd_ms);
  EXPECT_DOUBLE_EQ(2, s.points[1].min_ms);
  EXPECT_DOUBLE_EQ(4, s.points[1].max_ms);
  EXPECT_EQ(2u, s.points[2].events);  // 5 and 9 ms
  EXPECT_DOUBLE_EQ(7, s.points[2].avg_ms);
  EXPECT_EQ(0u, s.points[3].events);
  const std::string md = ProfileMarkdown(s);
  EXPECT_NE(std::string::npos, md.find("| rib_in | 2 | 3.000 | 1.000 | 2.000 | 4.000 |"));
  EXPECT_NE(std::string::npos, md.find("| fea_kernel | 0 | - |"));
  EXPECT_NE(std::string::npos, ProfileJson(s).find("\"point\": \"fea_in\", \"events\": 2"));
  // Without a filter the withdrawal counts too.
  EXPECT_EQ(3u, SummarizeProfile(recs, DefaultProfileOrder(), "bgp_in", "").events);
}

TEST(ProfileReportTest, DefaultOrderIsThePipeline) {
  const auto order = DefaultProfileOrder();
  ASSERT_EQ(8u, order.size());
  EXPECT_EQ("bgp_in", order.front());
  EXPECT_EQ("fea_kernel", order.back());
}

// The service served by one Router and called from another through a Finder, over sockets.
class ProfileServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    finder_ = std::make_unique<finder::TestFinder>(io_, "strata-profile");
    ASSERT_TRUE(finder_->status().ok());
    server_ = std::make_unique<Router>(io_);
    server_->AddTarget("prof", "prof", true).Serve(service_);
    RouterOptions co;
    co.listen_families = {};
    client_ = std::make_unique<Router>(io_, co);
    for (Router* r : {server_.get(), client_.get()}) {
      std::optional<Status> started;
      r->Start([&](const Status& s) { started = s; });
      ASSERT_TRUE(RunUntil([&] { return started.has_value(); }));
      ASSERT_TRUE(started->ok()) << started->ToString();
    }
    a_ = &Profiler::Get().Point("svc_test_a");
    b_ = &Profiler::Get().Point("svc_test_b");
    a_->set_enabled(false);
    b_->set_enabled(false);
    a_->Take();
    b_->Take();
  }
  void TearDown() override {
    client_.reset();
    server_.reset();
    finder_.reset();
    io_.poll();
  }
  template <typename Pred>
  bool RunUntil(Pred done) {
    return ipc::RunUntil(io_, done);
  }
  template <typename Rep, typename Call>
  std::pair<Status, Rep> Wait(Call call) {
    std::optional<std::pair<Status, Rep>> got;
    call([&](const Status& s, const Rep& r) { got.emplace(s, r); });
    EXPECT_TRUE(RunUntil([&] { return got.has_value(); }));
    return got.value_or(std::make_pair(Status(StatusCode::kInternal, "no answer"), Rep()));
  }
  pb::ProfileClient Client() { return pb::ProfileClient(*client_, "prof"); }

  boost::asio::io_context io_{1};
  std::unique_ptr<finder::TestFinder> finder_;
  ProfileService service_;
  std::unique_ptr<Router> server_, client_;
  ProfilePoint* a_ = nullptr;
  ProfilePoint* b_ = nullptr;
};

TEST_F(ProfileServiceTest, EnableRecordTakeDisable) {
  pb::EnableRequest en;
  en.add_points("svc_test_a");
  auto e = Wait<pb::EnableReply>([&](auto cb) { Client().Enable(en, cb); });
  ASSERT_TRUE(e.first.ok()) << e.first.ToString();
  EXPECT_TRUE(a_->enabled());
  EXPECT_FALSE(b_->enabled());
  a_->Record("add 10.0.0.0/24");
  auto l = Wait<pb::ListPointsReply>([&](auto cb) { Client().ListPoints({}, cb); });
  ASSERT_TRUE(l.first.ok());
  bool listed = false;
  for (const auto& p : l.second.points()) {
    if (p.name() == "svc_test_a") {
      listed = true;
      EXPECT_TRUE(p.enabled());
      EXPECT_EQ(1u, p.records());
    }
  }
  EXPECT_TRUE(listed);
  pb::GetRecordsRequest gr;
  gr.add_points("svc_test_a");
  auto g = Wait<pb::GetRecordsReply>([&](auto cb) { Client().GetRecords(gr, cb); });
  ASSERT_TRUE(g.first.ok());
  ASSERT_EQ(1, g.second.records_size());
  EXPECT_EQ("svc_test_a", g.second.records(0).point());
  EXPECT_EQ("add 10.0.0.0/24", g.second.records(0).detail());
  EXPECT_GT(g.second.records(0).time_ns(), 0);
  EXPECT_EQ(0u, a_->size());  // taken
  // No names: every point.
  auto d = Wait<pb::DisableReply>([&](auto cb) { Client().Disable({}, cb); });
  ASSERT_TRUE(d.first.ok());
  EXPECT_FALSE(a_->enabled());
}

TEST_F(ProfileServiceTest, UnknownPointFailsAndChangesNothing) {
  pb::EnableRequest en;
  en.add_points("svc_test_a");
  en.add_points("no_such_point");
  auto e = Wait<pb::EnableReply>([&](auto cb) { Client().Enable(en, cb); });
  EXPECT_EQ(StatusCode::kNotFound, e.first.code());
  EXPECT_NE(std::string::npos, e.first.message().find("no_such_point"));
  EXPECT_FALSE(a_->enabled());
}

}  // namespace
}  // namespace strata::ipc
