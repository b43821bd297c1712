// RouterXrlExecutor: the XrlExecutor that sends XRLs through the rtrmgr's Router, building each
// request from its text form by reflection (libipc/call/xrl_caller.h). Threading: the Router's.
#pragma once

#include <chrono>

#include "libipc/call/xrl_caller.h"
#include "rtrmgr/xrl_executor.h"

namespace strata::rtrmgr {

class RouterXrlExecutor : public XrlExecutor {
 public:
  RouterXrlExecutor(ipc::Router& router, std::chrono::milliseconds timeout)
      : caller_(router), timeout_(timeout) {}

  void Execute(const ipc::Xrl& xrl, std::function<void(const Status&)> done) override {
    ipc::CallOptions opts;
    opts.timeout = timeout_;
    caller_.Call(xrl, opts, [done = std::move(done)](ipc::CallResult r) { done(r.status); });
  }

 private:
  ipc::XrlCaller caller_;
  std::chrono::milliseconds timeout_;
};

}  // namespace strata::rtrmgr
