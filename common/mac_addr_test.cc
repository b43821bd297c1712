#include "common/mac_addr.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(MacAddrTest, RoundTrips) {
  auto m = MacAddr::Parse("02:AB:cd:00:11:ff");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->ToString(), "02:ab:cd:00:11:ff");
}

TEST(MacAddrTest, RejectsMalformed) {
  for (const char* bad :
       {"", "02:ab:cd:00:11", "02:ab:cd:00:11:fg", "02-ab-cd-00-11-ff", "02:ab:cd:00:11:ff:00"}) {
    EXPECT_FALSE(MacAddr::Parse(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace strata
