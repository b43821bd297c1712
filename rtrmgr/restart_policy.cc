#include "rtrmgr/restart_policy.h"

#include <algorithm>

namespace strata::rtrmgr {

void RestartPolicy::Forget(Clock::time_point now) {
  while (!crashes_.empty() && now - crashes_.front() > options_.window) crashes_.pop_front();
}

int RestartPolicy::CrashesInWindow(Clock::time_point now) {
  Forget(now);
  return static_cast<int>(crashes_.size());
}

std::optional<std::chrono::milliseconds> RestartPolicy::OnCrash(Clock::time_point now) {
  Forget(now);
  crashes_.push_back(now);
  const int n = static_cast<int>(crashes_.size());
  if (n >= options_.max_crashes) return std::nullopt;
  auto delay = options_.initial_backoff;
  for (int i = 1; i < n && delay < options_.max_backoff; ++i) delay *= 2;
  return std::min(delay, options_.max_backoff);
}

}  // namespace strata::rtrmgr
