// CommonService: common/1.0 (libipc/interfaces/common_iface.proto), which every Strata process
// serves on its target: who it is, a liveness answer, and an orderly stop.
//
// GetStatus is the rtrmgr's liveness ping (docs/restart.md): it is answered on the process's
// event loop, so a process whose loop does not turn (stopped, spinning, deadlocked) does not
// answer, while one that is merely busy answers late. Shutdown asks the process to stop: it runs
// the process's `prepare` step with the request's mode (graceful: leave the forwarding state in
// place for a restart; otherwise remove it, e.g. the FEA deletes its kernel routes and strata-bgp
// tells its peers with a Cease), answers, and then `exit` runs (shortly after, so the answer is
// written first). A second Shutdown while one runs is answered when the first is.
// Threading: the io_context thread.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/asio.h"
#include "libipc/interfaces/common_iface.strata.h"

namespace strata::ipc {

class CommonService : public common_iface::v1::CommonHandler {
 public:
  using Prepare = std::function<void(bool graceful, std::function<void()> done)>;

  // `prepare` may be null (nothing to do); `exit` stops the process (e.g. router.Stop(),
  // io.stop()).
  CommonService(boost::asio::io_context& io, std::string name, Prepare prepare,
                std::function<void()> exit);
  ~CommonService() override;

  void GetTargetName(const common_iface::v1::GetTargetNameRequest& request,
                     Responder<common_iface::v1::GetTargetNameReply> reply) override;
  void GetStatus(const common_iface::v1::GetStatusRequest& request,
                 Responder<common_iface::v1::GetStatusReply> reply) override;
  void Shutdown(const common_iface::v1::ShutdownRequest& request,
                Responder<common_iface::v1::ShutdownReply> reply) override;

  bool stopping() const { return stopping_; }

 private:
  void Finish();

  boost::asio::io_context& io_;
  std::string name_;
  Prepare prepare_;
  std::function<void()> exit_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  bool stopping_ = false;
  bool prepared_ = false;
  std::vector<Responder<common_iface::v1::ShutdownReply>> waiting_;
  std::unique_ptr<boost::asio::steady_timer> exit_timer_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::ipc
