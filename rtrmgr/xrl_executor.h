// XrlExecutor: how the commit engine sends one XRL. The real one (RouterXrlExecutor) calls
// through the Router and the Finder; tests use a fake that records calls and fails on demand.
// `done` runs exactly once, on the io_context thread.
#pragma once

#include <functional>

#include "common/status.h"
#include "libipc/xrl.h"

namespace strata::rtrmgr {

class XrlExecutor {
 public:
  virtual ~XrlExecutor() = default;
  virtual void Execute(const ipc::Xrl& xrl, std::function<void(const Status&)> done) = 0;
};

}  // namespace strata::rtrmgr
