#include "rtrmgr/rtrmgr_state.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace strata::rtrmgr {
namespace {

class RtrmgrStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/strata-state-test-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(RtrmgrStateTest, SavesAndLoadsWhatATakeoverNeeds) {
  RtrmgrState st;
  st.rtrmgr_pid = 4242;
  st.admin_secret = "00ff";
  st.revision = 7;
  st.running_config = "virtual-router red {\n    table-id 100;\n}\n";
  StateProcess rib;
  rib.spec = ProcessSpec{.instance = "rib.red",
                         .process = "rib",
                         .rank = 20,
                         .argv = {"/opt/strata-rib", "--vr", "red", "--await-config"},
                         .env = {"STRATA_SECRET=abc"},
                         .log_file = "/var/log/rib.red.log",
                         .nice = 10};
  rib.pid = 100;
  rib.start_time = 123456;
  rib.restarts = 2;
  rib.last_restart_reason = "hung: no answer to a liveness ping in 30000 ms";
  rib.allowed_targets = {"fea", "bgp.red"};
  rib.allowed_methods = {"*"};
  st.processes.push_back(rib);
  StateProcess finder;
  finder.spec.instance = "finder";
  finder.spec.process = "finder";
  finder.spec.argv = {"/opt/f"};
  st.processes.push_back(finder);
  const std::string path = RtrmgrState::PathIn(dir_);
  ASSERT_TRUE(st.Save(path).ok());
  struct stat sb {};
  ASSERT_EQ(::stat(path.c_str(), &sb), 0);
  EXPECT_EQ(sb.st_mode & 0777, 0600u) << "it holds secrets";
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));

  auto back = RtrmgrState::Load(path);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->rtrmgr_pid, 4242);
  EXPECT_EQ(back->admin_secret, "00ff");
  EXPECT_EQ(back->revision, 7u);
  EXPECT_EQ(back->running_config, st.running_config);
  ASSERT_EQ(back->processes.size(), 2u);
  const StateProcess& r = back->processes[0];
  EXPECT_EQ(r.spec.instance, "rib.red");
  EXPECT_EQ(r.spec.argv, rib.spec.argv);
  EXPECT_EQ(r.spec.env, rib.spec.env);
  EXPECT_EQ(r.spec.log_file, rib.spec.log_file);
  EXPECT_EQ(r.spec.rank, 20u);
  EXPECT_EQ(r.spec.nice, 10);
  EXPECT_EQ(r.pid, 100);
  EXPECT_EQ(r.start_time, 123456u);
  EXPECT_EQ(r.restarts, 2u);
  EXPECT_EQ(r.last_restart_reason, rib.last_restart_reason);
  EXPECT_EQ(r.allowed_targets, rib.allowed_targets);
  EXPECT_EQ(back->processes[1].pid, 0);
}

TEST_F(RtrmgrStateTest, MissingOrBrokenFilesAreErrorValues) {
  EXPECT_EQ(RtrmgrState::Load(dir_ + "/none").status().code(), StatusCode::kNotFound);
  const std::string path = dir_ + "/bad";
  for (const char* text : {"not json", "[1, 2]", "{\"processes\": []}",
                           "{\"admin_secret\": \"x\", \"processes\": [{\"spec\": {}}]}",
                           "{\"admin_secret\": \"x\", \"processes\": [{\"spec\": {\"instance\": "
                           "\"fea\", \"process\": \"fea\", \"argv\": []}}]}"}) {
    std::ofstream(path) << text;
    EXPECT_EQ(RtrmgrState::Load(path).status().code(), StatusCode::kInvalidArgument) << text;
  }
}

}  // namespace
}  // namespace strata::rtrmgr
