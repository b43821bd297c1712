#include "rtrmgr/config/config_parser.h"

#include <gtest/gtest.h>

#include <random>

#include "rtrmgr/config/config_printer.h"
#include "rtrmgr/config/config_validator.h"
#include "testing/rtrmgr/config_test_util.h"

namespace strata::rtrmgr {
namespace {

using test_util::MustParse;

TEST(ConfigParserTest, ParsesNestedStatementsWithPositions) {
  auto tree = MustParse(
      "interfaces {\n"
      "  interface veth1 { address 10.0.0.1/24; }\n"
      "}\n");
  ASSERT_EQ(tree.children().size(), 1u);
  const ConfigNode& ifs = tree.children()[0];
  EXPECT_EQ(ifs.keyword(), "interfaces");
  EXPECT_EQ(ifs.pos().ToString(), "test.conf:1:1");
  const ConfigNode& veth = ifs.children().at(0);
  EXPECT_EQ(veth.keyword(), "interface");
  EXPECT_EQ(veth.first_arg(), "veth1");
  EXPECT_EQ(veth.pos().ToString(), "test.conf:2:3");
  EXPECT_EQ(veth.args()[0].pos.ToString(), "test.conf:2:13");
  const ConfigNode& addr = veth.children().at(0);
  EXPECT_EQ(addr.arg_texts(), std::vector<std::string>{"10.0.0.1/24"});
  EXPECT_EQ(addr.pos().ToString(), "test.conf:2:21");
}

TEST(ConfigParserTest, SkipsAllCommentStylesAndReadsQuotedStrings) {
  auto tree = MustParse(
      "# hash comment\n"
      "// line comment\n"
      "/* block\n comment */ a \"two words\" \"q\\\"x\\\\y\\n\\x01\"; // trailing\n"
      "b c#d finder://x;\n");
  ASSERT_EQ(tree.children().size(), 2u);
  EXPECT_EQ(tree.children()[0].arg_texts(),
            (std::vector<std::string>{"two words", "q\"x\\y\n\x01"}));
  EXPECT_EQ(tree.children()[0].pos().ToString(), "test.conf:4:13");
  EXPECT_EQ(tree.children()[1].arg_texts(), (std::vector<std::string>{"c#d", "finder://x"}));
}

TEST(ConfigParserTest, EmptyBlockEqualsNoBlock) {
  EXPECT_EQ(MustParse("bgp { }"), MustParse("bgp;"));
}

TEST(ConfigParserTest, SyntaxErrorsNamePosition) {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"a {\n b 1\n}\n", "t:3:1: expected ';' or '{' after 'b', found '}'"},
      {"a {\n b;\n", "t:1:1: unclosed '{' of 'a'"},
      {"}\n", "t:1:1: unexpected '}'"},
      {"a \"open\n", "t:1:3: unterminated string"},
      {"/* never closed", "t:1:1: unterminated comment"},
      {"{ a; }", "t:1:1: expected a keyword, found '{'"},
      {"a \"\\q\";", "t:1:4: bad escape '\\q' in string"},
      {"a \x01;", "t:1:3: unexpected character 0x01"},
      {"a b", "t:1:4: expected ';' or '{' after 'a', found end of file"},
      // UTF-8 (RFC 3629) everywhere, comments included; a string also once decoded.
      {"a {\n  b \"caf\xe9\";\n}\n", "t:2:9: not valid UTF-8 (byte 0xe9)"},
      {"# \xff\na;", "t:1:3: not valid UTF-8 (byte 0xff)"},
      {"a \"ok\\xc3\";", "t:1:3: string is not valid UTF-8 (its byte 3 is 0xc3)"},
  };
  for (const auto& c : cases) {
    auto tree = ConfigParser::Parse(c.text, "t");
    ASSERT_FALSE(tree.ok()) << c.text;
    EXPECT_EQ(tree.status().message(), c.error) << c.text;
  }
}

TEST(ConfigParserTest, AcceptsUtf8TextAndEscapes) {
  auto tree = MustParse("a \"caf\xc3\xa9\" \"\\xc3\\xa9\" d\xc3\xa9j\xc3\xa0;");
  ASSERT_EQ(tree.children().size(), 1u);
  EXPECT_EQ(tree.children()[0].arg_texts(),
            (std::vector<std::string>{"caf\xc3\xa9", "\xc3\xa9", "d\xc3\xa9j\xc3\xa0"}));
}

TEST(ConfigParserTest, ReadFileRefusesADirectory) {
  auto text = ConfigParser::ReadFile(::testing::TempDir());
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(text.status().message().find("is a directory"), std::string::npos);
}

TEST(ConfigParserTest, RejectsDeepNesting) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "a {";
  auto tree = ConfigParser::Parse(text, "t");
  ASSERT_FALSE(tree.ok());
  EXPECT_EQ(tree.status().message(), "t:1:192: blocks nest too deep");
}

TEST(ConfigPrinterTest, PrintsCanonicallyAndRoundTrips) {
  const std::string text =
      "virtual-router red { table-id 100; interface veth1;\n"
      "  static { route 192.0.2.0/24 { next-hop 10.0.0.2; } } }\n"
      "interfaces { interface lo { description \"the \\\"loop\\\" {x}\"; "
      "address 127.0.0.1/8 ::1/128; } }\n"
      "empty \"\" \"#x\" \"//y\" \"tab\\tnl\\n\\x7f\";\n";
  auto tree = MustParse(text);
  const std::string printed = ConfigPrinter::Print(tree);
  EXPECT_EQ(printed,
            "virtual-router red {\n"
            "    table-id 100;\n"
            "    interface veth1;\n"
            "    static {\n"
            "        route 192.0.2.0/24 {\n"
            "            next-hop 10.0.0.2;\n"
            "        }\n"
            "    }\n"
            "}\n"
            "interfaces {\n"
            "    interface lo {\n"
            "        description \"the \\\"loop\\\" {x}\";\n"
            "        address 127.0.0.1/8 ::1/128;\n"
            "    }\n"
            "}\n"
            "empty \"\" \"#x\" \"//y\" \"tab\\tnl\\n\\x7f\";\n");
  EXPECT_EQ(MustParse(printed), tree);
  EXPECT_EQ(ConfigPrinter::Print(MustParse(printed)), printed);
}

TEST(ConfigPrinterTest, ExampleConfigRoundTrips) {
  auto tree = ConfigParser::ParseFile(test_util::SourceDir() + "/examples/strata.conf");
  ASSERT_TRUE(tree.ok()) << tree.status().ToString();
  auto again = ConfigParser::Parse(ConfigPrinter::Print(*tree), "printed");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(*again, *tree);
}

// Random untrusted input: every outcome is a value (no crash, no assert), and whatever parses
// round-trips through the printer and can be validated.
TEST(ConfigParserTest, RandomInputNeverCrashes) {
  const std::string alphabet = "ab {};\"\\#/*\n 1.0/:x%$()\x01\xff";
  std::mt19937 rng(42);
  ConfigValidator validator(test_util::RealTemplates());
  for (int i = 0; i < 3000; ++i) {
    std::string text;
    const size_t len = rng() % 40;
    for (size_t j = 0; j < len; ++j) text += alphabet[rng() % alphabet.size()];
    auto tree = ConfigParser::Parse(text, "r");
    if (!tree.ok()) {
      EXPECT_EQ(tree.status().message().rfind("r:", 0), 0u) << tree.status().message();
      continue;
    }
    auto again = ConfigParser::Parse(ConfigPrinter::Print(*tree), "p");
    ASSERT_TRUE(again.ok()) << text;
    EXPECT_EQ(*again, *tree) << text;
    (void)validator.Validate(*tree);
  }
}

}  // namespace
}  // namespace strata::rtrmgr
