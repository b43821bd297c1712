#include "rtrmgr/sh/command_tree.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "rtrmgr/sh/op_commands.h"

namespace strata::rtrmgr::sh {
namespace {

Op ParseOp(const std::vector<std::string>& words) {
  auto m = OperationalCommands().Parse(words);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? static_cast<Op>(m->id) : Op::kHelp;
}

std::vector<std::string> Words(const std::vector<Completion>& cs) {
  std::vector<std::string> out;
  for (const auto& c : cs) out.push_back(c.word);
  return out;
}

TEST(CommandTreeTest, UniquePrefixesAbbreviateEveryKeyword) {
  EXPECT_EQ(ParseOp({"sh", "bgp", "sum"}), Op::kShowBgpSummary);
  EXPECT_EQ(ParseOp({"s", "bg", "su"}), Op::kShowBgpSummary);
  // "b" could be bfd or bgp: refused, naming both (as Junos does).
  auto ambiguous = OperationalCommands().Parse({"s", "b", "su"});
  ASSERT_FALSE(ambiguous.ok());
  EXPECT_NE(ambiguous.status().message().find("bfd, bgp"), std::string::npos);
  EXPECT_EQ(ParseOp({"show", "int"}), Op::kShowInterfaces);
  EXPECT_EQ(ParseOp({"conf"}), Op::kConfigure);
  auto m = OperationalCommands().Parse({"sh", "bgp", "ne", "192.0.2.1", "v", "red"});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(static_cast<Op>(m->id), Op::kShowBgpNeighbor);
  EXPECT_EQ(m->get("address"), "192.0.2.1");
  EXPECT_EQ(m->get("vr"), "red");
}

TEST(CommandTreeTest, AmbiguousPrefixNamesTheCandidates) {
  auto m = OperationalCommands().Parse({"c"});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("ambiguous"), std::string::npos);
  EXPECT_NE(m.status().message().find("clear"), std::string::npos);
  EXPECT_NE(m.status().message().find("configure"), std::string::npos);
}

TEST(CommandTreeTest, AliasesOnlyWhenTypedInFull) {
  EXPECT_EQ(ParseOp({"show", "bgp", "routes"}), Op::kShowBgpRoutes);
  EXPECT_EQ(ParseOp({"show", "bgp", "route"}), Op::kShowBgpRoutes);
  EXPECT_EQ(ParseOp({"show", "bgp", "ro"}), Op::kShowBgpRoutes);  // "routes" is no rival
  EXPECT_EQ(ParseOp({"show", "bgp", "neighbors"}), Op::kShowBgpNeighbor);
  auto next = Words(OperationalCommands().Next({"show", "bgp"}, ""));
  EXPECT_EQ(next, (std::vector<std::string>{"dampened", "neighbor", "route", "rpki", "stats",
                                            "summary"}));
  EXPECT_EQ(ParseOp({"show", "bgp", "rpki", "cache"}), Op::kShowBgpRpki);
}

TEST(CommandTreeTest, NeighborRouteViewsAfterTheAddress) {
  EXPECT_EQ(ParseOp({"show", "bgp", "neighbor", "192.0.2.1"}), Op::kShowBgpNeighbor);
  EXPECT_EQ(ParseOp({"sh", "bgp", "nei", "192.0.2.1", "rec"}), Op::kShowBgpReceivedRoutes);
  EXPECT_EQ(ParseOp({"show", "bgp", "neighbors", "192.0.2.1", "filtered-routes"}),
            Op::kShowBgpFilteredRoutes);
  auto m = OperationalCommands().Parse(
      {"show", "bgp", "neighbor", "192.0.2.1", "adv", "10.0.0.0/8", "vr", "red"});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->id, static_cast<int>(Op::kShowBgpAdvertisedRoutes));
  EXPECT_EQ(m->get("address"), "192.0.2.1");
  EXPECT_EQ(m->get("prefix"), "10.0.0.0/8");
  EXPECT_EQ(m->get("vr"), "red");
  m = OperationalCommands().Parse({"show", "bgp", "route", "10.0.0.0/8", "detail"});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_TRUE(m->has("detail"));
  auto next = Words(OperationalCommands().Next({"show", "bgp", "neighbor", "192.0.2.1"}, ""));
  EXPECT_NE(std::find(next.begin(), next.end(), "received-routes"), next.end());
}

TEST(CommandTreeTest, OptionsInAnyOrderWithTypedValues) {
  auto m = OperationalCommands().Parse({"show", "route", "vr", "red", "192.0.2.0/24"});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->get("dest"), "192.0.2.0/24");
  EXPECT_EQ(m->get("vr"), "red");
  m = OperationalCommands().Parse({"show", "route", "192.0.2.1"});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->get("dest"), "192.0.2.1");
  EXPECT_FALSE(m->has("vr"));
  m = OperationalCommands().Parse({"show", "route", "banana"});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("banana"), std::string::npos);
  EXPECT_FALSE(OperationalCommands().Parse({"show", "route", "vr"}).ok());  // vr wants a name
  EXPECT_FALSE(OperationalCommands().Parse({"show", "route", "vr", "a", "vr", "b"}).ok());
}

TEST(CommandTreeTest, OptionalValueAndKeywordsAgainstArguments) {
  auto m = OperationalCommands().Parse({"clear", "bgp", "n", "192.0.2.1", "soft"});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(static_cast<Op>(m->id), Op::kClearBgpNeighbor);
  EXPECT_TRUE(m->has("soft"));
  EXPECT_EQ(m->get("soft"), "");
  m = OperationalCommands().Parse({"clear", "bgp", "n", "192.0.2.1", "so", "i"});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->get("soft"), "in");
  m = OperationalCommands().Parse({"clear", "bgp", "neighbor", "all", "soft", "out", "vr", "x"});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_FALSE(m->has("address"));
  EXPECT_EQ(m->get("soft"), "out");
  EXPECT_FALSE(OperationalCommands().Parse({"clear", "bgp", "neighbor"}).ok());
}

TEST(CommandTreeTest, IncompleteCommandSaysWhatIsExpected) {
  auto m = OperationalCommands().Parse({"show", "bgp"});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("summary"), std::string::npos) << m.status().message();
  EXPECT_EQ(m.status().message().find("routes"), std::string::npos);  // aliases not offered
}

TEST(CommandTreeTest, NextListsKeywordsArgumentsAndEnterWithHelp) {
  auto next = OperationalCommands().Next({"show", "route"}, "");
  EXPECT_EQ(Words(next), (std::vector<std::string>{"detail", "vr", "<DEST>", "<Enter>"}));
  for (const auto& c : next) EXPECT_FALSE(c.help.empty()) << c.word;
  next = OperationalCommands().Next({"show"}, "bg");
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].word, "bgp");
  EXPECT_EQ(next[0].help, "BGP: peers, routes, statistics");
  EXPECT_TRUE(OperationalCommands().Next({"show", "banana"}, "").empty());
  next = OperationalCommands().Next({"clear", "bgp", "neighbor", "192.0.2.1", "soft"}, "");
  EXPECT_EQ(Words(next), (std::vector<std::string>{"in", "out", "vr", "<Enter>"}));
}

TEST(CommandTreeTest, RestTakesEveryWord) {
  auto m = ConfigurationCommands().Parse({"set", "virtual-router", "red", "table-id", "5"});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(static_cast<Op>(m->id), Op::kSet);
  EXPECT_EQ(m->get("path"), "virtual-router red table-id 5");
  m = ConfigurationCommands().Parse({"load", "merge", "x.conf"});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(static_cast<Op>(m->id), Op::kLoadMerge);
  EXPECT_EQ(m->get("file"), "x.conf");
  m = ConfigurationCommands().Parse({"load", "x.conf"});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(static_cast<Op>(m->id), Op::kLoadOverride);
  m = ConfigurationCommands().Parse({"sh"});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(static_cast<Op>(m->id), Op::kShowCandidate);
  EXPECT_FALSE(ConfigurationCommands().Parse({"s", "x"}).ok());  // set, save, show
}

TEST(CommandTreeTest, ArgumentTypes) {
  EXPECT_TRUE(CommandTree::Accepts(ArgType::kAddress, "2001:db8::1"));
  EXPECT_FALSE(CommandTree::Accepts(ArgType::kAddress, "10.0.0.0/8"));
  EXPECT_TRUE(CommandTree::Accepts(ArgType::kDest, "10.0.0.0/8"));
  EXPECT_TRUE(CommandTree::Accepts(ArgType::kNumber, "12"));
  EXPECT_FALSE(CommandTree::Accepts(ArgType::kNumber, "1x"));
}

}  // namespace
}  // namespace strata::rtrmgr::sh
