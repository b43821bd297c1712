#include "common/private_dir.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

namespace strata {
namespace {

namespace fs = std::filesystem;

class PrivateDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("strata-private-dir-" + std::to_string(::getpid()));
    fs::create_directories(base_);
  }
  void TearDown() override { fs::remove_all(base_); }
  fs::path base_;
};

mode_t ModeOf(const fs::path& p) {
  struct stat st {};
  ::lstat(p.c_str(), &st);
  return st.st_mode & 07777;
}

TEST_F(PrivateDirTest, MakesTheDirectory0700WithItsParents) {
  const fs::path dir = base_ / "a" / "run";
  ASSERT_TRUE(EnsurePrivateDir(dir, "run directory").ok());
  EXPECT_EQ(ModeOf(dir), 0700u);
  EXPECT_TRUE(EnsurePrivateDir(dir, "run directory").ok()) << "existing and fine";
  EXPECT_TRUE(CheckTrustedDir(dir, "run directory").ok());
}

TEST_F(PrivateDirTest, RefusesAGroupOrWorldWritableDirectory) {
  const fs::path dir = base_ / "open";
  fs::create_directories(dir);
  ::chmod(dir.c_str(), 0777);
  Status s = EnsurePrivateDir(dir, "run directory");
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("writable by group or others (mode 0777)"), std::string::npos)
      << s.message();
  EXPECT_FALSE(CheckTrustedDir(dir, "run directory").ok());
  ::chmod(dir.c_str(), 0755);  // readable is fine: the sockets inside are 0600
  EXPECT_TRUE(EnsurePrivateDir(dir, "run directory").ok());
}

TEST_F(PrivateDirTest, RefusesASymlinkOrAFile) {
  fs::create_directories(base_ / "real");
  fs::create_symlink(base_ / "real", base_ / "link");
  Status s = EnsurePrivateDir(base_ / "link", "run directory");
  EXPECT_NE(s.message().find("not a directory"), std::string::npos) << s.message();
  {
    std::FILE* f = std::fopen((base_ / "file").c_str(), "w");
    std::fclose(f);
  }
  EXPECT_FALSE(EnsurePrivateDir(base_ / "file", "run directory").ok());
}

TEST_F(PrivateDirTest, RefusesADirectoryOfAnotherUser) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give the directory away";
  const fs::path dir = base_ / "theirs";
  fs::create_directories(dir);
  ::chmod(dir.c_str(), 0700);
  ASSERT_EQ(::chown(dir.c_str(), 65534, 65534), 0);
  Status s = EnsurePrivateDir(dir, "run directory");
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("belongs to uid 65534"), std::string::npos) << s.message();
  // A client trusts a root-owned directory, not another ordinary user's: as nobody, root's
  // directory passes and a third user's does not.
  const fs::path roots = base_ / "roots";
  fs::create_directories(roots);
  ::chmod(roots.c_str(), 0755);
  ::chmod(base_.c_str(), 0755);
  const fs::path others = base_ / "others";
  fs::create_directories(others);
  ASSERT_EQ(::chown(others.c_str(), 65533, 65533), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(2);
    const bool ok = CheckTrustedDir(roots, "run directory").ok() &&
                    !CheckTrustedDir(others, "run directory").ok() &&
                    CheckTrustedDir(dir, "run directory").ok();
    ::_exit(ok ? 0 : 1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace strata
