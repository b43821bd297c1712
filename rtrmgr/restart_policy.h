// RestartPolicy: when a supervised process that died is started again, and when it is given up
// on. Each crash doubles the wait (initial_backoff, 2x, 4x ... capped at max_backoff), counted
// over the crashes inside the sliding `window`; the max_crashes-th crash inside the window gives
// up. Crashes older than the window are forgotten, so a process that runs well for a while gets
// back to the short wait. Pure logic on a caller-supplied clock, so tests move time by hand.
// Thread-compatible value type.
#pragma once

#include <chrono>
#include <deque>
#include <optional>

namespace strata::rtrmgr {

struct RestartPolicyOptions {
  std::chrono::milliseconds initial_backoff{500};
  std::chrono::milliseconds max_backoff{30000};
  int max_crashes = 5;  // within `window`: the last one gives up
  std::chrono::milliseconds window{60000};
};

class RestartPolicy {
 public:
  using Clock = std::chrono::steady_clock;

  explicit RestartPolicy(RestartPolicyOptions options = {}) : options_(options) {}

  // Records a crash at `now`. Returns how long to wait before the restart, or nullopt when the
  // process is to be given up on.
  std::optional<std::chrono::milliseconds> OnCrash(Clock::time_point now);
  // Crashes remembered inside the window ending at `now`.
  int CrashesInWindow(Clock::time_point now);
  void Reset() { crashes_.clear(); }

 private:
  void Forget(Clock::time_point now);

  RestartPolicyOptions options_;
  std::deque<Clock::time_point> crashes_;
};

}  // namespace strata::rtrmgr
