#include "common/utf8.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(Utf8Test, AcceptsAsciiAndEveryLength) {
  EXPECT_EQ(FirstInvalidUtf8(""), std::nullopt);
  EXPECT_EQ(FirstInvalidUtf8("plain text\n"), std::nullopt);
  EXPECT_EQ(FirstInvalidUtf8("caf\xc3\xa9"), std::nullopt);                // U+00E9
  EXPECT_EQ(FirstInvalidUtf8("\xe2\x82\xac"), std::nullopt);               // U+20AC
  EXPECT_EQ(FirstInvalidUtf8("\xf0\x9f\x98\x80"), std::nullopt);           // U+1F600
  EXPECT_EQ(FirstInvalidUtf8("\xf4\x8f\xbf\xbf"), std::nullopt);           // U+10FFFF
  EXPECT_EQ(FirstInvalidUtf8(std::string_view("a\0b", 3)), std::nullopt);  // NUL is valid
}

TEST(Utf8Test, NamesTheFirstBadByte) {
  EXPECT_EQ(FirstInvalidUtf8("caf\xe9"), 3u);           // Latin-1, not UTF-8
  EXPECT_EQ(FirstInvalidUtf8("ab\xff"), 2u);            // never valid
  EXPECT_EQ(FirstInvalidUtf8("\x80"), 0u);              // lone continuation
  EXPECT_EQ(FirstInvalidUtf8("\xc0\xaf"), 0u);          // overlong '/'
  EXPECT_EQ(FirstInvalidUtf8("\xe0\x80\xaf"), 0u);      // overlong, 3 bytes
  EXPECT_EQ(FirstInvalidUtf8("\xf0\x80\x80\xaf"), 0u);  // overlong, 4 bytes
  EXPECT_EQ(FirstInvalidUtf8("x\xed\xa0\x80"), 1u);     // surrogate U+D800
  EXPECT_EQ(FirstInvalidUtf8("\xf4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(FirstInvalidUtf8("ok\xe2\x82"), 2u);        // truncated at the end
  EXPECT_EQ(FirstInvalidUtf8("\xc3\xa9\xc3("), 2u);     // second sequence cut short
}

}  // namespace
}  // namespace strata
