#include "bgp/pipeline/damping_params.h"

#include <cmath>
#include <string>

namespace strata::bgp {

namespace {
constexpr double kMaxHalfLivesSuppressed = 64;
}  // namespace

Status ValidateDampingParams(const DampingParams& p) {
  if (p.half_life.count() <= 0) return InvalidArgument("half_life: must be positive");
  if (p.reuse == 0) return InvalidArgument("reuse: must be positive");
  if (p.suppress <= p.reuse) {
    return InvalidArgument("suppress: must be above reuse (" + std::to_string(p.reuse) + ")");
  }
  if (p.withdraw_penalty == 0) return InvalidArgument("withdraw_penalty: must be positive");
  if (p.max_suppress.count() <= 0) return InvalidArgument("max_suppress: must be positive");
  const double half_lives =
      static_cast<double>(p.max_suppress.count()) / static_cast<double>(p.half_life.count());
  if (half_lives > kMaxHalfLivesSuppressed) {
    return InvalidArgument("max_suppress: at most 64 half-lives");
  }
  if (DampingCeiling(p) < p.suppress) {
    return InvalidArgument("max_suppress: too short for this half_life: the penalty ceiling " +
                           std::to_string(static_cast<uint64_t>(DampingCeiling(p))) +
                           " (reuse * 2^(max_suppress / half_life)) is below suppress");
  }
  return Status::Ok();
}

double DampingCeiling(const DampingParams& p) {
  return p.reuse * std::exp2(static_cast<double>(p.max_suppress.count()) /
                             static_cast<double>(p.half_life.count()));
}

double DecayPenalty(double penalty, std::chrono::steady_clock::duration elapsed,
                    std::chrono::seconds half_life) {
  if (elapsed.count() <= 0) return penalty;
  const double t = std::chrono::duration<double>(elapsed).count();
  return penalty * std::exp2(-t / static_cast<double>(half_life.count()));
}

std::chrono::steady_clock::duration TimeToDecay(double penalty, double target,
                                                std::chrono::seconds half_life) {
  if (penalty <= target) return std::chrono::steady_clock::duration::zero();
  const double secs = static_cast<double>(half_life.count()) * std::log2(penalty / target);
  return std::chrono::ceil<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(secs));
}

}  // namespace strata::bgp
