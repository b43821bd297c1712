#include "rtrmgr/config/config_editor.h"

#include <gtest/gtest.h>

#include "rtrmgr/config/config_compare.h"
#include "rtrmgr/config/config_printer.h"
#include "testing/rtrmgr/config_test_util.h"

namespace strata::rtrmgr {
namespace {

using test_util::MustParse;
using test_util::RealTemplates;
using Words = std::vector<std::string>;

Words Split(const std::string& line) {
  auto w = ConfigEditor::SplitWords(line);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  return w.ok() ? *w : Words{};
}

TEST(ConfigEditorTest, SetCreatesPathAndReplacesLeaf) {
  ConfigEditor ed(RealTemplates());
  ConfigNode root;
  ASSERT_TRUE(
      ed.Set(root, Split("virtual-router red static route 192.0.2.0/24 next-hop 10.0.0.2")).ok());
  ASSERT_TRUE(ed.Set(root, Split("virtual-router red static route 192.0.2.0/24 metric 5")).ok());
  ASSERT_TRUE(ed.Set(root, Split("virtual-router red static route 192.0.2.0/24 metric 7")).ok());
  // Next hops are keys, as in Junos: another one adds to the route (multipath).
  ASSERT_TRUE(
      ed.Set(root, Split("virtual-router red static route 192.0.2.0/24 next-hop 10.0.0.3")).ok());
  ASSERT_TRUE(ed.Set(root, Split("virtual-router red table-id 100")).ok());
  ASSERT_TRUE(ed.Set(root, Split("interfaces interface lo description \"the loop\"")).ok());
  ASSERT_TRUE(ed.Set(root, Split("interfaces interface lo address 127.0.0.1/8 ::1/128")).ok());
  ASSERT_TRUE(ed.Set(root, Split("virtual-router blue")).ok());
  EXPECT_EQ(ConfigPrinter::Print(root),
            "virtual-router red {\n"
            "    static {\n"
            "        route 192.0.2.0/24 {\n"
            "            next-hop 10.0.0.2;\n"
            "            metric 7;\n"
            "            next-hop 10.0.0.3;\n"
            "        }\n"
            "    }\n"
            "    table-id 100;\n"
            "}\n"
            "interfaces {\n"
            "    interface lo {\n"
            "        description \"the loop\";\n"
            "        address 127.0.0.1/8 ::1/128;\n"
            "    }\n"
            "}\n"
            "virtual-router blue;\n");
}

TEST(ConfigEditorTest, SetRejectsBadPathsAndLeavesTreeAlone) {
  ConfigEditor ed(RealTemplates());
  ConfigNode root = MustParse("virtual-router red;");
  const ConfigNode before = root;
  struct Case {
    const char* line;
    const char* error;
  };
  const Case cases[] = {
      {"virtual-router red colour blue",
       "unknown node 'colour' in 'virtual-router'; expected one of: bgp, table-id, vrf-device, "
       "interface, static"},
      {"virtual-router red table-id x", "'x' is not a valid u32"},
      {"virtual-router red table-id 1 2", "'table-id' takes one value"},
      {"virtual-router red table-id", "'table-id' needs a value (u32)"},
      {"virtual-router", "'virtual-router' needs a key (identifier)"},
      {"virtual-router red static route 10.0.0.1/8",
       "'10.0.0.1/8' is not a valid prefix "
       "(ADDRESS/LEN without host bits) for 'route'"},
      {"virtual-router red bgp port 0", "0 is out of range 1..65535"},
  };
  for (const auto& c : cases) {
    Status s = ed.Set(root, Split(c.line));
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.line;
    EXPECT_EQ(s.message(), c.error) << c.line;
    EXPECT_EQ(root, before) << c.line;
  }
}

TEST(ConfigEditorTest, DeleteRemovesSubtreesAndLeaves) {
  ConfigEditor ed(RealTemplates());
  ConfigNode root = MustParse(
      "virtual-router red { table-id 5; static { route 192.0.2.0/24 { next-hop 10.0.0.2; } "
      "route 2001:db8::/32 { next-hop ::1; } } }");
  EXPECT_EQ(ed.Delete(root, Split("virtual-router red static route 192.0.2.0/24 next-hop 10.0.0.9"))
                .code(),
            StatusCode::kNotFound);
  EXPECT_TRUE(ed.Delete(root, Split("virtual-router red table-id 5")).ok());
  EXPECT_TRUE(ed.Delete(root, Split("virtual-router red static route 2001:DB8::/32")).ok());
  Status s = ed.Delete(root, Split("virtual-router blue"));
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "'virtual-router blue' is not configured");
  EXPECT_EQ(root, MustParse("virtual-router red { static { route 192.0.2.0/24 { next-hop "
                            "10.0.0.2; } } }"));
  EXPECT_TRUE(ed.Delete(root, Split("virtual-router red")).ok());
  EXPECT_TRUE(root.children().empty());
}

TEST(ConfigEditorTest, CompletesKeywordsKeysAndValues) {
  ConfigEditor ed(RealTemplates());
  ConfigNode root = MustParse(
      "interfaces { interface veth1; interface lo; }\n"
      "policy { policy-statement p1; policy-statement p2; }\n"
      "virtual-router red; virtual-router blue;");
  EXPECT_EQ(ed.Complete(root, {}, ""), (Words{"interfaces", "policy", "system", "virtual-router"}));
  EXPECT_EQ(ed.Complete(root, {"virtual-router"}, ""), (Words{"blue", "red"}));
  EXPECT_EQ(ed.Complete(root, {"virtual-router", "red"}, "s"), (Words{"static"}));
  EXPECT_EQ(ed.Complete(root, Split("virtual-router red interface"), ""), (Words{"lo", "veth1"}));
  EXPECT_EQ(ed.Complete(root, Split("virtual-router red bgp peer 10.0.0.1 import"), ""),
            (Words{"p1", "p2"}));
  EXPECT_EQ(ed.Complete(root, Split("virtual-router red bgp peer 10.0.0.1 passive"), ""),
            (Words{"false", "true"}));
  EXPECT_EQ(ed.Complete(root, Split("policy policy-statement p1 default-action"), "a"),
            (Words{"accept"}));
  EXPECT_TRUE(ed.Complete(root, Split("nonsense"), "").empty());
}

TEST(ConfigEditorTest, HelpDescribesNodeAndChildren) {
  ConfigEditor ed(RealTemplates());
  auto help = ed.Help(Split("virtual-router red static route 192.0.2.0/24"));
  ASSERT_TRUE(help.ok()) << help.status().ToString();
  EXPECT_EQ(*help,
            "route <prefix>: A static route to PREFIX: to next hops (several: multipath, each "
            "with its weight), out of an interface, or dropping (blackhole, reject).\n"
            "  type: prefix\n"
            "  next-hop <ipaddr>               A router to forward to; several next hops share "
            "the flows by weight (multipath).\n"
            "  interface <identifier>          The interface of the VR the route leaves by: "
            "alone, the destination is attached to it (no gateway); with next hops, they are "
            "reached through it.\n"
            "  blackhole <enum>                Drop what the route matches, silently.\n"
            "  reject <enum>                   Drop what the route matches and tell the sender: "
            "ICMP unreachable, or administratively prohibited.\n"
            "  distance <u32>                  Administrative distance of this route instead of "
            "the static one (a floating static route: 250 stays behind a BGP route and takes "
            "over when it goes).\n"
            "  metric <u32>                    Route metric.\n");
  auto leaf = ed.Help(Split("virtual-router red bgp port"));
  ASSERT_TRUE(leaf.ok());
  EXPECT_EQ(*leaf,
            "port <u32>: TCP port to accept connections on.\n  type: u32 1..65535\n"
            "  default: 179\n");
  EXPECT_FALSE(ed.Help(Split("bogus")).ok());
}

TEST(ConfigCompareTest, ShowsJunosStyleDiff) {
  ConfigNode running = MustParse(
      "virtual-router red { table-id 1; static { route 192.0.2.0/24 { next-hop 10.0.0.2; } } "
      "bgp { local-as 1; router-id 1.1.1.1; peer 10.0.0.2 { as 2; } } }");
  ConfigEditor ed(RealTemplates());
  ConfigNode candidate = running;
  ASSERT_TRUE(
      ed.Delete(candidate, Split("virtual-router red static route 192.0.2.0/24 next-hop 10.0.0.2"))
          .ok());
  ASSERT_TRUE(ed.Set(candidate, Split("virtual-router red static route 192.0.2.0/24 next-hop "
                                      "10.0.0.3"))
                  .ok());
  ASSERT_TRUE(ed.Set(candidate, Split("virtual-router red bgp peer 10.0.0.5 as 5")).ok());
  ASSERT_TRUE(ed.Delete(candidate, Split("virtual-router red table-id")).ok());
  EXPECT_EQ(ConfigCompare::Compare(running, candidate, RealTemplates()),
            "[edit virtual-router red]\n"
            "-    table-id 1;\n"
            "[edit virtual-router red static route 192.0.2.0/24]\n"
            "-    next-hop 10.0.0.2;\n"
            "+    next-hop 10.0.0.3;\n"
            "[edit virtual-router red bgp]\n"
            "+    peer 10.0.0.5 {\n"
            "+        as 5;\n"
            "+    }\n");
  EXPECT_EQ(ConfigCompare::Compare(running, running, RealTemplates()), "");
  EXPECT_EQ(ConfigCompare::Compare(ConfigNode(), MustParse("policy;"), RealTemplates()),
            "[edit]\n+    policy;\n");
}

TEST(ConfigEditorTest, SplitWordsHonoursQuotes) {
  EXPECT_EQ(Split("set a \"b c\" d"), (Words{"set", "a", "b c", "d"}));
  EXPECT_FALSE(ConfigEditor::SplitWords("a \"open").ok());
}

}  // namespace
}  // namespace strata::rtrmgr
