// Router, Finder and transports together, in one process: each Router is a "process" with its
// own sockets, so calls really cross Unix and TCP sockets.
#include "libipc/router.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <random>

#include "finder/finder_server.h"
#include "libipc/demo/test_service.h"
#include "libipc/run_until.h"

namespace strata::ipc {
namespace {

using namespace std::chrono_literals;
namespace tpb = strata::test::v1;

class RouterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/strata-router-test-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    ::setenv("STRATA_RUN_DIR", dir_.c_str(), 1);
    ::unsetenv("STRATA_FINDER");
    StartFinder({});
  }
  void TearDown() override {
    routers_.clear();
    finder_.reset();
    io_.poll();
    std::filesystem::remove_all(dir_);
  }

  void StartFinder(finder::FinderOptions opts) {
    opts.socket_path = dir_ + "/finder.sock";
    finder_ = std::make_unique<finder::FinderServer>(io_, opts);
    ASSERT_TRUE(finder_->Start().ok());
  }

  // Runs the loop until `done` or 5 s.
  template <typename Pred>
  bool RunUntil(Pred done, std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) {
    return ipc::RunUntil(io_, done, limit);
  }

  Router& NewRouter(RouterOptions opts = {}) {
    routers_.push_back(std::make_unique<Router>(io_, opts));
    return *routers_.back();
  }

  // A router serving the test interface as `instance`.
  Router& Server(const std::string& instance, RouterOptions opts = {}) {
    Router& r = NewRouter(opts);
    services_.push_back(std::make_unique<TestService>(io_));
    r.AddTarget("test", instance, false).Serve(*services_.back());
    StartAndWait(r);
    return r;
  }

  void StartAndWait(Router& r) {
    std::optional<Status> started;
    r.Start([&](const Status& s) { started = s; });
    ASSERT_TRUE(RunUntil([&] { return started.has_value(); }));
    ASSERT_TRUE(started->ok()) << started->ToString();
  }

  template <typename Req, typename Rep>
  std::pair<Status, Rep> CallAndWait(Router& r, const std::string& target, const std::string& path,
                                     const Req& req, CallOptions opts = {}) {
    std::optional<std::pair<Status, Rep>> result;
    r.Call<Req, Rep>(
        target, path, req, [&](const Status& s, const Rep& rep) { result.emplace(s, rep); }, opts);
    EXPECT_TRUE(RunUntil([&] { return result.has_value(); }));
    return result.value_or(std::make_pair(Internal("no answer"), Rep()));
  }

  boost::asio::io_context io_{1};
  std::string dir_;
  std::unique_ptr<finder::FinderServer> finder_;
  std::vector<std::unique_ptr<TestService>> services_;
  std::vector<std::unique_ptr<Router>> routers_;
};

tpb::AddRequest Add(uint32_t a, uint32_t b) {
  tpb::AddRequest r;
  r.set_a(a);
  r.set_b(b);
  return r;
}

TEST_F(RouterTest, CallsAcrossProcessesThroughTheFinder) {
  Server("t1");
  Router& client = NewRouter();
  StartAndWait(client);
  auto [s, rep] =
      CallAndWait<tpb::AddRequest, tpb::AddReply>(client, "t1", "test/1.0/add", Add(2, 3));
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(rep.sum(), 5u);
  // By class name too, and the resolution is cached.
  auto [s2, rep2] = CallAndWait<tpb::AddRequest, tpb::AddReply>(client, "test", "test/1.0/add",
                                                                Add(4000000000u, 4000000000u));
  ASSERT_TRUE(s2.ok());
  EXPECT_EQ(rep2.sum(), 8000000000u);
  EXPECT_EQ(client.cached_resolutions(), 2u);
}

// Every socket a Router opens (listeners, accepted and outgoing connections, the Finder's) is
// close-on-exec: strata-rtrmgr starts the router's processes, which must not inherit them.
TEST_F(RouterTest, SocketsAreCloseOnExec) {
  RouterOptions opts;
  opts.listen_families = {"sunix", "stcp", "grpc-unix"};
  Server("t1", opts);
  Router& client = NewRouter();
  StartAndWait(client);
  auto [s, rep] =
      CallAndWait<tpb::AddRequest, tpb::AddReply>(client, "t1", "test/1.0/add", Add(2, 3));
  ASSERT_TRUE(s.ok()) << s.ToString();
  size_t sockets = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    const auto target = std::filesystem::read_symlink(e.path(), ec).string();
    if (ec || !target.starts_with("socket:")) continue;
    const int fd = std::stoi(e.path().filename().string());
    ++sockets;
    EXPECT_TRUE(::fcntl(fd, F_GETFD) & FD_CLOEXEC) << "fd " << fd << " " << target;
  }
  EXPECT_GE(sockets, 6u) << "listeners and both ends of the connections";
}

TEST_F(RouterTest, TcpFamilyWorksToo) {
  Server("t1");
  RouterOptions opts;
  opts.preferred_family = "stcp";
  Router& client = NewRouter(opts);
  StartAndWait(client);
  auto [s, rep] =
      CallAndWait<tpb::AddRequest, tpb::AddReply>(client, "t1", "test/1.0/add", Add(1, 1));
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(rep.sum(), 2u);
}

TEST_F(RouterTest, GrpcFamiliesServeTheSameMethods) {
  RouterOptions server_opts;
  server_opts.listen_families = {"grpc-unix", "grpc-tcp"};
  Server("t1", server_opts);
  for (const std::string family : {"grpc-unix", "grpc-tcp"}) {
    RouterOptions opts;
    opts.preferred_family = family;
    opts.listen_families = {};
    Router& client = NewRouter(opts);
    StartAndWait(client);
    auto [s, rep] =
        CallAndWait<tpb::AddRequest, tpb::AddReply>(client, "t1", "test/1.0/add", Add(40, 2));
    ASSERT_TRUE(s.ok()) << family << ": " << s.ToString();
    EXPECT_EQ(rep.sum(), 42u);
    auto [s2, rep2] =
        CallAndWait<tpb::FailRequest, tpb::FailReply>(client, "t1", "test/1.0/fail", [] {
          tpb::FailRequest f;
          f.set_code(static_cast<uint32_t>(StatusCode::kOutOfRange));
          f.set_message("over");
          return f;
        }());
    EXPECT_EQ(s2, Status(StatusCode::kOutOfRange, "over")) << family;
  }
}

TEST_F(RouterTest, PipelinedCallsArriveInOrder) {
  Server("t1");
  Router& client = NewRouter();
  StartAndWait(client);
  constexpr int kCalls = 20000;
  int answered = 0;
  int failed = 0;
  for (int i = 1; i <= kCalls; ++i) {
    tpb::Args1Request req;
    req.set_a1(static_cast<uint32_t>(i));
    client.Call<tpb::Args1Request, tpb::ArgsReply>("t1", "test/1.0/args1", req,
                                                   [&](const Status& s, const tpb::ArgsReply&) {
                                                     ++answered;
                                                     if (!s.ok()) ++failed;
                                                   });
  }
  ASSERT_TRUE(RunUntil([&] { return answered == kCalls; }, 20000ms));
  EXPECT_EQ(failed, 0);
  auto [s, count] = CallAndWait<tpb::GetCountRequest, tpb::GetCountReply>(
      client, "t1", "test/1.0/get_count", tpb::GetCountRequest());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(count.count(), static_cast<uint64_t>(kCalls));
  EXPECT_EQ(count.last_seq(), static_cast<uint64_t>(kCalls));
  EXPECT_EQ(count.out_of_order(), 0u);
}

TEST_F(RouterTest, ReceiverRejectsCallsWithoutTheFindersKey) {
  Router& server = Server("t1");
  std::string path;
  for (const auto& [proto, addr] : server.endpoints()) {
    if (proto == "sunix") path = addr;
  }
  std::shared_ptr<Channel> raw;
  ConnectChannel(io_, "sunix", path, [&](StatusOr<std::shared_ptr<Channel>> ch) {
    ASSERT_TRUE(ch.ok());
    raw = *ch;
    raw->Start([](const auto&, const CallFrame&) {}, [](Channel&, const Status&) {});
  });
  ASSERT_TRUE(RunUntil([&] { return raw != nullptr; }));
  auto call = [&](const std::string& method, const std::string& key) {
    std::optional<Status> result;
    raw->SendCall(
        method, key, [](std::string&) {}, [&](const Status& s, std::string_view) { result = s; },
        5s);
    EXPECT_TRUE(RunUntil([&] { return result.has_value(); }));
    return result.value_or(Internal("no answer")).code();
  };
  EXPECT_EQ(call("t1/test/1.0/ping", ""), StatusCode::kPermissionDenied);
  EXPECT_EQ(call("t1/test/1.0/ping", std::string(16, 'x')), StatusCode::kPermissionDenied);
  EXPECT_EQ(call("t1/test/1.0/nope", std::string(16, 'x')), StatusCode::kUnimplemented);
  EXPECT_EQ(call("t9/test/1.0/ping", ""), StatusCode::kNotFound);
  EXPECT_EQ(call("garbage", ""), StatusCode::kInvalidArgument);
}

TEST_F(RouterTest, GarbageOnTheSocketClosesOnlyThatConnection) {
  Router& server = Server("t1");
  std::string path;
  for (const auto& [proto, addr] : server.endpoints()) {
    if (proto == "sunix") path = addr;
  }
  std::mt19937 rng(1);
  for (int round = 0; round < 20; ++round) {
    boost::asio::local::stream_protocol::socket s(io_);
    s.connect(boost::asio::local::stream_protocol::endpoint(path));
    std::string junk(1 + rng() % 4096, '\0');
    for (auto& c : junk) c = static_cast<char>(rng());
    boost::system::error_code ec;
    boost::asio::write(s, boost::asio::buffer(junk), ec);
    io_.poll();
  }
  Router& client = NewRouter();
  StartAndWait(client);
  auto [s, rep] =
      CallAndWait<tpb::AddRequest, tpb::AddReply>(client, "t1", "test/1.0/add", Add(1, 2));
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(rep.sum(), 3u);
}

TEST_F(RouterTest, BadArgumentsGetAnErrorReply) {
  Server("t1");
  Router& client = NewRouter();
  StartAndWait(client);
  std::optional<Status> result;
  client.SendRaw("t1", "test/1.0/add", std::string("\xff\xff\xff", 3),
                 [&](const Status& s, std::string_view) { result = s; });
  ASSERT_TRUE(RunUntil([&] { return result.has_value(); }));
  EXPECT_EQ(result->code(), StatusCode::kInvalidArgument);
  result.reset();
  client.SendRaw("t1", "test/1.0/nope", "", [&](const Status& s, std::string_view) { result = s; });
  ASSERT_TRUE(RunUntil([&] { return result.has_value(); }));
  EXPECT_EQ(result->code(), StatusCode::kUnimplemented);
  result.reset();
  client.SendRaw("nobody", "test/1.0/add", "",
                 [&](const Status& s, std::string_view) { result = s; });
  ASSERT_TRUE(RunUntil([&] { return result.has_value(); }));
  EXPECT_EQ(result->code(), StatusCode::kNotFound);
}

TEST_F(RouterTest, DeathDuringACallFailsItAndDropsTheResolution) {
  Router& server = Server("t1");
  Router& client = NewRouter();
  StartAndWait(client);
  std::vector<std::string> events;
  client.WatchInstance("t1", [&](const std::string&, const std::string& i, bool alive) {
    events.push_back(i + (alive ? " birth" : " death"));
  });
  tpb::SleepRequest sleep;
  sleep.set_delay_ms(5000);
  std::optional<Status> result;
  client.Call<tpb::SleepRequest, tpb::SleepReply>(
      "t1", "test/1.0/sleep", sleep, [&](const Status& s, const tpb::SleepReply&) { result = s; });
  ASSERT_TRUE(RunUntil([&] { return services_.size() == 1 && client.cached_resolutions() == 1; }));
  io_.poll();
  server.Stop();
  ASSERT_TRUE(RunUntil([&] { return result.has_value(); }));
  EXPECT_EQ(result->code(), StatusCode::kUnavailable);
  EXPECT_NE(result->message().find("died"), std::string::npos);
  ASSERT_TRUE(RunUntil([&] { return events.size() == 2; }));
  EXPECT_EQ(events[1], "t1 death");
  auto [s, rep] =
      CallAndWait<tpb::AddRequest, tpb::AddReply>(client, "t1", "test/1.0/add", Add(1, 2));
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  // It comes back: the watcher hears, and calls go through again with fresh keys.
  Server("t1");
  ASSERT_TRUE(RunUntil([&] { return events.size() == 3; }));
  EXPECT_EQ(events[2], "t1 birth");
  auto [s2, rep2] =
      CallAndWait<tpb::AddRequest, tpb::AddReply>(client, "t1", "test/1.0/add", Add(1, 2));
  EXPECT_TRUE(s2.ok()) << s2.ToString();
}

TEST_F(RouterTest, TimeoutGivesDeadlineExceeded) {
  Server("t1");
  Router& client = NewRouter();
  StartAndWait(client);
  tpb::SleepRequest sleep;
  sleep.set_delay_ms(2000);
  CallOptions opts;
  opts.timeout = 100ms;
  auto [s, rep] =
      CallAndWait<tpb::SleepRequest, tpb::SleepReply>(client, "t1", "test/1.0/sleep", sleep, opts);
  EXPECT_EQ(s.code(), StatusCode::kDeadlineExceeded);
}

TEST_F(RouterTest, HandlerErrorsReachTheCaller) {
  Server("t1");
  Router& client = NewRouter();
  StartAndWait(client);
  tpb::FailRequest fail;
  fail.set_code(static_cast<uint32_t>(StatusCode::kFailedPrecondition));
  fail.set_message("not today");
  auto [s, rep] =
      CallAndWait<tpb::FailRequest, tpb::FailReply>(client, "t1", "test/1.0/fail", fail);
  EXPECT_EQ(s, Status(StatusCode::kFailedPrecondition, "not today"));
}

TEST_F(RouterTest, InProcessCallsNeedNoSocket) {
  Router& server = Server("t1");
  auto [s, rep] =
      CallAndWait<tpb::AddRequest, tpb::AddReply>(server, "t1", "test/1.0/add", Add(20, 22));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(rep.sum(), 42u);
  EXPECT_EQ(server.cached_resolutions(), 0u) << "no Finder round trip for a local target";
}

TEST_F(RouterTest, SecondSoleInstanceIsRefused) {
  Router& a = NewRouter();
  TestService svc(io_);
  a.AddTarget("fea", "fea", true).Serve(svc);
  StartAndWait(a);
  Router& b = NewRouter();
  b.AddTarget("fea", "fea2", true).Serve(svc);
  std::optional<Status> started;
  b.Start([&](const Status& s) { started = s; });
  ASSERT_TRUE(RunUntil([&] { return started.has_value(); }));
  EXPECT_EQ(started->code(), StatusCode::kAlreadyExists);
  EXPECT_NE(started->message().find("sole-instance"), std::string::npos);
}

TEST_F(RouterTest, FinderPermissionsLimitWhatAProcessMayCall) {
  finder_.reset();
  finder::FinderOptions fo;
  fo.admin_secret = "admin";
  fo.strict = true;
  StartFinder(fo);
  Server("t1");
  RouterOptions admin_opts;
  Router& admin = NewRouter(admin_opts);
  StartAndWait(admin);
  finder::v1::SetPermissionsRequest perm;
  perm.set_admin_secret("admin");
  perm.set_secret("s1");
  perm.add_allowed_targets("test");
  perm.add_allowed_methods("test/1.0/ping");
  auto [ps, prep] = CallAndWait<finder::v1::SetPermissionsRequest, finder::v1::SetPermissionsReply>(
      admin, "finder", "finder/1.0/set_permissions", perm);
  ASSERT_TRUE(ps.ok()) << ps.ToString();

  RouterOptions o;
  o.secret = "s1";
  Router& limited = NewRouter(o);
  StartAndWait(limited);
  auto [s1, r1] = CallAndWait<tpb::PingRequest, tpb::PingReply>(limited, "t1", "test/1.0/ping",
                                                                tpb::PingRequest());
  EXPECT_TRUE(s1.ok()) << s1.ToString();
  auto [s2, r2] =
      CallAndWait<tpb::AddRequest, tpb::AddReply>(limited, "t1", "test/1.0/add", Add(1, 1));
  EXPECT_EQ(s2.code(), StatusCode::kPermissionDenied);
  RouterOptions none;
  none.secret = "unknown";
  Router& stranger = NewRouter(none);
  StartAndWait(stranger);
  auto [s3, r3] = CallAndWait<tpb::PingRequest, tpb::PingReply>(stranger, "t1", "test/1.0/ping",
                                                                tpb::PingRequest());
  EXPECT_EQ(s3.code(), StatusCode::kPermissionDenied);
}

// The Finder goes and a new one starts on the same socket: calls on cached resolutions keep
// working meanwhile, every Router reconnects and registers again with the same keys, a fresh
// process resolves the target through the new Finder, and watchers hear no death or birth of
// a target that lived on, but do hear a later real death.
TEST_F(RouterTest, FinderRestartIsRiddenOutWithoutSpuriousEvents) {
  RouterOptions opts;
  opts.finder_settle = 300ms;
  Router& server = Server("t1", opts);
  Router& client = NewRouter(opts);
  services_.push_back(std::make_unique<TestService>(io_));
  client.AddTarget("test", "watcher", false).Serve(*services_.back());
  StartAndWait(client);
  std::vector<std::string> events;
  client.WatchInstance("t1", [&](const std::string&, const std::string& i, bool alive) {
    events.push_back(i + (alive ? " birth" : " death"));
  });
  ASSERT_TRUE(RunUntil([&] { return events.size() == 1; }));
  ASSERT_TRUE((CallAndWait<tpb::AddRequest, tpb::AddReply>(client, "t1", "test/1.0/add", Add(1, 2)))
                  .first.ok());

  finder_.reset();
  ASSERT_TRUE(RunUntil([&] { return !client.finder_connected() && !server.finder_connected(); }));
  auto [during, rep] =
      CallAndWait<tpb::AddRequest, tpb::AddReply>(client, "t1", "test/1.0/add", Add(2, 2));
  EXPECT_TRUE(during.ok()) << "a cached resolution needs no Finder: " << during.ToString();
  EXPECT_EQ(rep.sum(), 4u);

  StartFinder({});
  ASSERT_TRUE(RunUntil([&] {
    return client.finder_reconnects() == 1 && server.finder_reconnects() == 1 &&
           finder_->registry().target_count() == 2;
  }));
  Router& fresh = NewRouter();
  StartAndWait(fresh);
  auto [s, rep2] =
      CallAndWait<tpb::AddRequest, tpb::AddReply>(fresh, "t1", "test/1.0/add", Add(3, 4));
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(rep2.sum(), 7u);
  // Past the settle time: no event, and the old resolution still agrees with the new Finder.
  RunUntil([] { return false; }, 600ms);
  EXPECT_EQ(events, (std::vector<std::string>{"t1 birth"}));
  EXPECT_EQ(client.cached_resolutions(), 1u);
  auto [after, rep3] =
      CallAndWait<tpb::AddRequest, tpb::AddReply>(client, "t1", "test/1.0/add", Add(5, 5));
  EXPECT_TRUE(after.ok()) << after.ToString();

  server.Stop();
  ASSERT_TRUE(RunUntil([&] { return events.size() == 2; }));
  EXPECT_EQ(events[1], "t1 death");
}

// A watched target that dies while the Finder is away is reported dead once the others had
// their time to register again.
TEST_F(RouterTest, TargetLostWithTheFinderIsReportedDeadAfterTheSettleTime) {
  RouterOptions opts;
  opts.finder_settle = 200ms;
  Router& server = Server("t1", opts);
  Router& client = NewRouter(opts);
  services_.push_back(std::make_unique<TestService>(io_));
  client.AddTarget("test", "watcher", false).Serve(*services_.back());
  StartAndWait(client);
  std::vector<std::string> events;
  client.WatchClass("test", [&](const std::string&, const std::string& i, bool alive) {
    events.push_back(i + (alive ? " birth" : " death"));
  });
  ASSERT_TRUE(RunUntil([&] { return events.size() == 2; }));  // t1 and the watcher itself
  finder_.reset();
  server.Stop();
  StartFinder({});
  ASSERT_TRUE(RunUntil([&] { return client.finder_reconnects() == 1; }));
  ASSERT_TRUE(RunUntil([&] { return events.size() == 3; }));
  EXPECT_EQ(events[2], "t1 death");
  RunUntil([] { return false; }, 300ms);
  EXPECT_EQ(events.size(), 3u) << "the watcher itself lived on";
}

}  // namespace
}  // namespace strata::ipc
