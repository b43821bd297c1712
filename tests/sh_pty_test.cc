// strata-sh at a terminal (a pseudo-terminal), as an operator types: abbreviated commands,
// output pipes, `?` answered at once, Ctrl-C clearing the line at the prompt and interrupting a
// command that waits, without leaving configuration mode or losing the candidate, and a clean
// message when the router goes away. The router is real: strata-rtrmgr with two VRs of static
// routes (no kernel, no BGP).
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <memory>
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
        route 192.0.2.128/25 { next-hop 127.0.0.1; }
    }
}
virtual-router blue {
    table-id 0;
    static {
        route 198.51.100.0/24 { next-hop 127.0.0.1; }
    }
}
)";

// strata-sh on a pseudo-terminal.
class PtyShell {
 public:
  PtyShell(const std::string& bin, const std::string& run_dir) {
    pid_ = ::forkpty(&fd_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      ::setenv("STRATA_RUN_DIR", run_dir.c_str(), 1);
      ::setenv("TERM", "dumb", 1);
      ::execl(bin.c_str(), bin.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~PtyShell() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) ::close(fd_);
  }
  bool started() const { return pid_ > 0; }
  void Send(const std::string& keys) {
    ASSERT_EQ(::write(fd_, keys.data(), keys.size()), static_cast<ssize_t>(keys.size()));
  }
  // Reads until `text` has appeared in the output since the last Expect; returns that output.
  std::string Expect(const std::string& text, std::chrono::milliseconds limit = 10s) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (seen_.find(text) == std::string::npos && std::chrono::steady_clock::now() < end) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      char buf[4096];
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n <= 0) break;
      seen_.append(buf, static_cast<size_t>(n));
    }
    std::string out = seen_;
    const auto at = seen_.find(text);
    found_ = at != std::string::npos;
    seen_ = found_ ? seen_.substr(at + text.size()) : "";
    return out;
  }
  bool found() const { return found_; }
  bool Exited(std::chrono::milliseconds limit) {
    return ProcessHarness::WaitFor([&] { return ::waitpid(pid_, nullptr, WNOHANG) == pid_; },
                                   limit) &&
           (pid_ = 0, true);
  }

 private:
  int fd_ = -1;
  pid_t pid_ = 0;
  std::string seen_;
  bool found_ = false;
};

class ShPtyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string conf = h_.run_dir() + "/router.conf";
    std::ofstream(conf) << kConfig;
    rtrmgr_ = h_.Start({"strata-rtrmgr", "-c", conf, "--no-kernel", "--state-dir",
                        h_.run_dir() + "/state", "--log-dir", h_.run_dir() + "/logs"},
                       "rtrmgr");
    ASSERT_GT(rtrmgr_, 0);
    ASSERT_TRUE(ProcessHarness::WaitFor(
        [&] {
          auto r = h_.Run({"strata-sh", "-c", "show route vr blue"});
          return r.out.find("198.51.100.0/24") != std::string::npos;
        },
        20s))
        << h_.ReadLog("rtrmgr");
    sh_ = std::make_unique<PtyShell>(h_.bin("strata-sh"), h_.run_dir());
    ASSERT_TRUE(sh_->started());
    sh_->Expect("strata> ");
    ASSERT_TRUE(sh_->found());
  }
  void TearDown() override {
    sh_.reset();
    if (rtrmgr_ > 0 && !h_.Exited(rtrmgr_)) {
      h_.Kill(rtrmgr_, SIGTERM);
      ProcessHarness::WaitFor([&] { return h_.Exited(rtrmgr_); }, 10s);
    }
  }
  // Types a line and returns what it printed up to the next prompt.
  std::string Line(const std::string& line, const std::string& prompt = "strata> ") {
    sh_->Send(line + "\r");
    std::string out = sh_->Expect(prompt);
    EXPECT_TRUE(sh_->found()) << line << " printed:\n" << out;
    return out;
  }
  pid_t Pid(const std::string& instance) {
    auto r = h_.Run({"strata-sh", "-c", "show processes --json"});
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    if (!j.is_object()) return 0;
    for (const auto& p : j["processes"]) {
      if (p["instance"] == instance) return p["pid"].get<pid_t>();
    }
    return 0;
  }

  ProcessHarness h_;
  pid_t rtrmgr_ = 0;
  std::unique_ptr<PtyShell> sh_;
};

TEST_F(ShPtyTest, AbbreviationsAndPipes) {
  std::string out = Line("sh ro v red");
  EXPECT_NE(out.find("192.0.2.128/25"), std::string::npos) << out;
  EXPECT_EQ(out.find("198.51.100.0/24"), std::string::npos) << out;
  out = Line("sh route | m 192\\.0\\.2 | count");
  EXPECT_NE(out.find("Count: 2 lines"), std::string::npos) << out;
  out = Line("show route vr red | except /25 | match static");
  EXPECT_NE(out.find("192.0.2.0/24"), std::string::npos) << out;
  EXPECT_EQ(out.find("192.0.2.128/25"), std::string::npos) << out;
  out = Line("show route 192.0.2.200 vr red");  // the longest match
  EXPECT_NE(out.find("192.0.2.128/25"), std::string::npos) << out;
  EXPECT_EQ(out.find("192.0.2.0/24"), std::string::npos) << out;
  // Red owns no interface: the FEA refuses its static routes, and `show route` says so.
  EXPECT_NE(out.find("NOT INSTALLED: "), std::string::npos) << out;
  EXPECT_NE(out.find("on no interface of VR 'red'"), std::string::npos) << out;
  out = Line("c");
  EXPECT_NE(out.find("ambiguous"), std::string::npos) << out;
}

TEST_F(ShPtyTest, QuestionMarkAnswersAtOnceAndIsACharacterInQuotes) {
  sh_->Send("show b?");
  std::string out = sh_->Expect("statistics");
  EXPECT_TRUE(sh_->found()) << out;
  EXPECT_NE(out.find("Possible completions:"), std::string::npos) << out;
  EXPECT_NE(out.find("BGP: peers, routes, statistics"), std::string::npos) << out;
  // The line typed so far is still there, shown again under the help: finish it.
  sh_->Expect("strata> show b");
  ASSERT_TRUE(sh_->found());
  out = Line("gp summary | match nothing-matches | count");
  EXPECT_NE(out.find("Count: 0 lines"), std::string::npos) << out;

  Line("configure", "strata# ");
  sh_->Send("set interfaces interface lo description \"what?");
  out = sh_->Expect("what?");
  EXPECT_EQ(out.find("Possible completions"), std::string::npos) << out;
  Line("\"", "strata# ");
  out = Line("show interfaces", "strata# ");
  EXPECT_NE(out.find("description what?;"), std::string::npos) << out;
}

TEST_F(ShPtyTest, CtrlCClearsTheLineAndKeepsTheCandidate) {
  sh_->Send("show route vr nosuchvr");
  sh_->Send("\x03");
  sh_->Expect("strata> ");
  ASSERT_TRUE(sh_->found());
  std::string out = Line("show processes");
  EXPECT_NE(out.find("rib.red"), std::string::npos) << out;
  EXPECT_EQ(out.find("nosuchvr"), std::string::npos) << out;

  Line("configure", "strata# ");
  Line("edit virtual-router red static", "strata# ");
  Line("set route 203.0.113.0/24 next-hop 127.0.0.1", "strata# ");
  sh_->Send("delete route 192.0.2.0/24\x03");
  out = sh_->Expect("strata# ");
  ASSERT_TRUE(sh_->found());
  out = Line("show | compare", "strata# ");
  EXPECT_NE(out.find("[edit virtual-router red static]"), std::string::npos) << out;
  EXPECT_NE(out.find("+    route 203.0.113.0/24"), std::string::npos) << out;
  EXPECT_EQ(out.find("-    route 192.0.2.0/24"), std::string::npos) << out;
  out = Line("top", "strata# ");
  EXPECT_NE(out.find("[edit]"), std::string::npos) << out;
  out = Line("commit", "strata# ");
  EXPECT_NE(out.find("commit complete"), std::string::npos) << out;
  out = Line("run sh ro 203.0.113.9 v red", "strata# ");
  EXPECT_NE(out.find("203.0.113.0/24"), std::string::npos) << out;
}

TEST_F(ShPtyTest, CtrlCInterruptsACommandThatWaits) {
  const pid_t rib = Pid("rib.red");
  ASSERT_GT(rib, 0);
  ::kill(rib, SIGSTOP);  // its replies stop coming
  Line("configure", "strata# ");
  Line("set virtual-router red static route 203.0.113.0/24 next-hop 127.0.0.1", "strata# ");
  sh_->Send("run show route vr red\r");
  std::this_thread::sleep_for(300ms);
  sh_->Send("\x03");
  std::string out = sh_->Expect("strata# ");
  ::kill(rib, SIGCONT);
  ASSERT_TRUE(sh_->found()) << out;
  EXPECT_NE(out.find("interrupted"), std::string::npos) << out;
  out = Line("show | compare", "strata# ");
  EXPECT_NE(out.find("+    route 203.0.113.0/24"), std::string::npos) << out;
  out = Line("run show route vr red", "strata# ");
  EXPECT_NE(out.find("192.0.2.0/24"), std::string::npos) << out;
}

TEST_F(ShPtyTest, RouterGoneIsOneClearErrorAndTheShellStays) {
  Line("configure", "strata# ");
  Line("set virtual-router red static route 203.0.113.0/24 next-hop 127.0.0.1", "strata# ");
  h_.Kill(rtrmgr_, SIGTERM);
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return h_.Exited(rtrmgr_); }, 15s));
  std::string out = Line("run show route", "strata# ");
  EXPECT_NE(out.find("the router is not running"), std::string::npos) << out;
  EXPECT_EQ(out.find("warning"), std::string::npos) << out;
  EXPECT_EQ(out.find("lost the Finder ("), std::string::npos) << out;
  out = Line("show | compare", "strata# ");
  EXPECT_NE(out.find("+    route 203.0.113.0/24"), std::string::npos) << out;
  sh_->Send("\x04");  // Ctrl-D leaves
  EXPECT_TRUE(sh_->Exited(5s));
}

// `monitor route` streams the winners' changes as another shell commits them; Ctrl-C ends it and
// the prompt is back. With `| json` (a script) each change is a JSON line.
TEST_F(ShPtyTest, MonitorRouteShowsAChangeAndCtrlCReturnsToThePrompt) {
  sh_->Send("monitor route vr red\r");
  std::string out = sh_->Expect("as they happen (Ctrl-C stops):");
  ASSERT_TRUE(sh_->found()) << out;
  auto r = h_.Run({"strata-sh", "-c",
                   "configure; set virtual-router red static route 203.0.113.0/24 next-hop "
                   "127.0.0.1; commit"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  out = sh_->Expect("203.0.113.0/24");
  ASSERT_TRUE(sh_->found()) << out;
  out = sh_->Expect("\n");
  EXPECT_NE(out.find("static"), std::string::npos) << out;
  EXPECT_NE(out.find("127.0.0.1"), std::string::npos) << out;
  // The monitor's first line for it: an add, in vr red.
  r = h_.Run({"strata-sh", "-c",
              "configure; set virtual-router red static route 203.0.113.0/24 metric 9; commit"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  out = sh_->Expect("metric 9");
  ASSERT_TRUE(sh_->found()) << out;
  EXPECT_NE(out.find("vr red replace 203.0.113.0/24 static"), std::string::npos) << out;
  // Ctrl-C is how a monitor ends: the prompt is back, and no "interrupted" as for a failure.
  sh_->Send("\x03");
  out = sh_->Expect("strata> ");
  ASSERT_TRUE(sh_->found()) << out;
  EXPECT_EQ(out.find("interrupted"), std::string::npos) << out;
  out = Line("show route 203.0.113.0/24 vr red");
  EXPECT_NE(out.find("203.0.113.0/24"), std::string::npos) << out;

  // A script: JSON lines, ended by SIGINT as Ctrl-C would, with status 0 (tcpdump's,
  // `journalctl -f`'s): the monitor ran as asked.
  const pid_t mon = h_.Start({"strata-sh", "-c", "monitor route vr red | json"}, "monitor");
  ASSERT_GT(mon, 0);
  std::this_thread::sleep_for(500ms);  // its first poll is parked
  r = h_.Run({"strata-sh", "-c",
              "configure; delete virtual-router red static route 203.0.113.0/24; commit"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] { return h_.ReadLog("monitor").find("ROUTE_CHANGE_DELETE") != std::string::npos; }, 10s))
      << h_.ReadLog("monitor");
  h_.Kill(mon, SIGINT);
  int status = -1;
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return h_.Exited(mon, &status); }, 10s));
  const std::string log = h_.ReadLog("monitor");
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status << "\n" << log;
  EXPECT_EQ(log.find("interrupted"), std::string::npos) << log;
  const auto line = log.substr(log.find("{"), log.find('\n', log.find("{")) - log.find("{"));
  auto j = nlohmann::json::parse(line, nullptr, false);
  ASSERT_TRUE(j.is_object()) << log;
  EXPECT_EQ(j.value("vr", ""), "red");
  EXPECT_EQ(j.value("change", ""), "ROUTE_CHANGE_DELETE");
  EXPECT_EQ(j["route"].value("prefix", ""), "203.0.113.0/24");
}

// Scripts (-c) use the same grammar: levels, show PATH, load merge (all or nothing).
TEST_F(ShPtyTest, LoadMergeAndLevelsInScripts) {
  const std::string good = h_.run_dir() + "/merge.conf";
  std::ofstream(good) << R"(
virtual-router red {
    static {
        route 203.0.113.0/24 { next-hop 127.0.0.1; }
        route 192.0.2.0/24 { next-hop 127.0.0.1; metric 7; }
    }
}
)";
  const std::string bad = h_.run_dir() + "/bad.conf";
  std::ofstream(bad) << "virtual-router red { static { route 10.0.0.0/8 { nexthop x; } } }\n";
  auto r = h_.Run({"strata-sh", "-c", "conf; load merge " + bad + "; sh | compare | count"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("nexthop"), std::string::npos) << r.err;
  r = h_.Run({"strata-sh", "-k", "-c",
              "conf; load merge " + bad + "; sh | compare | count; load merge " + good +
                  "; edit virtual-router red static; show route 192.0.2.0/24; up 2; "
                  "edit virt blue; show; show | compare; top; commit; run show route vr red"});
  EXPECT_NE(r.out.find("Count: 0 lines"), std::string::npos) << r.out;  // the bad file: nothing
  EXPECT_NE(r.out.find("load complete (3 statements merged)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("next-hop 127.0.0.1;\nmetric 7;"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("route 198.51.100.0/24"), std::string::npos) << r.out;  // blue kept
  EXPECT_NE(r.out.find("commit complete"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("203.0.113.0/24"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1/7"), std::string::npos) << r.out;
  r = h_.Run({"strata-sh", "-c", "configure; edit virtual-router red static route"});
  EXPECT_NE(r.err.find("wants its key"), std::string::npos) << r.err;
  r = h_.Run({"strata-sh", "-c", "configure; edit virtual-router red table-id"});
  EXPECT_NE(r.err.find("is a value"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace strata::testing
