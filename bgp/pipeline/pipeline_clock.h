// PipelineClock: time for the pipeline's time-driven stages (route flap damping), so that the
// stages know neither Asio nor real time. The process implements it on its io_context
// (bgp/process/asio_clock.h); tests use FakeClock and move time by hand.
// Contract: a timer's callback runs on the pipeline's thread, never synchronously from
// start_at, never after stop() or the timer's destruction. Threading: single-threaded.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

namespace strata::bgp {

class PipelineTimer {
 public:
  virtual ~PipelineTimer() = default;
  // (Re)arms the timer for `when`; an armed timer is moved. A time already past fires soon.
  virtual void start_at(std::chrono::steady_clock::time_point when) = 0;
  virtual void stop() = 0;
};

class PipelineClock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  virtual ~PipelineClock() = default;

  virtual TimePoint now() const = 0;
  // A stopped one-shot timer running `on_expiry` when it fires.
  virtual std::unique_ptr<PipelineTimer> make_timer(std::function<void()> on_expiry) = 0;
};

}  // namespace strata::bgp
