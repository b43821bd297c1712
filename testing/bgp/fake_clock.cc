#include "testing/bgp/fake_clock.h"

#include <optional>

namespace strata::bgp {

class FakeClock::Timer : public PipelineTimer {
 public:
  Timer(FakeClock& clock, std::function<void()> fn) : clock_(clock), fn_(std::move(fn)) {
    clock_.timers_.insert(this);
  }
  ~Timer() override { clock_.timers_.erase(this); }
  void start_at(TimePoint when) override { deadline_ = when; }
  void stop() override { deadline_.reset(); }

  FakeClock& clock_;
  std::function<void()> fn_;
  std::optional<TimePoint> deadline_;
};

std::unique_ptr<PipelineTimer> FakeClock::make_timer(std::function<void()> on_expiry) {
  return std::make_unique<Timer>(*this, std::move(on_expiry));
}

void FakeClock::advance(std::chrono::steady_clock::duration d) {
  const TimePoint end = now_ + d;
  for (;;) {
    Timer* next = nullptr;
    for (Timer* t : timers_) {
      if (t->deadline_ && *t->deadline_ <= end && (!next || *t->deadline_ < *next->deadline_)) {
        next = t;
      }
    }
    if (!next) break;
    if (*next->deadline_ > now_) now_ = *next->deadline_;
    next->deadline_.reset();
    next->fn_();
  }
  now_ = end;
}

size_t FakeClock::armed() const {
  size_t n = 0;
  for (const Timer* t : timers_) n += t->deadline_.has_value();
  return n;
}

}  // namespace strata::bgp
