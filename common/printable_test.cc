#include "common/printable.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(PrintableTest, PlainTextAndUtf8StayAsTheyAre) {
  EXPECT_EQ(Printable("maintenance at 02:00"), "maintenance at 02:00");
  EXPECT_EQ(Printable("Wartung \xC3\xBC"
                      "ber Nacht \xE2\x82\xAC \xF0\x9F\x98\x80"),
            "Wartung \xC3\xBC"
            "ber Nacht \xE2\x82\xAC \xF0\x9F\x98\x80");
}

TEST(PrintableTest, ControlCharactersCannotForgeLinesOrDriveTheTerminal) {
  EXPECT_EQ(Printable("a\nfake log line"), "a\\nfake log line");
  EXPECT_EQ(Printable("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(Printable(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(Printable("\r\t\x7f"), "\\x0d\\t\\x7f");
  EXPECT_EQ(Printable("\xC2\x9B"
                      "2J"),
            "\\xc2\\x9b2J");  // C1 CSI
  EXPECT_EQ(Printable("say \"hi\" \\ bye"), "say \\\"hi\\\" \\\\ bye");
}

TEST(PrintableTest, InvalidUtf8BecomesHexBytes) {
  EXPECT_EQ(Printable("\xFF\xFE"), "\\xff\\xfe");
  EXPECT_EQ(Printable("\xC3"), "\\xc3");                             // truncated
  EXPECT_EQ(Printable("\xC0\xAF"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(Printable("\xED\xA0\x80"), "\\xed\\xa0\\x80");           // surrogate
  EXPECT_EQ(Printable("\xF4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
}

}  // namespace
}  // namespace strata
