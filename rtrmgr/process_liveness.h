// ProcessLiveness: the rtrmgr's liveness pings, like FRR's watchfrr: every watched process is
// asked common/1.0/get_status every `interval`; one that leaves a ping unanswered for `timeout`
// is reported hung (LivenessTracker decides; this class sends the pings and runs one timer).
// The owner watches a process once it registered and unwatches it when it dies or stops.
// A timeout of 0 turns the pings off. Threading: the io_context thread; the Router and the
// io_context outlive this object.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "common/asio.h"
#include "libipc/router.h"
#include "rtrmgr/liveness_tracker.h"

namespace strata::rtrmgr {

class ProcessLiveness {
 public:
  using HungFn = std::function<void(const std::string& instance)>;

  ProcessLiveness(ipc::Router& router, LivenessTracker::Options options, HungFn on_hung);
  ~ProcessLiveness();

  void Watch(const std::string& instance);
  void Unwatch(const std::string& instance);
  bool enabled() const { return tracker_.options().timeout.count() > 0; }
  const LivenessTracker::Options& options() const { return tracker_.options(); }

 private:
  void Ping(const std::string& instance);
  void OnTimer();
  void Arm();

  ipc::Router& router_;
  LivenessTracker tracker_;
  HungFn on_hung_;
  boost::asio::steady_timer timer_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::rtrmgr
