// AsioTimer: an FsmTimer on a boost::asio::steady_timer, for PeerSession.
//
// The callback runs on the io_context thread, never after Stop() or destruction, and may
// destroy the timer itself (the callback is copied before it runs).
// A Start that only pushes the deadline later (the hold timer, restarted by every message
// received) records it and leaves the pending wait alone, which re-arms for what is left when it
// ends: no cancellation and new wait per UPDATE. Threading: the io_context thread only.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

#include "bgp/session/session_env.h"
#include "common/asio.h"

namespace strata::bgp {

class AsioTimer : public FsmTimer {
 public:
  AsioTimer(boost::asio::io_context& io, std::function<void()> on_expiry);
  ~AsioTimer() override;

  void Start(std::chrono::milliseconds duration) override;
  void Stop() override;
  bool running() const override { return running_; }

 private:
  using Clock = std::chrono::steady_clock;
  // Waits until `at`; the callback runs then if the deadline has not moved past it.
  void Arm(Clock::time_point at);

  boost::asio::steady_timer timer_;
  std::function<void()> on_expiry_;
  Clock::time_point deadline_;  // when the callback is due
  Clock::time_point armed_;     // when the pending wait ends
  uint64_t generation_ = 0;     // a completion of an older Start is stale
  bool running_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::bgp
