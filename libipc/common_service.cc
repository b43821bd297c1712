#include "libipc/common_service.h"

#include <unistd.h>

namespace strata::ipc {

namespace cpb = strata::common_iface::v1;

CommonService::CommonService(boost::asio::io_context& io, std::string name, Prepare prepare,
                             std::function<void()> exit)
    : io_(io), name_(std::move(name)), prepare_(std::move(prepare)), exit_(std::move(exit)) {}

CommonService::~CommonService() { *alive_ = false; }

void CommonService::GetTargetName(const cpb::GetTargetNameRequest&,
                                  Responder<cpb::GetTargetNameReply> reply) {
  cpb::GetTargetNameReply out;
  out.set_name(name_);
  reply(out);
}

void CommonService::GetStatus(const cpb::GetStatusRequest&, Responder<cpb::GetStatusReply> reply) {
  cpb::GetStatusReply out;
  out.set_status(stopping_ ? "shutting-down" : "ready");
  out.set_uptime_ms(static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                              std::chrono::steady_clock::now() - started_)
                                              .count()));
  out.set_pid(static_cast<uint32_t>(::getpid()));
  reply(out);
}

void CommonService::Shutdown(const cpb::ShutdownRequest& request,
                             Responder<cpb::ShutdownReply> reply) {
  if (prepared_) return reply(cpb::ShutdownReply());
  waiting_.push_back(std::move(reply));
  if (stopping_) return;
  stopping_ = true;
  if (!prepare_) return Finish();
  prepare_(request.graceful(), [this, alive = std::weak_ptr<bool>(alive_)] {
    if (!alive.expired()) Finish();
  });
}

void CommonService::Finish() {
  prepared_ = true;
  auto waiting = std::move(waiting_);
  waiting_.clear();
  for (auto& w : waiting) w(cpb::ShutdownReply());
  // The answers are queued on their connections: give them a moment to be written.
  exit_timer_ = std::make_unique<boost::asio::steady_timer>(io_, std::chrono::milliseconds(100));
  exit_timer_->async_wait(
      [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
        if (!ec && !alive.expired() && exit_) exit_();
      });
}

}  // namespace strata::ipc
