#include "testing/common/fake_clock.h"

#include <optional>

namespace strata {

class FakeClock::FakeTimer : public strata::Timer {
 public:
  FakeTimer(FakeClock& clock, std::function<void()> fn) : clock_(clock), fn_(std::move(fn)) {
    clock_.timers_.insert(this);
  }
  ~FakeTimer() override { clock_.timers_.erase(this); }
  void start_at(TimePoint when) override { deadline_ = when; }
  void stop() override { deadline_.reset(); }

  FakeClock& clock_;
  std::function<void()> fn_;
  std::optional<TimePoint> deadline_;
};

std::unique_ptr<strata::Timer> FakeClock::make_timer(std::function<void()> on_expiry) {
  return std::make_unique<FakeTimer>(*this, std::move(on_expiry));
}

void FakeClock::advance(std::chrono::steady_clock::duration d) {
  const TimePoint end = now_ + d;
  for (;;) {
    FakeTimer* next = nullptr;
    for (FakeTimer* t : timers_) {
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
  for (const FakeTimer* t : timers_) n += t->deadline_.has_value();
  return n;
}

}  // namespace strata
