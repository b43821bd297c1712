#include "common/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "testing/common/file_text.h"

namespace strata {
namespace {

TEST(AtomicFileTest, ReplacesWithTheModeAndLeavesNoTemporary) {
  const std::string dir = ::testing::TempDir() + "/atomic_file_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/commit-1.conf";
  ASSERT_TRUE(WriteFileAtomically(path, "first\n", 0644).ok());
  ASSERT_TRUE(WriteFileAtomically(path, "second\n", 0600).ok());
  EXPECT_EQ(test_util::FileText(path), "second\n");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            1);
}

TEST(AtomicFileTest, FailureLeavesTheTargetAlone) {
  const Status s = WriteFileAtomically("/nonexistent-dir/x.conf", "x", 0600);
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_NE(s.message().find("/nonexistent-dir/x.conf"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace strata
