// The damping arithmetic against closed-form values, and the parameter checks.
#include "bgp/pipeline/damping_params.h"

#include <gtest/gtest.h>

#include <cmath>

namespace strata::bgp {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

TEST(DampingParamsTest, DecayHalvesEachHalfLife) {
  EXPECT_DOUBLE_EQ(DecayPenalty(1000, minutes(0), minutes(15)), 1000);
  EXPECT_DOUBLE_EQ(DecayPenalty(1000, minutes(15), minutes(15)), 500);
  EXPECT_DOUBLE_EQ(DecayPenalty(1000, minutes(45), minutes(15)), 125);
  EXPECT_NEAR(DecayPenalty(3000, seconds(450), minutes(15)), 3000 / std::sqrt(2.0), 1e-9);
  // p0 * 2^(-t/h) for an arbitrary t.
  EXPECT_NEAR(DecayPenalty(2500, seconds(100), seconds(60)), 2500 * std::exp2(-100.0 / 60), 1e-9);
}

TEST(DampingParamsTest, CeilingIsReuseTimesTwoToTheMaxSuppressOverHalfLife) {
  DampingParams p;
  EXPECT_DOUBLE_EQ(DampingCeiling(p), 750 * 16.0);  // 60 min / 15 min = 4 half-lives
  p.max_suppress = minutes(45);
  EXPECT_DOUBLE_EQ(DampingCeiling(p), 750 * 8.0);
}

TEST(DampingParamsTest, TimeToDecayInvertsDecay) {
  using std::chrono::duration_cast;
  EXPECT_EQ(duration_cast<seconds>(TimeToDecay(3000, 750, minutes(15))), minutes(30));
  // From the default ceiling to reuse takes exactly max-suppress.
  EXPECT_EQ(duration_cast<seconds>(TimeToDecay(12000, 750, minutes(15))), minutes(60));
  EXPECT_EQ(TimeToDecay(700, 750, minutes(15)).count(), 0);
  const auto t = TimeToDecay(2866.5, 750, minutes(15));
  EXPECT_NEAR(DecayPenalty(2866.5, t, minutes(15)), 750, 1e-6);
  EXPECT_GT(DecayPenalty(2866.5, t - seconds(1), minutes(15)), 750);
}

TEST(DampingParamsTest, DefaultsAreValid) { EXPECT_TRUE(ValidateDampingParams({}).ok()); }

std::string Error(const DampingParams& p) { return ValidateDampingParams(p).message(); }

TEST(DampingParamsTest, ChecksNameTheField) {
  DampingParams p;
  p.half_life = seconds(0);
  EXPECT_EQ(Error(p).rfind("half_life:", 0), 0u) << Error(p);
  p = {};
  p.reuse = 0;
  EXPECT_EQ(Error(p).rfind("reuse:", 0), 0u) << Error(p);
  p = {};
  p.suppress = 750;
  EXPECT_EQ(Error(p).rfind("suppress:", 0), 0u) << Error(p);
  p = {};
  p.withdraw_penalty = 0;
  EXPECT_EQ(Error(p).rfind("withdraw_penalty:", 0), 0u) << Error(p);
  p = {};
  p.max_suppress = seconds(0);
  EXPECT_EQ(Error(p).rfind("max_suppress:", 0), 0u) << Error(p);
  // 750 * 2^(1/15) < 2000: a route could never be suppressed.
  p.max_suppress = minutes(1);
  EXPECT_EQ(Error(p).rfind("max_suppress:", 0), 0u) << Error(p);
  p.max_suppress = minutes(15 * 65);
  EXPECT_EQ(Error(p).rfind("max_suppress:", 0), 0u) << Error(p);
  p = {};
  p.attribute_change_penalty = 0;
  EXPECT_TRUE(ValidateDampingParams(p).ok());
}

}  // namespace
}  // namespace strata::bgp
