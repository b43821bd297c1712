#include "rtrmgr/sh/sh_command.h"

#include <gtest/gtest.h>

namespace strata::rtrmgr::sh {
namespace {

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
  c = ParseCommandLine(R"(show route | match "10\.0\.1" | count | no-more)");
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->filters.size(), 2u);
  EXPECT_EQ(c->filters[0].kind, PipeStage::Kind::kMatch);
  EXPECT_EQ(c->filters[0].pattern, R"(10\.0\.1)");
  EXPECT_EQ(c->filters[1].kind, PipeStage::Kind::kCount);
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
  c = ParseCommandLine("show route | m?");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->pipe_help);
  EXPECT_EQ(c->pipe_words, (std::vector<std::string>{"m"}));
}

TEST(ShCommandTest, QuestionMarkInsideQuotesIsACharacter) {
  auto c = ParseCommandLine(R"(set interfaces interface lo description "why?")");
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->help);
  EXPECT_EQ(c->words.back(), "why?");
  EXPECT_TRUE(InsideQuotes(R"(set x "a b)"));
  EXPECT_FALSE(InsideQuotes(R"(set x "a b")"));
  EXPECT_TRUE(InsideQuotes(R"(set x "a \" b)"));
  // An open quote with a '?' is not help: the quote is reported as the error.
  EXPECT_FALSE(ParseCommandLine(R"(set x "a?)").ok());
}

TEST(ShCommandTest, QuotedWordsKeepPipesAndSemicolons) {
  auto c = ParseCommandLine(R"(set interfaces interface lo description "a | b; c")");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->words.back(), "a | b; c");
  auto cmds = SplitScript(R"(configure; set x "1;2"
commit ; ; exit)");
  EXPECT_EQ(cmds, (std::vector<std::string>{"configure", R"(set x "1;2")", "commit", "exit"}));
}

}  // namespace
}  // namespace strata::rtrmgr::sh
