// strata-rtrmgr as an operator meets it, with real processes (no kernel routes): --check and a
// live commit refuse a configuration alike, at the same file:line:column; commits survive a
// restart, and a start says when its -c file differs; one router per run and state directory;
// SIGHUP applies the file or refuses it whole; a typo in a log level is refused; show log and
// log levels set from the configuration; commit confirmed; save; refused starts.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/json.h"
#include "testing/common/file_text.h"
#include "testing/process_harness.h"

namespace strata::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kConfig = R"(interfaces {
    interface lo;
}
virtual-router red {
    interface lo;
    static {
        route 192.0.2.0/24 { next-hop 127.0.0.1; }
    }
}
virtual-router blue {
    static {
        route 198.51.100.0/24 { next-hop 127.0.0.1; }
    }
}
)";

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty()) out.push_back(l);
  }
  return out;
}

class RtrmgrOperatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    conf_ = h_.run_dir() + "/strata.conf";
    Write(conf_, kConfig);
  }
  void TearDown() override { Stop(); }

  void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
  // Starts the router (a log of its own per start) and waits for it to be up, in that log or
  // in `log_file` when it logs there.
  void StartRouter(std::vector<std::string> extra = {}, const std::string& log_file = "") {
    std::vector<std::string> args = {"strata-rtrmgr",        "-c", conf_, "--no-kernel",
                                     "--restart-backoff-ms", "100"};
    args.insert(args.end(), extra.begin(), extra.end());
    log_ = "rtrmgr" + std::to_string(++starts_);
    rtrmgr_ = h_.Start(args, log_);
    ASSERT_GT(rtrmgr_, 0);
    auto text = [&] { return log_file.empty() ? Log() : test_util::FileText(log_file); };
    ASSERT_TRUE(ProcessHarness::WaitFor(
        [&] { return text().find("router is up") != std::string::npos; }, 20s))
        << text();
  }
  void Stop() {
    if (rtrmgr_ > 0 && !h_.Exited(rtrmgr_)) {
      h_.Kill(rtrmgr_, SIGTERM);
      ProcessHarness::WaitFor([&] { return h_.Exited(rtrmgr_); }, 15s);
    }
    rtrmgr_ = 0;
  }
  std::string Log() { return h_.ReadLog(log_); }
  RunResult Sh(const std::string& script, bool keep_going = false) {
    if (keep_going) return h_.Run({"strata-sh", "-k", "-c", script});
    return h_.Run({"strata-sh", "-c", script});
  }
  nlohmann::json ShJson(const std::string& cmd) {
    auto r = Sh(cmd + " --json");
    return r.exit_code == 0 ? nlohmann::json::parse(r.out, nullptr, false) : nlohmann::json();
  }
  // The VR's static routes (red's lo also gives it connected ones).
  std::set<std::string> Routes(const std::string& vr) {
    std::set<std::string> out;
    auto j = ShJson("show route vr " + vr);
    if (!j.is_object() || !j.contains("routes")) return out;
    for (const auto& r : j["routes"]) {
      if (r.value("protocol", "") == "static") out.insert(r["prefix"].get<std::string>());
    }
    return out;
  }
  nlohmann::json Commits() { return ShJson("show system commit"); }
  uint64_t Revision() {
    auto j = Commits();
    if (!j.is_object() || !j.contains("commits") || j["commits"].empty()) return 0;
    return j["commits"][0]["revision"].get<uint64_t>();
  }

  ProcessHarness h_;
  std::string conf_;
  std::string log_;
  int starts_ = 0;
  pid_t rtrmgr_ = 0;
};

// Broken configurations: what --check prints is what a commit of the loaded file prints, at the
// same places, and nothing changes.
TEST_F(RtrmgrOperatorTest, CheckAndCommitRefuseAlikeAtTheSamePlace) {
  StartRouter();
  const std::string base = R"(interfaces { interface lo; }
policy {
    policy-statement all { term t { then { action accept; } } }
    as-path-set transit { regex "^65002 ("; }
}
)";
  const std::vector<std::string> bad = {
      // An interface in two VRs, two VRs on one kernel table.
      base +
          "virtual-router red { interface lo; table-id 100; }\n"
          "virtual-router blue { interface lo; table-id 100; }\n",
      // BGP: hold time 2 (RFC 4271), a peer at the VR's own listen address, route reflection
      // on eBGP, GTSM with multihop, confederation members without an identifier.
      base +
          "virtual-router red {\n    bgp {\n        local-as 65001; router-id 10.0.0.1;\n"
          "        listen-address 127.0.0.2; confederation-members 64512;\n"
          "        import all; export all;\n"
          "        peer 127.0.0.2 { as 65002; }\n"
          "        peer 127.0.0.3 { as 65002; hold-time 2; route-reflector-client true; }\n"
          "        peer 127.0.0.4 { as 65003; multihop 2; ttl-security 1; }\n    }\n}\n",
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    const std::string file = h_.run_dir() + "/bad" + std::to_string(i) + ".conf";
    Write(file, bad[i]);
    auto check = h_.Run({"strata-rtrmgr", "--check", file});
    EXPECT_EQ(check.exit_code, 1) << check.err;
    std::vector<std::string> errors;
    for (const auto& l : Lines(check.err)) {
      if (l.find(": warning: ") == std::string::npos) errors.push_back(l);
    }
    ASSERT_GE(errors.size(), 2u) << check.err;
    auto commit = Sh("configure; load " + file + "; commit", /*keep_going=*/true);
    EXPECT_NE(commit.exit_code, 0);
    for (const std::string& e : errors) {
      EXPECT_EQ(e.rfind(file + ":", 0), 0u) << e;  // the operator's file, never "candidate"
      // `load` prints them, and the rtrmgr's refusal of the commit names them again.
      size_t seen = 0;
      for (const auto& l : Lines(commit.err)) seen += l == e;
      EXPECT_EQ(seen, 2u) << e << "\n" << commit.err;
    }
    EXPECT_NE(commit.err.find("error: commit failed; nothing was changed"), std::string::npos);
  }
  EXPECT_EQ(Revision(), 1u);
  EXPECT_EQ(Routes("red"), (std::set<std::string>{"192.0.2.0/24"}));
  // The interface stays with its VR.
  auto r = Sh("configure; set virtual-router blue interface lo; commit");
  EXPECT_NE(r.err.find("virtual-router blue: interface 'lo' is already bound to virtual-router "
                       "'red'"),
            std::string::npos)
      << r.err;
  for (const auto& i : ShJson("show interfaces")["interfaces"]) {
    if (i["name"] == "lo") {
      EXPECT_EQ(i.value("vr", ""), "red") << i.dump();
    }
  }
}

TEST_F(RtrmgrOperatorTest, CommitIsKeptAcrossARestart) {
  StartRouter();
  auto r =
      Sh("configure; set virtual-router red static route 203.0.113.0/24 next-hop 127.0.0.1; "
         "commit comment \"one more route\"");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Stop();
  // The state directory: owner only, files 0600 (they hold MD5 keys).
  const std::string state = h_.run_dir() + "/state";
  struct stat st {};
  ASSERT_EQ(::stat(state.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat((state + "/commit-2.conf").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  StartRouter();  // the same command line
  EXPECT_EQ(Routes("red"), (std::set<std::string>{"192.0.2.0/24", "203.0.113.0/24"}));
  EXPECT_EQ(Revision(), 2u);
  EXPECT_EQ(Commits()["commits"][0]["comment"], "one more route");
  const std::string log = Log();
  EXPECT_NE(log.find(conf_ + " differs from the last commit, revision 2"), std::string::npos)
      << log;
  EXPECT_NE(log.find("strata-rtrmgr -c " + conf_ + " --boot file"), std::string::npos) << log;
  EXPECT_NE(log.find("[edit virtual-router red static]\n-    route 203.0.113.0/24 {"),
            std::string::npos)
      << log;
  Stop();

  StartRouter({"--boot", "file"});  // the operator chooses the file: a new revision
  EXPECT_EQ(Routes("red"), (std::set<std::string>{"192.0.2.0/24"}));
  EXPECT_EQ(Revision(), 3u);
}

TEST_F(RtrmgrOperatorTest, SecondRouterIsRefused) {
  StartRouter();
  auto second = h_.Run({"strata-rtrmgr", "-c", conf_, "--no-kernel"});
  EXPECT_EQ(second.exit_code, 1);
  EXPECT_NE(second.err.find("already running with the run directory " + h_.run_dir() + " (pid " +
                            std::to_string(rtrmgr_) + ")"),
            std::string::npos)
      << second.err;
  // Another run directory, the same state directory.
  second =
      h_.Run({"strata-rtrmgr", "-c", conf_, "--no-kernel", "--run-dir", h_.run_dir() + "/other"});
  EXPECT_EQ(second.exit_code, 1);
  EXPECT_NE(second.err.find("already running with the state directory " + h_.run_dir() +
                            "/state (pid " + std::to_string(rtrmgr_) + ")"),
            std::string::npos)
      << second.err;
  // The first one is untouched: its Finder socket is there and the shell reaches it.
  EXPECT_TRUE(std::filesystem::exists(h_.run_dir() + "/finder.sock"));
  EXPECT_EQ(Sh("show processes").exit_code, 0);
}

TEST_F(RtrmgrOperatorTest, SighupAppliesTheFileOrRefusesItWhole) {
  StartRouter();
  std::string more = kConfig;
  more += "virtual-router green { static { route 10.9.0.0/16 { next-hop 127.0.0.1; } } }\n";
  Write(conf_, more);
  h_.Kill(rtrmgr_, SIGHUP);
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return Routes("green").contains("10.9.0.0/16"); }, 20s))
      << Log();
  EXPECT_EQ(Revision(), 2u);
  EXPECT_EQ(Commits()["commits"][0]["comment"], "reload of " + conf_ + " (SIGHUP)");

  // A file with one good change and one error: nothing of it applies.
  Write(conf_, more +
                   "virtual-router white { table-id 255; static { route 10.8.0.0/16 { "
                   "next-hop ::1; } } }\n");
  h_.Kill(rtrmgr_, SIGHUP);
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] { return Log().find("reload of " + conf_ + " refused") != std::string::npos; }, 10s))
      << Log();
  EXPECT_NE(Log().find(conf_ + ":16:76: next-hop ::1 is not of the family of route 10.8.0.0/16"),
            std::string::npos)
      << Log();
  EXPECT_EQ(Revision(), 2u);
  EXPECT_FALSE(h_.Exited(rtrmgr_));
  EXPECT_NE(Sh("show route vr white").exit_code, 0);  // no such VR
}

TEST_F(RtrmgrOperatorTest, TyposAndBadFilesRefuseTheStart) {
  auto r = h_.Run({"strata-rtrmgr", "-c", conf_, "--no-kernel", "--log-level", "verbose"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--log-level: 'verbose' is not a log level (trace, debug, info, warning, "
                       "error, critical, off)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(h_.run_dir() + "/finder.sock"));

  r = h_.Run({"strata-rtrmgr", "-c", h_.run_dir(), "--no-kernel"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(h_.run_dir() + ": is a directory, not a configuration file"),
            std::string::npos)
      << r.err;

  const std::string latin1 = h_.run_dir() + "/latin1.conf";
  Write(latin1, "interfaces {\n    interface lo { description \"caf\xe9\"; }\n}\n");
  r = h_.Run({"strata-rtrmgr", "-c", latin1, "--no-kernel"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(latin1 + ":2:36: not valid UTF-8 (byte 0xe9)"), std::string::npos) << r.err;
  EXPECT_EQ(h_.Run({"strata-rtrmgr", "--check", latin1}).exit_code, 1);

  // Nothing of that kind reaches a running router: the shell refuses it as it is typed, and
  // the router can always be read and configured.
  StartRouter();
  r = Sh("configure; set interfaces interface lo description \"caf\\xe9\"");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("string is not valid UTF-8"), std::string::npos) << r.err;
  EXPECT_EQ(Sh("show configuration").exit_code, 0);
  EXPECT_EQ(
      Sh("configure; set interfaces interface lo description \"caf\xc3\xa9\"; commit").exit_code,
      0);
}

TEST_F(RtrmgrOperatorTest, ShowLogAndLevelsFromTheConfiguration) {
  const std::string log_file = h_.run_dir() + "/logs/strata.log";
  StartRouter({"--log-file", log_file}, log_file);
  // Every process keeps its last lines, each naming its process instance (and so its VR).
  auto r = Sh("show log last 500");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* who : {"[rtrmgr]", "[fea]", "[rib.red]", "[rib.blue]", "[rib.red.fea]"}) {
    EXPECT_NE(r.out.find(who), std::string::npos) << who << "\n" << r.out;
  }
  r = Sh("show log rib.blue");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& l : Lines(r.out)) EXPECT_NE(l.find(" [rib.blue"), std::string::npos) << l;

  r = Sh("configure; set system log component rib.red level debug; commit");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto levels = h_.Run({"strata-call", "--json", "finder://rib.blue/log/1.0/get_levels"});
  ASSERT_EQ(levels.exit_code, 0) << levels.err;
  EXPECT_EQ(nlohmann::json::parse(levels.out)["levels"], "info,rib.red=debug");
  auto bad = h_.Run({"strata-call", "finder://rib.red/log/1.0/set_levels?levels:txt=loud"});
  EXPECT_EQ(bad.exit_code, 3) << bad.out;

  // One file for every process.
  const std::string file = test_util::FileText(log_file);
  EXPECT_NE(file.find("[rib.red.fea]"), std::string::npos);
  EXPECT_NE(file.find("info [rtrmgr] log levels: info,rib.red=debug"), std::string::npos) << file;
}

TEST_F(RtrmgrOperatorTest, UnconfirmedCommitRollsBackAtTheNextStart) {
  StartRouter();
  auto r =
      Sh("configure; set virtual-router red static route 203.0.113.0/24 next-hop 127.0.0.1; "
         "commit confirmed 5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("commit confirmed: it rolls back to revision 1 in 5 minutes"),
            std::string::npos)
      << r.out;
  auto c = Sh("show system commit");
  EXPECT_NE(c.out.find("revision 2 is not confirmed: it rolls back to revision 1 at"),
            std::string::npos)
      << c.out;
  Stop();  // the change cut the operator off; the router is power-cycled
  StartRouter();
  EXPECT_EQ(Routes("red"), (std::set<std::string>{"192.0.2.0/24"}));
  EXPECT_EQ(Revision(), 3u);
  EXPECT_EQ(Commits()["commits"][0]["comment"], "rollback at start: commit 2 was not confirmed");

  // A plain commit confirms.
  r =
      Sh("configure; set virtual-router red static route 203.0.113.0/24 next-hop 127.0.0.1; "
         "commit confirmed 5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(Sh("configure; commit").exit_code, 0);
  EXPECT_EQ(Sh("show system commit").out.find("is not confirmed: it rolls back"),
            std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(h_.run_dir() + "/state/confirm-pending"));
}

TEST_F(RtrmgrOperatorTest, SaveWritesTheRunningConfiguration) {
  StartRouter();
  const std::string saved = h_.run_dir() + "/saved.conf";
  auto r = Sh("configure; set virtual-router red table-id 7; save " + saved);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("the candidate's uncommitted changes are not in it"), std::string::npos);
  struct stat st {};
  ASSERT_EQ(::stat(saved.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const std::string text = test_util::FileText(saved);
  EXPECT_EQ(text, Sh("show configuration").out);
  EXPECT_EQ(text.find("table-id 7"), std::string::npos);
}

}  // namespace
}  // namespace strata::testing
