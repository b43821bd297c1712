#include "fea/vr_recovery.h"

#include <gtest/gtest.h>

namespace strata::fea {
namespace {

using namespace std::chrono_literals;
using Strings = std::vector<std::string>;

class VrRecoveryTest : public ::testing::Test {
 protected:
  VrRecovery::TimePoint at(std::chrono::milliseconds ms) const { return t0_ + ms; }
  const VrRecovery::TimePoint t0_{};
};

TEST_F(VrRecoveryTest, AdoptedRoutesWaitTheGraceUnlessARibTakesOver) {
  VrRecovery r({.grace = 60000ms}, t0_);
  EXPECT_TRUE(r.config_complete());
  r.Adopted("red", 0, at(0ms));
  EXPECT_FALSE(r.stale("red")) << "nothing adopted, nothing stale";
  r.Adopted("red", 1000, at(0ms));
  r.Adopted("blue", 5, at(10ms));
  EXPECT_EQ(r.NextDeadline(), at(60000ms));
  // red's RIB claims its routes for 300 s; blue's never comes.
  r.BeginResync("red", 300000ms, at(2000ms));
  EXPECT_EQ(r.deadline("red"), at(302000ms));
  auto due = r.Expire(at(60010ms));
  EXPECT_EQ(due.vrs, Strings{"blue"});
  EXPECT_FALSE(r.stale("blue"));
  EXPECT_TRUE(r.stale("red"));
  r.Close("red");  // end_resync
  EXPECT_EQ(r.NextDeadline(), std::nullopt);
}

TEST_F(VrRecoveryTest, AResyncWithoutHoldWaitsForItsEnd) {
  VrRecovery r({.grace = 1000ms}, t0_);
  r.Adopted("red", 10, at(0ms));
  r.BeginResync("red", 0ms, at(10ms));
  EXPECT_TRUE(r.stale("red"));
  EXPECT_EQ(r.deadline("red"), std::nullopt);
  EXPECT_TRUE(r.Expire(at(3600000ms)).vrs.empty());
  EXPECT_EQ(r.NextDeadline(), std::nullopt);
}

TEST_F(VrRecoveryTest, ConfigurationIsAwaitedUntilCompleteOrTheBound) {
  VrRecovery r({.grace = 60000ms, .await_config = 5000ms}, t0_);
  EXPECT_FALSE(r.config_complete());
  EXPECT_EQ(r.NextDeadline(), at(5000ms));
  EXPECT_FALSE(r.Expire(at(4999ms)).config_timed_out);
  EXPECT_TRUE(r.ConfigComplete());
  EXPECT_FALSE(r.ConfigComplete()) << "once";
  EXPECT_FALSE(r.Expire(at(5000ms)).config_timed_out);

  VrRecovery late({.grace = 60000ms, .await_config = 5000ms}, t0_);
  auto due = late.Expire(at(5000ms));
  EXPECT_TRUE(due.config_timed_out);
  EXPECT_TRUE(late.config_complete());
  EXPECT_FALSE(late.Expire(at(6000ms)).config_timed_out);
}

}  // namespace
}  // namespace strata::fea
