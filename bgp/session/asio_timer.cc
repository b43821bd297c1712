#include "bgp/session/asio_timer.h"

namespace strata::bgp {

AsioTimer::AsioTimer(boost::asio::io_context& io, std::function<void()> on_expiry)
    : timer_(io), on_expiry_(std::move(on_expiry)) {}

AsioTimer::~AsioTimer() { timer_.cancel(); }

void AsioTimer::Start(std::chrono::milliseconds duration) {
  const uint64_t generation = ++generation_;
  running_ = true;
  timer_.expires_after(duration);
  timer_.async_wait(
      [this, alive = std::weak_ptr<bool>(alive_), generation](const boost::system::error_code& ec) {
        // `this` is only touched once `alive` shows the timer still exists.
        if (ec || alive.expired() || generation != generation_) return;
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
