// FakeClock: a Clock (common/clock.h) for tests; time moves only by advance(), which fires the
// timers that come due in deadline order, each with now() at its deadline. REQUIRES: the clock
// outlives its timers. Threading: single-threaded.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <set>

#include "common/clock.h"

namespace strata {

class FakeClock : public Clock {
 public:
  TimePoint now() const override { return now_; }
  std::unique_ptr<Timer> make_timer(std::function<void()> on_expiry) override;

  // Moves time forward by `d`, firing due timers (a callback may arm timers again).
  void advance(std::chrono::steady_clock::duration d);
  // Timers armed now.
  size_t armed() const;

 private:
  class FakeTimer;
  TimePoint now_{std::chrono::hours(1000)};
  std::set<FakeTimer*> timers_;
};

}  // namespace strata
