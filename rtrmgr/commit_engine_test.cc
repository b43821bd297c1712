// The commit engine against a fake XRL executor that records calls and fails on demand.
#include "rtrmgr/commit_engine.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/asio.h"
#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_printer.h"
#include "testing/rtrmgr/config_test_util.h"

namespace strata::rtrmgr {
namespace {

using test_util::MustParse;
using test_util::RealTemplates;

class FakeExecutor : public XrlExecutor {
 public:
  explicit FakeExecutor(boost::asio::io_context& io) : io_(io) {}
  void Execute(const ipc::Xrl& xrl, std::function<void(const Status&)> done) override {
    const std::string text = xrl.ToString();
    calls.push_back(text);
    const bool fail = !fail_on.empty() && text.find(fail_on) != std::string::npos;
    boost::asio::post(io_, [fail, done = std::move(done)] {
      done(fail ? Status(StatusCode::kInvalidArgument, "refused") : Status());
    });
  }
  std::vector<std::string> calls;
  std::string fail_on;

 private:
  boost::asio::io_context& io_;
};

constexpr const char* kBase = R"(
virtual-router red {
    static {
        route 192.0.2.0/24 { next-hop 10.0.0.1; }
    }
}
)";

constexpr const char* kMore = R"(
virtual-router red {
    static {
        route 192.0.2.0/24 { next-hop 10.0.0.1; }
        route 198.51.100.0/24 { next-hop 10.0.0.2; }
    }
}
virtual-router blue {
    static {
        route 203.0.113.0/24 { next-hop 10.0.0.3; }
    }
}
)";

class CommitEngineTest : public ::testing::Test {
 protected:
  CommitEngineTest() : exec_(io_), history_(""), engine_(RealTemplates(), exec_, history_) {}

  StatusOr<CommitResult> Commit(const char* text, std::optional<uint64_t> base = std::nullopt) {
    CommitRequest req;
    req.candidate = MustParse(text);
    req.base_revision = base.value_or(engine_.revision());
    req.user = "test";
    std::optional<StatusOr<CommitResult>> out;
    engine_.Commit(std::move(req), [&](StatusOr<CommitResult> r) { out = std::move(r); });
    while (!out) {
      if (io_.run_one() == 0) io_.restart();
    }
    return *out;
  }

  boost::asio::io_context io_;
  FakeExecutor exec_;
  CommitHistory history_;
  CommitEngine engine_;
};

TEST_F(CommitEngineTest, AppliesThePlanAndRecordsTheRevision) {
  auto r = Commit(kBase);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->revision, 1u);
  ASSERT_EQ(exec_.calls.size(), 3u);
  EXPECT_NE(exec_.calls[0].find("fea/1.0/add_vr"), std::string::npos);
  EXPECT_NE(exec_.calls[1].find("rib/1.0/add_origin_table"), std::string::npos);
  EXPECT_NE(exec_.calls[2].find("rib/1.0/add_routes"), std::string::npos);
  EXPECT_EQ(engine_.running(), MustParse(kBase));
  EXPECT_EQ(history_.entries().size(), 1u);
}

TEST_F(CommitEngineTest, FailureInStepKUndoesTheStepsBeforeInReverse) {
  ASSERT_TRUE(Commit(kBase).ok());
  exec_.calls.clear();
  // kMore: add_vr blue, add_origin_table blue, add_routes red 198.51.100/24, add_routes blue.
  exec_.fail_on = "203.0.113.0";
  auto r = Commit(kMore);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("refused"), std::string::npos);
  // Running config and revision unchanged.
  EXPECT_EQ(engine_.running(), MustParse(kBase));
  EXPECT_EQ(engine_.revision(), 1u);
  EXPECT_EQ(history_.entries().size(), 1u);
  // The calls: the k applied steps (the k-th failed), then the undos of k-1..1 in reverse.
  std::vector<std::string> applied;
  size_t failed = 0;
  for (size_t i = 0; i < exec_.calls.size(); ++i) {
    if (exec_.calls[i].find("203.0.113.0") != std::string::npos &&
        exec_.calls[i].find("add_routes") != std::string::npos) {
      failed = i;
      break;
    }
  }
  ASSERT_GE(failed, 3u);
  std::vector<std::string> undos(exec_.calls.begin() + static_cast<long>(failed) + 1,
                                 exec_.calls.end());
  ASSERT_EQ(undos.size(), failed);
  // Each undo inverts the matching earlier step, last first.
  for (size_t i = 0; i < failed; ++i) {
    const std::string& step = exec_.calls[failed - 1 - i];
    const std::string& undo = undos[i];
    if (step.find("add_vr") != std::string::npos) {
      EXPECT_NE(undo.find("delete_vr"), std::string::npos) << undo;
    } else if (step.find("add_origin_table") != std::string::npos) {
      EXPECT_NE(undo.find("delete_origin_table"), std::string::npos) << undo;
    } else if (step.find("add_routes") != std::string::npos) {
      EXPECT_NE(undo.find("delete_routes"), std::string::npos) << undo;
    }
  }
}

// The operator reads the place and the process's reason, not the XRL.
TEST_F(CommitEngineTest, FailedStepNamesItsPlaceAndPath) {
  ASSERT_TRUE(Commit(kBase).ok());
  exec_.fail_on = "203.0.113.0";
  auto r = Commit(kMore);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "test.conf:10:9: virtual-router blue static route 203.0.113.0/24: rib.blue: refused");
}

TEST_F(CommitEngineTest, WarningsComeBackWithTheResult) {
  auto r = Commit("virtual-router red { table-id 255; }\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].rfind("test.conf:1:31: warning: table-id 255", 0), 0u) << r->warnings[0];
}

// A start applies the last commit without recording it again.
TEST_F(CommitEngineTest, UnrecordedCommitKeepsTheRevision) {
  ASSERT_TRUE(Commit(kBase).ok());
  CommitEngine fresh(RealTemplates(), exec_, history_);  // a new start on the same history
  EXPECT_EQ(fresh.revision(), 1u);
  CommitRequest req;
  req.candidate = MustParse(kBase);
  req.base_revision = fresh.revision();
  req.record = false;
  std::optional<StatusOr<CommitResult>> out;
  std::vector<uint32_t> hooked;
  fresh.set_committed([&](const CommitRequest& rq, uint64_t, CommitResult&) {
    hooked.push_back(rq.confirm_minutes);
  });
  fresh.Commit(std::move(req), [&](StatusOr<CommitResult> r) { out = std::move(r); });
  while (!out) {
    if (io_.run_one() == 0) io_.restart();
  }
  ASSERT_TRUE(out->ok());
  EXPECT_EQ((*out)->revision, 1u);
  EXPECT_EQ(fresh.revision(), 1u);
  EXPECT_EQ(history_.entries().size(), 1u);
  EXPECT_EQ(fresh.running(), MustParse(kBase));
  EXPECT_EQ(hooked.size(), 1u);
}

TEST_F(CommitEngineTest, StaleBaseRevisionIsRefused) {
  ASSERT_TRUE(Commit(kBase).ok());
  const uint64_t seen = engine_.revision();
  ASSERT_TRUE(Commit(kMore).ok());  // another operator commits first
  exec_.calls.clear();
  auto r = Commit(kBase, seen);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kAborted);
  EXPECT_TRUE(exec_.calls.empty());
  EXPECT_EQ(engine_.running(), MustParse(kMore));
}

TEST_F(CommitEngineTest, InvalidCandidateIsRefusedWithPosition) {
  auto r = Commit("virtual-router red { static { route 192.0.2.0/24 { metric 3; } } }\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("test.conf:1:"), std::string::npos) << r.status().message();
  EXPECT_TRUE(exec_.calls.empty());
}

TEST_F(CommitEngineTest, RollbackConfigIsTheOneBefore) {
  ASSERT_TRUE(Commit(kBase).ok());
  ASSERT_TRUE(Commit(kMore).ok());
  auto prev = history_.Get(1);
  ASSERT_TRUE(prev.ok());
  EXPECT_EQ(MustParse(prev->config.c_str()), MustParse(kBase));
  exec_.calls.clear();
  // Committing rollback 1 removes exactly what kMore added.
  auto r = Commit(prev->config.c_str());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(engine_.running(), MustParse(kBase));
  EXPECT_EQ(engine_.revision(), 3u);
  for (const auto& c : exec_.calls) EXPECT_NE(c.find("delete"), std::string::npos) << c;
  EXPECT_EQ(exec_.calls.size(), 4u);  // two routes, blue's origin table, VR blue
}

TEST_F(CommitEngineTest, PrepareFailureAppliesNothing) {
  engine_.set_prepare([](const ConfigNode&, CommitEngine::Done d) { d(Unavailable("no rib")); });
  auto r = Commit(kBase);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  EXPECT_TRUE(exec_.calls.empty());
  EXPECT_EQ(engine_.revision(), 0u);
}

TEST_F(CommitEngineTest, ReplaySendsOneProcessItsPart) {
  ASSERT_TRUE(Commit(kMore).ok());
  exec_.calls.clear();
  bool done = false;
  engine_.Replay("rib.red", [&](const Status& s) {
    EXPECT_TRUE(s.ok());
    done = true;
  });
  while (!done) {
    if (io_.run_one() == 0) io_.restart();
  }
  ASSERT_EQ(exec_.calls.size(), 3u);  // origin table, two routes
  for (const auto& c : exec_.calls) EXPECT_EQ(c.rfind("finder://rib.red/", 0), 0u) << c;
}

TEST(CommitHistoryTest, PersistsAndReloads) {
  const std::string dir = ::testing::TempDir() + "/rtrmgr_history_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  {
    CommitHistory h(dir, 2);
    ASSERT_TRUE(h.Add({1, "t1", "alice", "first", "a;\n"}).ok());
    ASSERT_TRUE(h.Add({2, "t2", "bob", "second", "b;\n"}).ok());
    ASSERT_TRUE(h.Add({3, "t3", "carol", "third", "c;\n"}).ok());
    EXPECT_FALSE(h.Add({3, "t", "x", "", ""}).ok());
  }
  CommitHistory h(dir, 2);
  ASSERT_TRUE(h.Load().ok());
  ASSERT_EQ(h.entries().size(), 2u);
  EXPECT_EQ(h.last_revision(), 3u);
  auto r1 = h.Get(1);
  ASSERT_TRUE(r1.ok());
  EXPECT_EQ(r1->user, "bob");
  EXPECT_EQ(r1->comment, "second");
  EXPECT_EQ(r1->config, "b;\n");
  EXPECT_EQ(h.Get(2).status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(dir + "/commit-1.conf"));
  // Owner only (MD5 keys), and a configuration file in its own right.
  EXPECT_EQ(std::filesystem::status(h.FileOf(3)).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  EXPECT_TRUE(ConfigParser::ParseFile(h.FileOf(3)).ok());
  EXPECT_EQ(h.FindRevision(2)->user, "bob");
  EXPECT_EQ(h.FindRevision(1).status().code(), StatusCode::kNotFound);
  // Files that cannot be shown are left out; a name that is not a revision is not a commit.
  std::ofstream(dir + "/commit-9.conf") << "# comment: caf\xe9\nx;\n";
  std::ofstream(dir + "/commit-99999999999999999999999.conf") << "y;\n";
  CommitHistory again(dir, 5);
  const Status s = again.Load();
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_EQ(s.message(), "not UTF-8, left out of the history: commit-9.conf");
  EXPECT_EQ(again.last_revision(), 3u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace strata::rtrmgr
