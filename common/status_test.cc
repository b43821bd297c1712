#include "common/status.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(StatusTest, PrintsCodeAndMessage) {
  EXPECT_EQ(Status().ToString(), "OK");
  EXPECT_EQ(NotFound("no such target 'bgp'").ToString(), "NOT_FOUND: no such target 'bgp'");
  EXPECT_EQ(StatusCodeName(StatusCode::kUnauthenticated), "UNAUTHENTICATED");
}

TEST(StatusTest, StatusOrHoldsValueOrError) {
  StatusOr<int> v(7);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 7);
  StatusOr<int> e(InvalidArgument("bad"));
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace strata
