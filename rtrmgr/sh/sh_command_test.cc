#include "rtrmgr/sh/sh_command.h"

#include <gtest/gtest.h>

namespace strata::rtrmgr::sh {
namespace {

using K = ShowRequest::Kind;

TEST(ShCommandTest, PipesAndJsonFlag) {
  auto c = ParseCommandLine("show route vr red --json");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->words, (std::vector<std::string>{"show", "route", "vr", "red"}));
  EXPECT_TRUE(c->json);
  c = ParseCommandLine("show bgp summary | json");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->json);
  EXPECT_EQ(c->words.size(), 3u);
  c = ParseCommandLine("show | compare");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->compare);
  EXPECT_FALSE(c->json);
  EXPECT_FALSE(ParseCommandLine("show | grep x").ok());
}

TEST(ShCommandTest, QuestionMarkAsksForHelp) {
  auto c = ParseCommandLine("set virtual-router red ?");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->help);
  EXPECT_TRUE(c->trailing_space);
  EXPECT_EQ(c->words.back(), "red");
  c = ParseCommandLine("set virt?");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->help);
  EXPECT_FALSE(c->trailing_space);
  EXPECT_EQ(c->words.back(), "virt");
}

TEST(ShCommandTest, QuotedWordsKeepPipesAndSemicolons) {
  auto c = ParseCommandLine(R"(set interfaces interface lo description "a | b; c")");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->words.back(), "a | b; c");
  auto cmds = SplitScript(R"(configure; set x "1;2"
commit ; ; exit)");
  EXPECT_EQ(cmds, (std::vector<std::string>{"configure", R"(set x "1;2")", "commit", "exit"}));
}

TEST(ShCommandTest, ShowRoute) {
  auto r = ParseShow({"route", "vr", "red", "192.0.2.0/24"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, K::kRoute);
  EXPECT_EQ(r->vr, "red");
  auto x = ShowXrl(*r, "red");
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(x->ToString(), "finder://rib.red/rib/1.0/list_routes?within:ipv4net=192.0.2.0/24");
  r = ParseShow({"route"});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->vr.empty());
  EXPECT_TRUE(r->per_vr());
  EXPECT_FALSE(ParseShow({"route", "banana"}).ok());
  EXPECT_FALSE(ParseShow({"route", "vr"}).ok());
}

TEST(ShCommandTest, ShowBgpAndFib) {
  auto r = ParseShow({"bgp", "neighbor", "2001:db8::1", "vr", "blue"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, K::kBgpNeighbor);
  EXPECT_EQ(ShowXrl(*r, "blue")->ToString(),
            "finder://bgp.blue/bgp/1.0/list_peers?peer:ipv6=2001:db8::1");
  r = ParseShow({"bgp", "routes", "10.0.0.0/8"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ShowXrl(*r, "red")->ToString(),
            "finder://bgp.red/bgp/1.0/list_routes?prefix:ipv4net=10.0.0.0/8");
  r = ParseShow({"fib", "vr", "red", "10.1.2.3"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, K::kFibLookup);
  EXPECT_EQ(ShowXrl(*r, "red")->ToString(),
            "finder://fea/fea/1.0/lookup?vr:txt=red&address:ipv4=10.1.2.3");
  r = ParseShow({"fib", "stats"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, K::kFibStats);
  EXPECT_FALSE(r->per_vr());
  EXPECT_FALSE(ParseShow({"bgp"}).ok());
  EXPECT_FALSE(ParseShow({"bgp", "neighbor"}).ok());
  EXPECT_FALSE(ParseShow({"processes", "vr", "red"}).ok());
  EXPECT_EQ(ParseShow({"processes"})->kind, K::kProcesses);
  EXPECT_EQ(ShowXrl(*ParseShow({"interfaces"}), "")->ToString(),
            "finder://fea/fea/1.0/list_interfaces");
}

TEST(ShCommandTest, ShowBgpDampened) {
  auto r = ParseShow({"bgp", "dampened"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, K::kBgpDampened);
  EXPECT_TRUE(r->per_vr());
  EXPECT_EQ(ShowXrl(*r, "red")->ToString(), "finder://bgp.red/bgp/1.0/list_damped_routes");
  r = ParseShow({"bgp", "dampened", "2001:db8::/32", "vr", "blue"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ShowXrl(*r, r->vr)->ToString(),
            "finder://bgp.blue/bgp/1.0/list_damped_routes?prefix:ipv6net=2001:db8::/32");
  EXPECT_FALSE(ParseShow({"bgp", "dampened", "banana"}).ok());
  EXPECT_FALSE(ParseShow({"bgp", "dampened", "10.0.0.0/8", "x"}).ok());
}

TEST(ShCommandTest, ShowBgpStats) {
  auto r = ParseShow({"bgp", "stats", "vr", "red"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, K::kBgpStats);
  EXPECT_TRUE(r->per_vr());
  EXPECT_EQ(ShowXrl(*r, r->vr)->ToString(), "finder://bgp.red/bgp/1.0/get_stats");
  EXPECT_FALSE(ParseShow({"bgp", "stats", "extra"}).ok());
}

TEST(ShCommandTest, OperationalCompletions) {
  EXPECT_EQ(OperationalCompletions({"show", "bgp"}),
            (std::vector<std::string>{"dampened", "neighbor", "routes", "stats", "summary"}));
  auto top = OperationalCompletions({});
  EXPECT_NE(std::find(top.begin(), top.end(), "configure"), top.end());
}

}  // namespace
}  // namespace strata::rtrmgr::sh
