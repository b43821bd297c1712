#include "common/asio_clock.h"

#include <boost/asio/steady_timer.hpp>

namespace strata {

namespace {

class AsioTimer : public Timer {
 public:
  AsioTimer(boost::asio::io_context& io, std::function<void()> fn)
      : timer_(io), fn_(std::move(fn)) {}
  ~AsioTimer() override { stop(); }

  void start_at(std::chrono::steady_clock::time_point when) override {
    stop();
    timer_.expires_at(when);
    // A cancelled wait may still complete with success if it was already queued: the
    // generation tells a stale completion from the current one.
    timer_.async_wait([this, gen = generation_,
                       alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
      if (ec || alive.expired() || gen != generation_) return;
      fn_();
    });
  }
  void stop() override {
    ++generation_;
    timer_.cancel();
  }

 private:
  boost::asio::steady_timer timer_;
  std::function<void()> fn_;
  uint64_t generation_ = 0;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace

std::unique_ptr<Timer> AsioClock::make_timer(std::function<void()> on_expiry) {
  return std::make_unique<AsioTimer>(io_, std::move(on_expiry));
}

}  // namespace strata
