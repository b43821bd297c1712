#include "common/log.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "testing/common/file_text.h"

namespace strata {
namespace {

TEST(LogLevelsTest, ParsesLevelsAndComponents) {
  auto l = LogLevels::Parse("debug, bgp.red.session=trace,rib=warn");
  ASSERT_TRUE(l.ok()) << l.status().ToString();
  EXPECT_EQ(l->fallback, spdlog::level::debug);
  EXPECT_EQ(l->For("bgp.red.session"), spdlog::level::trace);
  EXPECT_EQ(l->For("bgp.red.session.fsm"), spdlog::level::trace);
  EXPECT_EQ(l->For("bgp.red.sessions"), spdlog::level::debug);  // a name, not a string prefix
  EXPECT_EQ(l->For("rib.red"), spdlog::level::warn);
  EXPECT_EQ(l->ToString(), "debug,bgp.red.session=trace,rib=warning");
  EXPECT_EQ(LogLevels::Parse(l->ToString())->ToString(), l->ToString());
  auto only = LogLevels::Parse("fea=debug");
  ASSERT_TRUE(only.ok());
  EXPECT_EQ(only->For("bgp.red"), spdlog::level::info);
  // The longest prefix wins, whatever the order.
  auto nested = LogLevels::Parse("bgp.red.session=error,bgp=debug");
  EXPECT_EQ(nested->For("bgp.red.session"), spdlog::level::err);
  EXPECT_EQ(nested->For("bgp.red.peer"), spdlog::level::debug);
}

// A typo is an error, not "off" (spdlog's own parser turned every line off for one).
TEST(LogLevelsTest, RefusesTyposWithWhatIsExpected) {
  EXPECT_EQ(LogLevels::Parse("verbose").status().message(),
            "'verbose' is not a log level (trace, debug, info, warning, error, critical, off)");
  EXPECT_FALSE(LogLevels::Parse("info,bgp=loud").ok());
  EXPECT_FALSE(LogLevels::Parse("info,debug").ok());
  EXPECT_FALSE(LogLevels::Parse("bgp red=debug").ok());
  EXPECT_FALSE(LogLevels::Parse("info,,bgp=debug").ok());
  EXPECT_TRUE(LogLevels::Parse("off").ok());
}

TEST(LogNameTest, TheInstanceIsInEveryName) {
  EXPECT_EQ(LoggerName("bgp.red", "bgp"), "bgp.red");
  EXPECT_EQ(LoggerName("bgp.red", "bgp.session"), "bgp.red.session");
  EXPECT_EQ(LoggerName("bgp.red", "bgp.red.rib"), "bgp.red.rib");
  EXPECT_EQ(LoggerName("bgp.red", "ipc"), "bgp.red.ipc");
  EXPECT_EQ(LoggerName("rib.blue", "rib.owners"), "rib.blue.owners");
  EXPECT_EQ(LoggerName("fea", "fea.kernel"), "fea.kernel");
  EXPECT_EQ(LoggerName("", "bgp.session"), "bgp.session");
}

TEST(ReopeningFileSinkTest, FollowsARotationByItself) {
  const std::string dir = ::testing::TempDir() + "/log_sink_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/strata.log";
  auto sink = std::make_shared<ReopeningFileSink>(path, std::chrono::milliseconds(0));
  sink->set_pattern("%v");
  spdlog::logger logger("rotation-test", sink);
  logger.info("before");
  std::filesystem::rename(path, path + ".1");  // what logrotate does
  logger.info("after");
  EXPECT_EQ(test_util::FileText(path + ".1"), "before\n");
  EXPECT_EQ(test_util::FileText(path), "after\n");
  std::filesystem::rename(path, path + ".2");
  ASSERT_TRUE(sink->Reopen());  // SIGHUP / SIGUSR1
  logger.info("told");
  EXPECT_EQ(test_util::FileText(path), "told\n");
  std::filesystem::remove_all(dir);
}

TEST(LogTest, LevelsChangeAtRunTimeAndLinesAreKept) {
  auto a = MakeLogger("logtest.a");
  auto b = MakeLogger("logtest.b");
  LogLevels levels;
  levels.components = {{"logtest.b", spdlog::level::err}};
  SetLogLevels(levels);
  a->info("a says hello");
  b->info("b is quiet");
  b->error("b shouts");
  EXPECT_EQ(b->level(), spdlog::level::err);
  auto lines = RecentLogLines(0, "logtest");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].logger, "logtest.a");
  EXPECT_EQ(lines[0].text, "a says hello");
  EXPECT_EQ(lines[1].text, "b shouts");
  EXPECT_EQ(RecentLogLines(1, "logtest.a").size(), 1u);
  SetLogLevels(LogLevels());
  EXPECT_EQ(b->level(), spdlog::level::info);
  const auto names = LoggerNames();
  EXPECT_NE(std::find(names.begin(), names.end(), "logtest.a"), names.end());
}

}  // namespace
}  // namespace strata
