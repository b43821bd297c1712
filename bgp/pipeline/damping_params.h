// DampingParams and the figure-of-merit arithmetic of route flap damping (RFC 2439 4.2-4.4).
//
// A route's penalty grows by `withdraw_penalty` per withdrawal (a flap) and by
// `attribute_change_penalty` per re-announcement with other attributes, and decays
// exponentially: p(t) = p0 * 2^(-t / half_life). At `suppress` or more the route is suppressed;
// it is reused once the penalty has decayed below `reuse`. The penalty is capped at the
// ceiling reuse * 2^(max_suppress / half_life), so no route stays suppressed longer than
// max_suppress after its last flap. History is freed below reuse / 2.
// Defaults are those of FRR, Cisco and Junos (half-life 15 min, reuse 750, suppress 2000,
// max-suppress 60 min, 1000 per withdrawal, 500 per attribute change).
// Thread-compatible value type and pure functions.
#pragma once

#include <chrono>
#include <cstdint>

#include "common/status.h"

namespace strata::bgp {

struct DampingParams {
  std::chrono::seconds half_life{std::chrono::minutes(15)};
  uint32_t reuse = 750;
  uint32_t suppress = 2000;
  std::chrono::seconds max_suppress{std::chrono::minutes(60)};
  uint32_t withdraw_penalty = 1000;
  uint32_t attribute_change_penalty = 500;  // 0: attribute changes are not penalized
  friend bool operator==(const DampingParams&, const DampingParams&) = default;
};

// Consistency of a parameter set; the error names the field (as in bgp.proto's set_damping).
// half_life > 0, 0 < reuse < suppress, withdraw_penalty > 0, max_suppress at most 64 half-lives
// and long enough that the ceiling reaches suppress (else nothing could ever be suppressed).
Status ValidateDampingParams(const DampingParams& p);

// reuse * 2^(max_suppress / half_life).
double DampingCeiling(const DampingParams& p);

// The penalty `elapsed` after it was `penalty`. REQUIRES: half_life > 0.
double DecayPenalty(double penalty, std::chrono::steady_clock::duration elapsed,
                    std::chrono::seconds half_life);

// How long `penalty` takes to decay to `target` (zero if it is not above it), rounded up to
// the clock's tick. REQUIRES: half_life > 0, target > 0.
std::chrono::steady_clock::duration TimeToDecay(double penalty, double target,
                                                std::chrono::seconds half_life);

}  // namespace strata::bgp
