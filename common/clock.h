// Clock and Timer: the one interface to time for event-driven components, so that they know
// neither Asio nor real time. A process implements it on its io_context (common/asio_clock.h);
// tests use FakeClock (testing/common/fake_clock.h) and move time by hand instead of sleeping.
// Contract: a timer's callback runs on the component's thread, never synchronously from
// start_at, never after stop() or the timer's destruction. Threading: single-threaded.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

namespace strata {

class Timer {
 public:
  virtual ~Timer() = default;
  // (Re)arms the timer for `when`; an armed timer is moved. A time already past fires soon.
  virtual void start_at(std::chrono::steady_clock::time_point when) = 0;
  virtual void stop() = 0;
};

class Clock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  using Duration = std::chrono::steady_clock::duration;
  virtual ~Clock() = default;

  virtual TimePoint now() const = 0;
  // A stopped one-shot timer running `on_expiry` when it fires.
  virtual std::unique_ptr<Timer> make_timer(std::function<void()> on_expiry) = 0;
};

}  // namespace strata
