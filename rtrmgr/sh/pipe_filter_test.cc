#include "rtrmgr/sh/pipe_filter.h"

#include <gtest/gtest.h>

#include <sstream>

namespace strata::rtrmgr::sh {
namespace {

std::string Filter(const std::vector<std::string>& pipes, const std::string& text,
                   size_t chunk = 1000) {
  std::vector<PipeStage> stages;
  for (const auto& p : pipes) {
    auto s = ParsePipe(p);
    EXPECT_TRUE(s.ok()) << s.status().message();
    if (s.ok()) stages.push_back(*s);
  }
  std::ostringstream out;
  PipeFilter f(stages, out);
  for (size_t i = 0; i < text.size(); i += chunk) f.Write(text.substr(i, chunk));
  f.Finish();
  return out.str();
}

constexpr const char* kTable =
    "PEER       AS     STATE\n"
    "10.0.1.2   65010  Established\n"
    "10.0.2.2   65020  Active\n"
    "10.0.3.2   65030  Established";

TEST(PipeFilterTest, MatchExceptCountInOrder) {
  EXPECT_EQ(Filter({"match Estab"}, kTable),
            "10.0.1.2   65010  Established\n10.0.3.2   65030  Established\n");
  EXPECT_EQ(Filter({"except Estab"}, kTable),
            "PEER       AS     STATE\n10.0.2.2   65020  Active\n");
  EXPECT_EQ(Filter({"match Estab", "count"}, kTable), "Count: 2 lines\n");
  EXPECT_EQ(Filter({" m 650[12]0 ", "e Active|Idle"}, kTable), "10.0.1.2   65010  Established\n");
  // Lines split across writes are whole when tested (a stream arrives in pieces).
  EXPECT_EQ(Filter({"match 65020"}, kTable, 3), "10.0.2.2   65020  Active\n");
  EXPECT_EQ(Filter({"match \"a b\""}, "xa b\nab\n"), "xa b\n");
  EXPECT_EQ(Filter({}, kTable), kTable);
}

TEST(PipeFilterTest, BadPipesSayWhy) {
  EXPECT_FALSE(ParsePipe("grep x").ok());
  auto amb = ParsePipe("co");
  ASSERT_FALSE(amb.ok());
  EXPECT_NE(amb.status().message().find("compare, count"), std::string::npos)
      << amb.status().message();
  EXPECT_FALSE(ParsePipe("match").ok());
  EXPECT_FALSE(ParsePipe("match (").ok());
  EXPECT_FALSE(ParsePipe("count x").ok());
  EXPECT_EQ(ParsePipe("j")->kind, PipeStage::Kind::kJson);
  EXPECT_EQ(ParsePipe(R"(match 10\.0\.1)")->pattern, R"(10\.0\.1)");
  EXPECT_EQ(PipeCompletions("c").size(), 2u);
}

}  // namespace
}  // namespace strata::rtrmgr::sh
