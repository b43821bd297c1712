#include "libipc/socket_files.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

namespace strata::ipc {
namespace {

// A Unix socket bound at `path`, closed again: the file stays, as a killed process leaves it.
void MakeSocketFile(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0) << path;
  ::close(fd);
}

// The pid of a process that has exited and been reaped.
pid_t DeadPid() {
  const pid_t p = ::fork();
  if (p == 0) ::_exit(0);
  ::waitpid(p, nullptr, 0);
  return p;
}

TEST(SocketFilesTest, NamesCarryThePid) {
  EXPECT_EQ(SocketFilePath("/run/strata", "rib.red", 42, false), "/run/strata/rib.red.42.sock");
  EXPECT_EQ(SocketFilePath("/run/strata", "fea", 7, true), "/run/strata/fea.7.grpc.sock");
  EXPECT_EQ(SocketFilePid("rib.red.42.sock"), 42);
  EXPECT_EQ(SocketFilePid("fea.7.grpc.sock"), 7);
  for (const char* other : {"finder.sock", "rib.red.sock", ".42.sock", "rib.42x.sock",
                            "rib.42.sock.tmp", "rtrmgr.state", "rib.-3.sock"}) {
    EXPECT_EQ(SocketFilePid(other), 0) << other;
  }
}

TEST(SocketFilesTest, RemovesTheFilesOfDeadProcessesOnly) {
  char tmpl[] = "/tmp/strata-sockfiles-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  const pid_t dead = DeadPid();
  const pid_t self = ::getpid();
  MakeSocketFile(SocketFilePath(dir, "rib.red", dead, false));
  MakeSocketFile(SocketFilePath(dir, "rib.red", dead, true));
  MakeSocketFile(SocketFilePath(dir, "fea", self, false));
  MakeSocketFile(dir + "/finder.sock");
  EXPECT_EQ(RemoveStaleSocketFiles(dir), 2u);
  EXPECT_TRUE(std::filesystem::exists(SocketFilePath(dir, "fea", self, false)));
  EXPECT_TRUE(std::filesystem::exists(dir + "/finder.sock"));
  EXPECT_EQ(RemoveSocketFiles(dir, self), 1u);
  EXPECT_FALSE(std::filesystem::exists(SocketFilePath(dir, "fea", self, false)));
  std::filesystem::remove_all(dir);
}

// A process that died but is not reaped yet (a killed rtrmgr whose parent has not waited) is gone.
TEST(SocketFilesTest, AZombiesFilesAreStale) {
  char tmpl[] = "/tmp/strata-sockfiles-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  const pid_t zombie = ::fork();
  if (zombie == 0) ::_exit(0);
  ASSERT_GT(zombie, 0);
  siginfo_t info{};
  ASSERT_EQ(::waitid(P_PID, zombie, &info, WEXITED | WNOWAIT), 0);  // exited, not reaped
  MakeSocketFile(SocketFilePath(dir, "rtrmgr", zombie, false));
  EXPECT_EQ(RemoveStaleSocketFiles(dir), 1u);
  ::waitpid(zombie, nullptr, 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace strata::ipc
