#include "rtrmgr/config/config_validator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "testing/rtrmgr/config_test_util.h"

namespace strata::rtrmgr {
namespace {

using test_util::MustParse;
using test_util::RealTemplates;
using test_util::SourceDir;

std::string Trim(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

TEST(ConfigValidatorTest, ExampleConfigIsValid) {
  ConfigValidator v(RealTemplates());
  Status s = v.ValidateFile(SourceDir() + "/examples/strata.conf");
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(ConfigValidatorTest, IssueExamplesAreValid) {
  ConfigValidator v(RealTemplates());
  auto tree = MustParse(
      "interfaces { interface veth1 { address 10.0.0.1/24; } }\n"
      "policy { policy-statement accept-all { term t { then { action accept; } } } }\n"
      "virtual-router red { table-id 100; interface veth1; static { route 192.0.2.0/24 { "
      "next-hop 10.0.0.2; } } bgp { local-as 65001; router-id 10.0.0.1; peer 10.0.0.2 { as "
      "65002; import accept-all; } } }\n");
  Status s = v.Check(tree);
  EXPECT_TRUE(s.ok()) << s.message();
}

// Every testdata/bad/NAME.conf is rejected with exactly the text of NAME.err: its errors and
// warnings by position, as `strata-rtrmgr --check` prints them.
TEST(ConfigValidatorTest, BadCorpusGivesExactErrors) {
  ConfigValidator v(RealTemplates());
  const std::string dir = SourceDir() + "/rtrmgr/config/testdata/bad";
  std::vector<std::filesystem::path> confs;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".conf") confs.push_back(e.path());
  }
  std::sort(confs.begin(), confs.end());
  ASSERT_GE(confs.size(), 10u);
  for (const auto& conf : confs) {
    auto text = ConfigParser::ReadFile(conf.string());
    auto want = ConfigParser::ReadFile(std::filesystem::path(conf).replace_extension(".err"));
    ASSERT_TRUE(text.ok() && want.ok()) << conf;
    auto tree = ConfigParser::Parse(*text, conf.filename().string());
    std::string got = tree.status().message();
    if (tree.ok()) {
      auto report = v.Examine(*tree);
      EXPECT_FALSE(report.ok()) << conf;
      got = report.Listing();
    }
    EXPECT_EQ(got, Trim(*want)) << conf;
  }
}

TEST(ConfigValidatorTest, ValidateFileNamesThePath) {
  ConfigValidator v(RealTemplates());
  const std::string path = SourceDir() + "/rtrmgr/config/testdata/bad/bad_type.conf";
  Status s = v.ValidateFile(path);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), path + ":2:14: 'red' is not a valid u32 for 'table-id'");
  EXPECT_EQ(v.ValidateFile("/nonexistent/x.conf").code(), StatusCode::kNotFound);
}

TEST(ConfigValidatorTest, ReferenceToUndefinedVrIsRejected) {
  // A template whose node refers to virtual routers (route leaking between VRs).
  auto t = TemplateTree::LoadTexts({{"t.tmpl",
                                     "virtual-router { %key identifier; leak { route { "
                                     "%key prefix; next-table { %type identifier; "
                                     "%ref \"virtual-router\"; } } } }"}});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ConfigValidator v(*t);
  auto good = MustParse(
      "virtual-router red { leak { route 10.0.0.0/8 { next-table blue; } } }\n"
      "virtual-router blue;\n");
  EXPECT_TRUE(v.Check(good).ok());
  auto bad = MustParse("virtual-router red { leak { route 10.0.0.0/8 { next-table green; } } }");
  EXPECT_EQ(v.Check(bad).message(), "test.conf:1:59: 'green' is not a defined 'virtual-router'");
}

TEST(ConfigValidatorTest, CanonicalKeysAreDuplicates) {
  ConfigValidator v(RealTemplates());
  auto tree = MustParse(
      "virtual-router red { bgp { local-as 1; router-id 1.1.1.1;\n"
      "peer 2001:db8::1 { as 2; }\npeer 2001:DB8:0::1 { as 3; } } }");
  EXPECT_EQ(v.Check(tree).message(),
            "test.conf:3:1: duplicate 'peer 2001:DB8:0::1' (first at test.conf:2:1)");
}

}  // namespace
}  // namespace strata::rtrmgr
