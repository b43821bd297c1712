#include "rtrmgr/process_liveness.h"

#include "libipc/interfaces/common_iface.pb.h"

namespace strata::rtrmgr {

namespace cpb = strata::common_iface::v1;
using Clock = std::chrono::steady_clock;

ProcessLiveness::ProcessLiveness(ipc::Router& router, LivenessTracker::Options options,
                                 HungFn on_hung)
    : router_(router), tracker_(options), on_hung_(std::move(on_hung)), timer_(router.io()) {}

ProcessLiveness::~ProcessLiveness() {
  *alive_ = false;
  timer_.cancel();
}

void ProcessLiveness::Watch(const std::string& instance) {
  if (!enabled()) return;
  tracker_.Watch(instance, Clock::now());
  Arm();
}

void ProcessLiveness::Unwatch(const std::string& instance) {
  tracker_.Unwatch(instance);
  Arm();
}

void ProcessLiveness::Ping(const std::string& instance) {
  ipc::CallOptions opts;
  // The tracker decides when the answer is late; the call only has to outlast that.
  opts.timeout = tracker_.options().timeout + std::chrono::seconds(5);
  router_.Call<cpb::GetStatusRequest, cpb::GetStatusReply>(
      instance, "common/1.0/get_status", cpb::GetStatusRequest(),
      [this, instance, alive = std::weak_ptr<bool>(alive_)](const Status& s,
                                                            const cpb::GetStatusReply&) {
        if (alive.expired() || s.code() == StatusCode::kDeadlineExceeded) return;
        // Any other answer, an error included, shows the process's loop (or its death, which
        // the supervisor reports) and is no hang.
        tracker_.Answered(instance, Clock::now());
        Arm();
      },
      opts);
}

void ProcessLiveness::OnTimer() {
  const auto now = Clock::now();
  for (const std::string& instance : tracker_.Hung(now)) {
    if (on_hung_) on_hung_(instance);
  }
  for (const std::string& instance : tracker_.DuePings(now)) Ping(instance);
  Arm();
}

void ProcessLiveness::Arm() {
  timer_.cancel();
  const auto next = tracker_.NextDeadline(Clock::now());
  if (!next) return;
  timer_.expires_at(*next);
  timer_.async_wait(
      [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
        if (!ec && !alive.expired()) OnTimer();
      });
}

}  // namespace strata::rtrmgr
