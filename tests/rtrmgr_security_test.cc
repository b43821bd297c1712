// A router under strata-rtrmgr tried as a local attacker would: the descriptors its children
// inherit, a process squatting a component's name while it restarts, and a run directory
// another user made first.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "common/json.h"
#include "testing/process_harness.h"

namespace strata::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kConfig = R"(
interfaces {
    interface lo { description "loopback"; }
}
virtual-router red {
    table-id 0;
    static {
        route 192.0.2.0/24 { next-hop 127.0.0.1; }
    }
}
)";

// The sockets and pipes a process holds: "socket:[123]", "pipe:[456]".
std::set<std::string> KernelObjects(pid_t pid) {
  std::set<std::string> out;
  std::error_code ec;
  for (const auto& e :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
    std::error_code rl;
    const std::string target = std::filesystem::read_symlink(e.path(), rl).string();
    if (target.starts_with("socket:[") || target.starts_with("pipe:[")) out.insert(target);
  }
  return out;
}

std::string FileText(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class RtrmgrSecurityTest : public ::testing::Test {
 protected:
  pid_t StartRouter(const std::vector<std::string>& extra = {}) {
    conf_ = h_.run_dir() + "/router.conf";
    std::ofstream(conf_) << kConfig;
    std::vector<std::string> args = {"strata-rtrmgr",
                                     "-c",
                                     conf_,
                                     "--no-kernel",
                                     "--state-dir",
                                     h_.run_dir() + "/state",
                                     "--log-dir",
                                     h_.run_dir() + "/logs",
                                     "--restart-backoff-ms",
                                     "500"};
    args.insert(args.end(), extra.begin(), extra.end());
    rtrmgr_ = h_.Start(args, "rtrmgr");
    // Running, and registered: the RIB answers.
    EXPECT_TRUE(ProcessHarness::WaitFor(
        [&] {
          return Running("rib.red") &&
                 h_.Run({"strata-call", "finder://rib.red/common/1.0/get_status"}).exit_code == 0;
        },
        20s))
        << h_.ReadLog("rtrmgr");
    return rtrmgr_;
  }
  void TearDown() override {
    if (rtrmgr_ > 0 && !h_.Exited(rtrmgr_)) {
      h_.Kill(rtrmgr_, SIGTERM);
      ProcessHarness::WaitFor([&] { return h_.Exited(rtrmgr_); }, 10s);
    }
  }
  nlohmann::json Processes() {
    auto r = h_.Run({"strata-sh", "-c", "show processes --json"});
    if (r.exit_code != 0) return nullptr;
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    return j.is_object() && j.contains("processes") ? j["processes"] : nullptr;
  }
  nlohmann::json Process(const std::string& instance) {
    auto all = Processes();
    if (!all.is_array()) return nullptr;
    for (const auto& p : all) {
      if (p["instance"] == instance) return p;
    }
    return nullptr;
  }
  bool Running(const std::string& instance) {
    auto p = Process(instance);
    return p.is_object() && p["state"] == "running";
  }

  ProcessHarness h_;
  std::string conf_;
  pid_t rtrmgr_ = 0;
};

// No child of the rtrmgr holds a socket or pipe of the rtrmgr's (its listeners, its connections
// to the Finder and the FEA): every one the rtrmgr has open is close-on-exec.
TEST_F(RtrmgrSecurityTest, ChildrenHoldNoneOfTheRtrmgrsSocketsOrPipes) {
  StartRouter();
  const std::set<std::string> mine = KernelObjects(rtrmgr_);
  ASSERT_GE(mine.size(), 3u) << "the rtrmgr's listeners and connections";
  auto procs = Processes();
  ASSERT_TRUE(procs.is_array());
  size_t children = 0;
  for (const auto& p : procs) {
    const pid_t pid = p["pid"].get<int>();
    if (pid <= 0) continue;
    ++children;
    std::set<std::string> theirs;
    // A child just started may not have opened its sockets yet.
    EXPECT_TRUE(ProcessHarness::WaitFor([&] {
      theirs = KernelObjects(pid);
      return !theirs.empty();
    })) << p["instance"]
        << " opened no sockets";
    for (const auto& o : theirs) {
      EXPECT_FALSE(mine.contains(o))
          << p["instance"] << " (pid " << pid << ") holds the rtrmgr's " << o;
    }
  }
  EXPECT_GE(children, 3u);  // finder, fea, rib.red
}

// strata-rib killed: during its restart gap another process tries, again and again, to
// register rib.red. The Finder refuses it (the name is the secret's the rtrmgr gave the RIB),
// and the real RIB comes back under its name.
TEST_F(RtrmgrSecurityTest, SquatterCannotTakeANameDuringARestart) {
  StartRouter();
  auto p = Process("rib.red");
  ASSERT_TRUE(p.is_object());
  const int restarts = p["restarts"].get<int>();
  ASSERT_EQ(::kill(p["pid"].get<int>(), SIGKILL), 0);
  int tries = 0;
  const auto until = std::chrono::steady_clock::now() + 1500ms;
  while (std::chrono::steady_clock::now() < until) {
    auto r = h_.Run({"strata-test-target", "-n", "rib.red", "-c", "rib", "--listen", "sunix",
                     "--exit-after-registering"});
    ++tries;
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_EQ(r.out.find("registered"), std::string::npos) << r.out;
  }
  EXPECT_GT(tries, 1);
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] {
        auto q = Process("rib.red");
        return q.is_object() && q["state"] == "running" && q["restarts"].get<int>() > restarts;
      },
      20s))
      << h_.ReadLog("rtrmgr");
  EXPECT_NE(
      FileText(h_.run_dir() + "/logs/finder.log").find("belongs to the process started for it"),
      std::string::npos);
  auto listed = h_.Run({"strata-sh", "-c", "show route vr red --json"});
  EXPECT_NE(listed.out.find("192.0.2.0/24"), std::string::npos) << listed.out << listed.err;
}

// A run directory another user made first is refused by every part, with the reason.
TEST_F(RtrmgrSecurityTest, RunDirectoryOfAnotherUserIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give the directory away";
  ASSERT_EQ(::chown(h_.run_dir().c_str(), 65534, 65534), 0);
  auto finder = h_.Run({"strata-finder"});
  EXPECT_EQ(finder.exit_code, 1);
  EXPECT_NE(finder.err.find("belongs to uid 65534"), std::string::npos) << finder.err;
  conf_ = h_.run_dir() + "/router.conf";
  std::ofstream(conf_) << kConfig;
  auto rtrmgr = h_.Run({"strata-rtrmgr", "-c", conf_, "--no-kernel"});
  EXPECT_EQ(rtrmgr.exit_code, 1);
  EXPECT_NE(rtrmgr.err.find("belongs to uid 65534"), std::string::npos) << rtrmgr.err;
  auto call = h_.Run({"strata-call", "finder://finder/finder/1.0/list_targets"});
  EXPECT_EQ(call.exit_code, 9);  // FAILED_PRECONDITION
  EXPECT_NE(call.err.find("belongs to uid 65534"), std::string::npos) << call.err;
  // Ours again but writable by others: refused as well.
  ASSERT_EQ(::chown(h_.run_dir().c_str(), 0, 0), 0);
  ASSERT_EQ(::chmod(h_.run_dir().c_str(), 0777), 0);
  finder = h_.Run({"strata-finder"});
  EXPECT_EQ(finder.exit_code, 1);
  EXPECT_NE(finder.err.find("writable by group or others"), std::string::npos) << finder.err;
  ASSERT_EQ(::chmod(h_.run_dir().c_str(), 0700), 0);
}

// Throwaway users and groups, removed again: `ops` may reach the router and show, `cfg`
// members may also configure.
class OperatorUsers {
 public:
  OperatorUsers() {
    const std::string tag = std::to_string(::getpid() % 100000);
    ops = "strata-t" + tag + "-ops";
    cfg = "strata-t" + tag + "-cfg";
    monitor = "strata-t" + tag + "-mon";
    stranger = "strata-t" + tag + "-out";
    admin = "strata-t" + tag + "-adm";
    ok = Sh("groupadd " + ops) && Sh("groupadd " + cfg) &&
         Sh("useradd -M -N -g nogroup -G " + ops + " " + monitor) &&
         Sh("useradd -M -N -g nogroup " + stranger) &&
         Sh("useradd -M -N -g nogroup -G " + ops + "," + cfg + " " + admin);
  }
  ~OperatorUsers() {
    for (const auto& u : {monitor, stranger, admin}) Sh("userdel " + u + " 2>/dev/null");
    for (const auto& g : {ops, cfg}) Sh("groupdel " + g + " 2>/dev/null");
  }
  // Runs `args` as `user` (its groups from the group database).
  static std::vector<std::string> As(const std::string& user, std::vector<std::string> args) {
    std::vector<std::string> out = {"/usr/bin/setpriv", "--reuid=" + user, "--regid=nogroup",
                                    "--init-groups", "--"};
    out.insert(out.end(), args.begin(), args.end());
    return out;
  }
  std::string ops, cfg, monitor, stranger, admin;
  bool ok = false;

 private:
  static bool Sh(const std::string& cmd) { return std::system(cmd.c_str()) == 0; }
};

// Under a strict Finder an operator gets rights by who it is: a user outside the operators'
// group cannot reach the router at all, a member sees (show) but cannot change anything, a
// member of the configuration group may also change it, and root may do everything; a change
// made past the rtrmgr is logged with the caller's uid and pid by the component it changes.
TEST_F(RtrmgrSecurityTest, OperatorsGetRightsByGroupAndShowIsSeparate) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to add users and groups";
  OperatorUsers users;
  ASSERT_TRUE(users.ok);
  StartRouter({"--operator-group", users.ops, "--config-group", users.cfg});
  struct stat st {};
  ASSERT_EQ(::stat(h_.run_dir().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 02710u);
  for (const auto& e : std::filesystem::directory_iterator(h_.run_dir())) {
    if (!e.is_socket()) continue;
    ASSERT_EQ(::stat(e.path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0660u) << e.path();
  }
  auto call = [&](const std::string& user, const std::string& xrl) {
    const std::string bin = h_.bin("strata-call");
    return h_.Run(OperatorUsers::As(user, {bin, xrl}));
  };
  const std::string show = "finder://rib.red/rib/1.0/lookup_route?addr:ipv4=192.0.2.1";
  const std::string change = "finder://rib.red/log/1.0/set_levels?levels:txt=info";
  // Outside the group: the sockets are out of reach.
  auto r = call(users.stranger, show);
  EXPECT_EQ(r.exit_code, 14) << r.out << r.err;
  // A member of the operators' group: show, not change.
  r = call(users.monitor, show);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("found:bool=true"), std::string::npos) << r.out;
  r = call(users.monitor, change);
  EXPECT_EQ(r.exit_code, 7) << r.out << r.err;  // PERMISSION_DENIED
  auto sh = h_.Run(OperatorUsers::As(users.monitor, {h_.bin("strata-sh"), "-c", "show route"}));
  EXPECT_EQ(sh.exit_code, 0) << sh.err;
  EXPECT_NE(sh.out.find("192.0.2.0/24"), std::string::npos) << sh.out;
  // A member of the configuration group too: may change, and the RIB logs who did.
  r = call(users.admin, change);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(ProcessHarness::WaitFor([&] {
    const std::string log = FileText(h_.run_dir() + "/logs/rib.red.log");
    return log.find(
               "state-changing call log/1.0/set_levels on rib.red from outside the "
               "rtrmgr, by uid ") != std::string::npos;
  })) << FileText(h_.run_dir() + "/logs/rib.red.log");
  const std::string finder_log = FileText(h_.run_dir() + "/logs/finder.log");
  EXPECT_NE(finder_log.find("has show rights (no process secret"), std::string::npos) << finder_log;
  EXPECT_NE(finder_log.find("has show and configuration rights"), std::string::npos);
}

}  // namespace
}  // namespace strata::testing
