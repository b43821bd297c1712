#include "bgp/session/asio_timer.h"

namespace strata::bgp {

AsioTimer::AsioTimer(boost::asio::io_context& io, std::function<void()> on_expiry)
    : timer_(io), on_expiry_(std::move(on_expiry)) {}

AsioTimer::~AsioTimer() { timer_.cancel(); }

void AsioTimer::Start(std::chrono::milliseconds duration) {
  deadline_ = Clock::now() + duration;
  if (running_ && deadline_ >= armed_) return;  // the pending wait re-arms when it ends
  Arm(deadline_);
}

void AsioTimer::Arm(Clock::time_point at) {
  const uint64_t generation = ++generation_;
  running_ = true;
  armed_ = at;
  timer_.expires_at(at);
  timer_.async_wait(
      [this, alive = std::weak_ptr<bool>(alive_), generation](const boost::system::error_code& ec) {
        // `this` is only touched once `alive` shows the timer still exists.
        if (ec || alive.expired() || generation != generation_) return;
        if (Clock::now() < deadline_) {
          Arm(deadline_);  // restarted meanwhile
          return;
        }
        running_ = false;
        auto callback = on_expiry_;
        callback();
      });
}

void AsioTimer::Stop() {
  ++generation_;
  running_ = false;
  timer_.cancel();
}

}  // namespace strata::bgp
