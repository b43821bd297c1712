// What a start applies (BootConfig) and the lock that keeps a second router off the same
// directories (InstanceLock).
#include "rtrmgr/boot_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/instance_lock.h"
#include "testing/rtrmgr/config_test_util.h"

namespace strata::rtrmgr {
namespace {

using test_util::MustParse;
using test_util::RealTemplates;

constexpr const char* kFileConfig = "virtual-router red { table-id 10; }\n";
constexpr const char* kCommitted = "virtual-router red {\n    table-id 20;\n}\n";

class BootConfigTest : public ::testing::Test {
 protected:
  BootConfigTest()
      : dir_(::testing::TempDir() + "/boot_config_" + std::to_string(::getpid())),
        history_(dir_ + "/state") {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ + "/state");
    file_ = dir_ + "/strata.conf";
    std::ofstream(file_) << kFileConfig;
  }
  ~BootConfigTest() override { std::filesystem::remove_all(dir_); }

  void Commit(uint64_t revision, const std::string& text) {
    ASSERT_TRUE(history_.Add({revision, "2025-01-01T00:00:00Z", "alice", "c", text}).ok());
  }
  StatusOr<BootPlan> Choose(const std::string& file, BootFrom from = BootFrom::kAuto,
                            std::optional<PendingConfirm> pending = std::nullopt) {
    return BootConfig::Choose(file, from, history_, pending, RealTemplates());
  }

  std::string dir_;
  std::string file_;
  CommitHistory history_;
};

TEST_F(BootConfigTest, FirstStartTakesTheFileAsANewRevision) {
  auto plan = Choose(file_);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_TRUE(plan->record);
  EXPECT_EQ(plan->config, MustParse(kFileConfig));
  EXPECT_EQ(plan->comment, "boot: " + file_);
  EXPECT_TRUE(plan->warnings.empty());
  EXPECT_EQ(Choose("").status().message(),
            "no configuration: give -c FILE (no commit in " + dir_ + "/state)");
}

TEST_F(BootConfigTest, RestartKeepsTheLastCommitAndSaysWhenTheFileDiffers) {
  Commit(1, kFileConfig);
  Commit(2, kCommitted);
  auto plan = Choose(file_);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_FALSE(plan->record);  // revision 2 goes on; nothing new is recorded
  EXPECT_EQ(plan->config, MustParse(kCommitted));
  EXPECT_EQ(plan->source, "revision 2 (" + dir_ + "/state/commit-2.conf)");
  ASSERT_EQ(plan->warnings.size(), 1u);
  const std::string& w = plan->warnings[0];
  EXPECT_EQ(w.rfind(file_ + " differs from the last commit, revision 2 (2025-01-01T00:00:00Z by "
                            "alice: \"c\"); starting with revision 2",
                    0),
            0u)
      << w;
  EXPECT_NE(w.find("strata-rtrmgr -c " + file_ + " --boot file"), std::string::npos) << w;
  EXPECT_NE(w.find("save " + file_), std::string::npos) << w;
  EXPECT_NE(w.find("[edit virtual-router red]\n-    table-id 20;\n+    table-id 10;"),
            std::string::npos)
      << w;
  // Without -c, and with --boot commit: the commit, without the warning.
  EXPECT_EQ(Choose("")->config, MustParse(kCommitted));
  EXPECT_TRUE(Choose(file_, BootFrom::kCommit)->warnings.empty());
}

TEST_F(BootConfigTest, FileEqualToTheCommitIsSaidInOneLine) {
  Commit(1, kCommitted);
  std::ofstream(file_) << "virtual-router red { table-id 20; }  # the same, written otherwise\n";
  auto plan = Choose(file_);
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->record);
  EXPECT_TRUE(plan->warnings.empty());
  ASSERT_EQ(plan->notes.size(), 1u);
  EXPECT_EQ(plan->notes[0].rfind(file_ + " is the configuration of revision 1", 0), 0u);
}

TEST_F(BootConfigTest, BootFileMakesANewRevision) {
  Commit(1, kCommitted);
  auto plan = Choose(file_, BootFrom::kFile);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->record);
  EXPECT_EQ(plan->config, MustParse(kFileConfig));
  EXPECT_EQ(Choose("", BootFrom::kFile).status().message(), "--boot file needs -c FILE");
}

TEST_F(BootConfigTest, UnconfirmedCommitIsRolledBackAtStart) {
  Commit(1, kFileConfig);
  Commit(2, kCommitted);
  auto plan = Choose("", BootFrom::kAuto, PendingConfirm{2, 1, 0});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_TRUE(plan->rolled_back);
  EXPECT_TRUE(plan->record);
  EXPECT_EQ(plan->config, MustParse(kFileConfig));
  EXPECT_EQ(plan->comment, "rollback at start: commit 2 was not confirmed");
}

// A commit that no longer validates (say, templates changed) refuses the start at the commit
// file's own lines and names the way out.
TEST_F(BootConfigTest, InvalidCommitRefusesTheStartAtItsLines) {
  Commit(1, "virtual-router red {\n    table-id x;\n}\n");
  auto plan = Choose(file_);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message(),
            dir_ + "/state/commit-1.conf:5:14: 'x' is not a valid u32 for 'table-id'\n" +
                "revision 1 (" + dir_ +
                "/state/commit-1.conf) does not validate; start with the "
                "file instead: strata-rtrmgr -c " +
                file_ + " --boot file");
}

TEST(InstanceLockTest, SecondHolderIsRefusedWithThePid) {
  const std::string dir = ::testing::TempDir() + "/instance_lock_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  {
    auto first = InstanceLock::Acquire(dir, "run directory");
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    EXPECT_EQ(std::filesystem::status(dir).permissions() & std::filesystem::perms::all,
              std::filesystem::perms::owner_all);
    auto second = InstanceLock::Acquire(dir, "run directory");
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.status().code(), StatusCode::kFailedPrecondition);
    EXPECT_EQ(second.status().message(), "already running with the run directory " + dir +
                                             " (pid " + std::to_string(::getpid()) + ")");
  }
  EXPECT_TRUE(InstanceLock::Acquire(dir, "run directory").ok());  // released with its holder
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace strata::rtrmgr
