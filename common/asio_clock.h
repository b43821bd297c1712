// AsioClock: the Clock (common/clock.h) on a process's io_context (steady_clock and
// steady_timer). A timer's callback is posted on the io_context and never runs after stop() or
// the timer's destruction. REQUIRES: the io_context outlives the timers. Threading: the
// io_context thread.
#pragma once

#include <boost/asio/io_context.hpp>

#include "common/clock.h"

namespace strata {

class AsioClock : public Clock {
 public:
  explicit AsioClock(boost::asio::io_context& io) : io_(io) {}

  TimePoint now() const override { return std::chrono::steady_clock::now(); }
  std::unique_ptr<Timer> make_timer(std::function<void()> on_expiry) override;

 private:
  boost::asio::io_context& io_;
};

}  // namespace strata
