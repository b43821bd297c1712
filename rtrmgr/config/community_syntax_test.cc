// The community value types of templates: what is well formed and the reasons given otherwise.
#include "rtrmgr/config/community_syntax.h"

#include <gtest/gtest.h>

namespace strata::rtrmgr {
namespace {

TEST(CommunitySyntaxTest, Standard) {
  for (const char* ok : {"65001:100", "65001:*", "*:100", "*:*", "4294967295", "no-export",
                         "no-advertise", "no-export-subconfed"}) {
    EXPECT_EQ(CheckCommunity(ok), "") << ok;
  }
  for (const char* bad : {"65536:1", "1:65536", "1:2:3", "x", "", "1:", "*"}) {
    EXPECT_NE(CheckCommunity(bad), "") << bad;
  }
  EXPECT_EQ(CheckCommunity("65001:x"),
            "'65001:x' is not a valid community (ASN:VALUE, 0-65535 or * each)");
}

TEST(CommunitySyntaxTest, Large) {
  for (const char* ok : {"4294967295:0:1", "65001:*:*", "*:*:7"}) {
    EXPECT_EQ(CheckLargeCommunity(ok), "") << ok;
  }
  for (const char* bad : {"1:2", "4294967296:0:0", "1:2:3:4", "a:b:c"}) {
    EXPECT_NE(CheckLargeCommunity(bad), "") << bad;
  }
}

TEST(CommunitySyntaxTest, Extended) {
  for (const char* ok : {"rt:65001:4294967295", "soo:4200000000:65535", "rt:192.0.2.1:7",
                         "0x0002fde800000064", "0x0002FDE800000064"}) {
    EXPECT_EQ(CheckExtCommunity(ok), "") << ok;
  }
  for (const char* bad : {"rt:4200000000:65536", "rt:192.0.2.1:65536", "rt:2001:db8::1:1", "xx:1:2",
                          "0x12", "0x0002fde80000006g", "rt:1"}) {
    EXPECT_NE(CheckExtCommunity(bad), "") << bad;
  }
}

}  // namespace
}  // namespace strata::rtrmgr
