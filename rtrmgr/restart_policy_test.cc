#include "rtrmgr/restart_policy.h"

#include <gtest/gtest.h>

namespace strata::rtrmgr {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

RestartPolicyOptions Opts() {
  RestartPolicyOptions o;
  o.initial_backoff = milliseconds(100);
  o.max_backoff = milliseconds(1000);
  o.max_crashes = 6;
  o.window = seconds(60);
  return o;
}

TEST(RestartPolicyTest, BackoffDoublesUpToTheCap) {
  RestartPolicy p(Opts());
  const auto t0 = RestartPolicy::Clock::time_point{} + seconds(1000);
  EXPECT_EQ(p.OnCrash(t0), milliseconds(100));
  EXPECT_EQ(p.OnCrash(t0 + seconds(1)), milliseconds(200));
  EXPECT_EQ(p.OnCrash(t0 + seconds(2)), milliseconds(400));
  EXPECT_EQ(p.OnCrash(t0 + seconds(3)), milliseconds(800));
  EXPECT_EQ(p.OnCrash(t0 + seconds(4)), milliseconds(1000));
}

TEST(RestartPolicyTest, GivesUpAfterMaxCrashesInTheWindow) {
  RestartPolicy p(Opts());
  const auto t0 = RestartPolicy::Clock::time_point{} + seconds(1000);
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(p.OnCrash(t0 + seconds(i)).has_value()) << i;
  EXPECT_FALSE(p.OnCrash(t0 + seconds(5)).has_value());
}

TEST(RestartPolicyTest, OldCrashesAreForgotten) {
  RestartPolicy p(Opts());
  const auto t0 = RestartPolicy::Clock::time_point{} + seconds(1000);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(p.OnCrash(t0 + seconds(i)).has_value());
  // Two minutes later the earlier crashes are out of the window: short wait again.
  EXPECT_EQ(p.CrashesInWindow(t0 + seconds(120)), 0);
  EXPECT_EQ(p.OnCrash(t0 + seconds(120)), milliseconds(100));
}

}  // namespace
}  // namespace strata::rtrmgr
