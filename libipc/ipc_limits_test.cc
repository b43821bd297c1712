// The limits a peer meets on the lean transport: frame size (per interface), the receive
// buffer's growth, the frame timeout, and connections in all and per peer.
#include "libipc/ipc_limits.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "libipc/listener.h"
#include "libipc/run_until.h"

namespace strata::ipc {
namespace {

using namespace std::chrono_literals;

int Connect(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

void SendAll(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    ASSERT_GT(n, 0);
    done += static_cast<size_t>(n);
  }
}

std::string U32(uint32_t v) {
  std::string s;
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
  return s;
}

// The start of a call frame of `length` bytes (after the length field) to `method`, up to
// its (empty) key.
std::string CallHead(uint32_t length, const std::string& method) {
  std::string s = U32(length);
  s.push_back(1);                                 // call
  s.append(8, '\0');                              // id
  s.push_back(static_cast<char>(method.size()));  // u16 method length
  s.push_back(0);
  s += method;
  s.push_back(0);  // no key
  return s;
}

// True once the peer closed `fd` (recv returns 0 or an error other than "nothing yet").
bool PeerClosed(int fd) {
  char c;
  const ssize_t n = ::recv(fd, &c, 1, MSG_DONTWAIT);
  return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

class IpcLimitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("strata-limits-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    path_ = dir_ + "/l.sock";
  }
  void TearDown() override {
    for (int fd : fds_) ::close(fd);
    listener_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Listen(const IpcLimits& limits) {
    auto l = Listener::Open(
        io_, "sunix", path_,
        [this](std::shared_ptr<Channel> ch) {
          auto* raw = ch.get();
          channels_.push_back(ch);
          ch->Start([](const std::shared_ptr<Channel>&, const CallFrame&) {},
                    [this, raw](Channel&, const Status& why) { closed_[raw] = why; });
        },
        limits);
    ASSERT_TRUE(l.ok()) << l.status().ToString();
    listener_ = std::move(*l);
  }
  // Sends `bytes` without blocking, running the listener's side meanwhile (one thread).
  void SendPumping(int fd, const std::string& bytes) {
    size_t done = 0;
    const auto end = std::chrono::steady_clock::now() + 5s;
    while (done < bytes.size() && std::chrono::steady_clock::now() < end) {
      const ssize_t n =
          ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        done += static_cast<size_t>(n);
      } else {
        ASSERT_TRUE(errno == EAGAIN || errno == EWOULDBLOCK) << std::strerror(errno);
        io_.run_for(1ms);
      }
    }
    ASSERT_EQ(done, bytes.size());
  }
  int Open() {
    const int fd = Connect(path_);
    if (fd >= 0) fds_.push_back(fd);
    return fd;
  }
  const Status* ClosedWhy(size_t i) {
    auto it = closed_.find(channels_.at(i).get());
    return it == closed_.end() ? nullptr : &it->second;
  }

  boost::asio::io_context io_;
  std::string dir_;
  std::string path_;
  std::unique_ptr<Listener> listener_;
  std::vector<std::shared_ptr<Channel>> channels_;
  std::map<Channel*, Status> closed_;
  std::vector<int> fds_;
};

TEST(IpcLimitsValueTest, CallLimitIsTheInterfacesOrTheDefault) {
  IpcLimits l;
  l.max_frame_bytes = 1000;
  l.interface_max_frame_bytes["rib/1.0"] = 5000;
  EXPECT_EQ(l.CallLimit("rib.red/rib/1.0/add_routes"), 5000u);
  EXPECT_EQ(l.CallLimit("bgp.red/bgp/1.0/add_peer"), 1000u);
  EXPECT_EQ(l.CallLimit("garbage"), 1000u);
  EXPECT_EQ(l.LargestCallLimit(), 5000u);
  l.max_frame_bytes = 1u << 31;  // beyond the format: held to it
  EXPECT_EQ(l.CallLimit("x/y/1.0/z"), kMaxFrameBytes);
}

TEST_F(IpcLimitsTest, LengthPrefixAloneAllocatesNothingAndBufferGrowsWithData) {
  IpcLimits limits;
  limits.max_frame_bytes = 8u << 20;
  Listen(limits);
  const int fd = Open();
  ASSERT_GE(fd, 0);
  SendAll(fd, U32(limits.max_frame_bytes - 1));  // claims 8 MiB, sends 4 bytes
  ASSERT_TRUE(RunUntil(io_, [&] { return channels_.size() == 1; }));
  io_.run_for(100ms);
  EXPECT_EQ(ClosedWhy(0), nullptr);
  EXPECT_LE(channels_[0]->buffer_bytes(), 64u * 1024);
  // 1 MiB of the frame arrives: the buffer holds it, within twice its size.
  SendPumping(fd, std::string(1u << 20, 'x'));
  io_.run_for(200ms);
  EXPECT_GE(channels_[0]->buffer_bytes(), 1u << 20);
  EXPECT_LE(channels_[0]->buffer_bytes(), 2u << 20);
  EXPECT_EQ(ClosedWhy(0), nullptr);
}

TEST_F(IpcLimitsTest, FrameOverTheLimitClosesTheConnection) {
  IpcLimits limits;
  limits.max_frame_bytes = 1024;
  Listen(limits);
  const int fd = Open();
  SendAll(fd, U32(64u << 20));
  ASSERT_TRUE(RunUntil(io_, [&] { return channels_.size() == 1 && ClosedWhy(0) != nullptr; }));
  EXPECT_EQ(ClosedWhy(0)->code(), StatusCode::kResourceExhausted) << ClosedWhy(0)->ToString();
  EXPECT_TRUE(RunUntil(io_, [&] { return PeerClosed(fd); }));
}

TEST_F(IpcLimitsTest, InterfaceLimitAppliesOnceTheMethodIsIn) {
  IpcLimits limits;
  limits.max_frame_bytes = 1024;
  limits.interface_max_frame_bytes["big/1.0"] = 1u << 20;
  Listen(limits);
  const int big = Open();
  const int small = Open();
  SendAll(big, CallHead(100000, "t/big/1.0/m"));
  ASSERT_TRUE(RunUntil(io_, [&] { return channels_.size() == 2; }));
  SendAll(small, CallHead(100000, "t/small/1.0/m"));
  io_.run_for(200ms);
  EXPECT_EQ(ClosedWhy(0), nullptr);
  ASSERT_NE(ClosedWhy(1), nullptr);
  EXPECT_EQ(ClosedWhy(1)->code(), StatusCode::kResourceExhausted);
}

TEST_F(IpcLimitsTest, ConnectionThatNeverCompletesAFrameIsClosed) {
  IpcLimits limits;
  limits.frame_timeout = 200ms;
  Listen(limits);
  Open();                     // sends nothing
  SendAll(Open(), U32(100));  // a length prefix and nothing more
  const int good = Open();    // a whole frame, then quiet
  ASSERT_TRUE(RunUntil(io_, [&] { return channels_.size() == 3; }));
  std::string frame = CallHead(0, "t/x/1.0/m");
  const uint32_t len = static_cast<uint32_t>(frame.size() - 4);
  frame.replace(0, 4, U32(len));
  SendAll(good, frame);
  ASSERT_TRUE(RunUntil(
      io_, [&] { return ClosedWhy(0) && ClosedWhy(1); }, 2000ms));
  EXPECT_EQ(ClosedWhy(0)->code(), StatusCode::kDeadlineExceeded);
  EXPECT_EQ(ClosedWhy(1)->code(), StatusCode::kDeadlineExceeded);
  io_.run_for(400ms);
  EXPECT_EQ(ClosedWhy(2), nullptr) << "an idle connection between frames stays";
}

TEST_F(IpcLimitsTest, ConnectionsOverTheTotalAreRefused) {
  IpcLimits limits;
  limits.max_connections = 3;
  Listen(limits);
  for (int i = 0; i < 3; ++i) Open();
  ASSERT_TRUE(RunUntil(io_, [&] { return channels_.size() == 3; }));
  const int fourth = Open();
  ASSERT_TRUE(RunUntil(io_, [&] { return listener_->refused() == 1; }));
  EXPECT_TRUE(RunUntil(io_, [&] { return PeerClosed(fourth); }));
  EXPECT_EQ(listener_->connections(), 3u);
  // One closes: its slot is free again.
  channels_[0]->Close(Status());
  EXPECT_EQ(listener_->connections(), 2u);
  Open();
  EXPECT_TRUE(RunUntil(io_, [&] { return channels_.size() == 4; }));
}

// Another user's connections count against the per-peer cap; the listener's own user's do not.
TEST_F(IpcLimitsTest, ConnectionsPerPeerAreCappedForOtherUsers) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to act as another user";
  IpcLimits limits;
  limits.max_connections_per_peer = 2;
  Listen(limits);
  ASSERT_EQ(::chmod(dir_.c_str(), 0711), 0);
  ASSERT_EQ(::chmod(path_.c_str(), 0666), 0);
  int report[2];
  int hold[2];
  ASSERT_EQ(::pipe2(report, O_CLOEXEC), 0);
  ASSERT_EQ(::pipe2(hold, O_CLOEXEC), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    // As nobody: four connections; report how many the listener closed, then hold them.
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(2);
    std::vector<int> fds;
    for (int i = 0; i < 4; ++i) fds.push_back(Connect(path_));
    char c = 0;
    if (::read(hold[0], &c, 1) < 0) ::_exit(3);  // the parent has accepted them all
    char closed = 0;
    for (int fd : fds) closed = static_cast<char>(closed + (fd < 0 || PeerClosed(fd) ? 1 : 0));
    if (::write(report[1], &closed, 1) != 1) ::_exit(4);
    ::_exit(0);
  }
  ::close(report[1]);
  ::close(hold[0]);
  EXPECT_TRUE(RunUntil(io_, [&] { return channels_.size() == 2 && listener_->refused() == 2; }));
  for (int i = 0; i < 4; ++i) Open();  // root: the listener's own user, not capped
  EXPECT_TRUE(RunUntil(io_, [&] { return channels_.size() == 6; }));
  io_.run_for(100ms);
  char go = 1;
  ASSERT_EQ(::write(hold[1], &go, 1), 1);
  char closed = 0;
  ASSERT_EQ(::read(report[0], &closed, 1), 1);
  EXPECT_EQ(closed, 2);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  ::close(report[0]);
  ::close(hold[1]);
}

}  // namespace
}  // namespace strata::ipc
