#include "rtrmgr/commit_confirmer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace strata::rtrmgr {
namespace {

class CommitConfirmerTest : public ::testing::Test {
 protected:
  CommitConfirmerTest()
      : dir_(::testing::TempDir() + "/confirmer_" + std::to_string(::getpid())),
        confirmer_(io_, dir_, [this](const PendingConfirm& p) { rolled_back_.push_back(p); }) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~CommitConfirmerTest() override { std::filesystem::remove_all(dir_); }

  boost::asio::io_context io_;
  std::string dir_;
  std::vector<PendingConfirm> rolled_back_;
  CommitConfirmer confirmer_;
};

TEST_F(CommitConfirmerTest, ArmingPersistsAndAPlainCommitConfirms) {
  confirmer_.Committed(5, 4, 10);
  auto saved = PendingConfirm::Load(dir_);
  ASSERT_TRUE(saved.ok() && saved->has_value());
  EXPECT_EQ((*saved)->revision, 5u);
  EXPECT_EQ((*saved)->rollback_to, 4u);
  // Another confirmed commit restarts the window and keeps the revision to return to.
  confirmer_.Committed(6, 5, 10);
  EXPECT_EQ(confirmer_.pending()->revision, 6u);
  EXPECT_EQ(confirmer_.pending()->rollback_to, 4u);
  confirmer_.Committed(7, 6, 0);
  EXPECT_FALSE(confirmer_.pending());
  EXPECT_FALSE(PendingConfirm::Load(dir_)->has_value());
  io_.poll();
  EXPECT_TRUE(rolled_back_.empty());
}

// A window that ends asks for the rollback (a deadline already past: at once).
TEST_F(CommitConfirmerTest, ExpiredWindowRollsBack) {
  confirmer_.Resume(PendingConfirm{9, 8, 1});
  io_.run_for(std::chrono::seconds(5));
  ASSERT_EQ(rolled_back_.size(), 1u);
  EXPECT_EQ(rolled_back_[0].revision, 9u);
  EXPECT_EQ(rolled_back_[0].rollback_to, 8u);
}

TEST(PendingConfirmTest, UnreadableFileIsDataLoss) {
  const std::string dir = ::testing::TempDir() + "/pending_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  EXPECT_FALSE(PendingConfirm::Load(dir)->has_value());
  const PendingConfirm p{3, 2, 100};
  ASSERT_TRUE(p.Save(dir).ok());
  EXPECT_EQ((*PendingConfirm::Load(dir))->deadline_unix, 100);
  std::ofstream(dir + "/confirm-pending") << "garbage";
  EXPECT_EQ(PendingConfirm::Load(dir).status().code(), StatusCode::kDataLoss);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace strata::rtrmgr
