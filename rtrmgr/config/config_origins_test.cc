#include "rtrmgr/config/config_origins.h"

#include <gtest/gtest.h>

#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_printer.h"

namespace strata::rtrmgr {
namespace {

// A tree as the shell holds it: some nodes from a file, one made by `set`; sent as canonical
// text with its origins, it comes back with the file's places.
TEST(ConfigOriginsTest, PlacesSurvivePrintAndParse) {
  auto tree = ConfigParser::Parse(
      "virtual-router red {\n"
      "    bgp { local-as 65001;\n"
      "          peer 192.0.2.2 { as 65002; hold-time 2; } }\n"
      "}\n",
      "/etc/strata/my.conf");
  ASSERT_TRUE(tree.ok());
  tree->mutable_children()[0].AddChild(ConfigNode("table-id", {"7"}));  // like `set`
  const ConfigOrigins origins = ConfigOrigins::Collect(*tree);
  EXPECT_EQ(origins.files, std::vector<std::string>{"/etc/strata/my.conf"});

  auto sent = ConfigParser::Parse(ConfigPrinter::Print(*tree), "candidate");
  ASSERT_TRUE(sent.ok());
  ASSERT_TRUE(origins.Apply(*sent).ok());
  const ConfigNode& vr = sent->children()[0];
  EXPECT_EQ(vr.pos().ToString(), "/etc/strata/my.conf:1:1");
  const ConfigNode& peer = vr.FindChild("bgp")->children()[1];
  EXPECT_EQ(peer.args()[0].pos.ToString(), "/etc/strata/my.conf:3:16");
  EXPECT_EQ(peer.children()[1].args()[0].pos.ToString(), "/etc/strata/my.conf:3:48");
  EXPECT_EQ(vr.FindChild("table-id")->pos().line, 0);  // no place: errors name its path
}

TEST(ConfigOriginsTest, ShapeMismatchLeavesNoPlaces) {
  auto a = ConfigParser::Parse("x { y 1; }", "a.conf");
  auto b = ConfigParser::Parse("x { y 1 2; }", "candidate");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_FALSE(ConfigOrigins::Collect(*a).Apply(*b).ok());
  EXPECT_EQ(b->children()[0].pos().line, 0);
  EXPECT_EQ(b->children()[0].children()[0].args()[1].pos.line, 0);
  ConfigOrigins bad;
  bad.numbers = {5, 1, 1, 1, 1};  // a file index beyond `files`
  auto c = ConfigParser::Parse("x;", "candidate");
  EXPECT_FALSE(bad.Apply(*c).ok());
}

}  // namespace
}  // namespace strata::rtrmgr
