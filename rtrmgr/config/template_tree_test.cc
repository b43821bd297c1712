#include "rtrmgr/config/template_tree.h"

#include <gtest/gtest.h>

#include "rtrmgr/config/reference_doc.h"
#include "testing/rtrmgr/config_test_util.h"

namespace strata::rtrmgr {
namespace {

using test_util::RealTemplates;

TEST(TemplateTreeTest, MergesFilesIntoOneSchema) {
  const TemplateTree& t = RealTemplates();
  const TemplateNode* vr = t.FindPath("virtual-router");
  ASSERT_NE(vr, nullptr);
  EXPECT_EQ(vr->kind, NodeKind::kKeyed);
  EXPECT_EQ(vr->process, "fea");
  const TemplateNode* route = t.FindPath("virtual-router static route");
  ASSERT_NE(route, nullptr);
  EXPECT_EQ(route->process, "rib");  // inherited from static
  EXPECT_EQ(route->value.type, ValueType::kPrefix);
  EXPECT_EQ(t.FindPath("virtual-router static route next-hop")->kind, NodeKind::kKeyed);
  EXPECT_TRUE(t.FindPath("virtual-router bgp local-as")->mandatory);
  EXPECT_EQ(t.FindPath("virtual-router bgp peer import")->ref, "policy policy-statement");
  EXPECT_EQ(t.FindPath("virtual-router bgp port")->default_value, "179");
  ASSERT_NE(t.FindProcess("bgp"), nullptr);
  EXPECT_EQ(t.FindProcess("bgp")->instance, "bgp.$(virtual-router)");
  EXPECT_LT(t.FindProcess("fea")->rank, t.FindProcess("rib")->rank);
  EXPECT_LT(t.FindProcess("rib")->rank, t.FindProcess("bgp")->rank);
}

TEST(TemplateTreeTest, TemplateErrorsNamePosition) {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"a { %key nosuch; }", "t:1:10: unknown type 'nosuch'"},
      {"a { %frob; }", "t:1:5: unknown directive '%frob'"},
      {"a { %key text; %type u32; }", "t:1:1: 'a': both %key and %type"},
      {"a { %type u32; %default x; }", "t:1:16: 'a': 'x' is not a valid u32"},
      {"a { %create \"finder://x/y/1.0/z\"; }", "t:1:1: 'a': a node with XRLs needs a %process"},
      {"a { %process nope; }", "t:1:5: 'a': undefined process 'nope'"},
      {"a { %type text; %ref \"b\"; }", "t:1:1: 'a': %ref 'b' is not a keyed node"},
      {"a { %type text; b; }", "t:1:1: 'a': a leaf has no children"},
      {"a x { }", "t:1:3: a template node is one word; use %key or %type"},
      {"%help x;", "t:1:1: '%help' is not allowed at the top level"},
      {"a { %range 5 1; }", "t:1:5: '%range' needs two u32 values MIN <= MAX"},
      {"%define-process p { rank 1; }", "t:1:1: process 'p' needs instance"},
      {"%define-process p { instance p; requires q; }",
       "t:1:1: process 'p' requires undefined process 'q'"},
      {"%define-process p { instance p; rank 1; requires q; }\n"
       "%define-process q { instance q; rank 2; }",
       "t:1:1: process 'p' requires 'q', which must rank before it"},
  };
  for (const auto& c : cases) {
    auto t = TemplateTree::LoadTexts({{"t", c.text}});
    ASSERT_FALSE(t.ok()) << c.text;
    EXPECT_EQ(t.status().message(), c.error) << c.text;
  }
}

TEST(TemplateTreeTest, DirectiveSetInTwoFilesIsAnError) {
  auto t =
      TemplateTree::LoadTexts({{"a.tmpl", "x { %help one; }"}, {"b.tmpl", "x {\n%help two; }"}});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(), "b.tmpl:2:1: '%help' of 'x' already set at a.tmpl:1:5");
}

TEST(TemplateTreeTest, ChildProcessMayNotRankBeforeParent) {
  auto t = TemplateTree::LoadTexts({{"t",
                                     "%define-process hi { instance hi; rank 2; }\n"
                                     "%define-process lo { instance lo; rank 1; }\n"
                                     "a { %process hi; b { %process lo; } }"}});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(), "t:3:18: 'a b': process 'lo' ranks before its parent's");
}

TEST(ReferenceDocTest, CheckedInReferenceMatchesTemplates) {
  auto doc = ConfigParser::ReadFile(test_util::SourceDir() + "/docs/config-reference.md");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  EXPECT_EQ(*doc, ReferenceDoc::Render(RealTemplates()))
      << "regenerate: strata-config-doc rtrmgr/templates > docs/config-reference.md";
}

TEST(ReferenceDocTest, DescribesEveryNode) {
  const std::string doc = ReferenceDoc::Render(RealTemplates());
  EXPECT_NE(doc.find("##### `virtual-router <identifier> static route <prefix>`\n"),
            std::string::npos);
  EXPECT_NE(doc.find("- Type: `u32 1..65535`"), std::string::npos);
  EXPECT_NE(doc.find("| `rib` | `rib.$(virtual-router)` | 20 |"), std::string::npos);
}

}  // namespace
}  // namespace strata::rtrmgr
