// InstanceLock: one strata-rtrmgr per run directory and per state directory. A second router
// on the same run directory would take over the Finder's socket (and delete it on exit, cutting
// the first off from strata-sh); on the same state directory two routers would interleave
// their commits. Each directory gets a `strata-rtrmgr.lock` file, held with flock(2) for the
// process's life and holding its pid; the kernel drops the lock when the process dies, so a
// crash leaves no stale lock. The descriptor is close-on-exec: children do not hold it.
// Thread-compatible.
#pragma once

#include <string>

#include "common/status.h"

namespace strata::rtrmgr {

class InstanceLock {
 public:
  InstanceLock() = default;
  InstanceLock(InstanceLock&& other) noexcept;
  InstanceLock& operator=(InstanceLock&& other) noexcept;
  InstanceLock(const InstanceLock&) = delete;
  InstanceLock& operator=(const InstanceLock&) = delete;
  ~InstanceLock();

  // Locks `dir` (created 0700 if missing) for this process. FAILED_PRECONDITION
  // "already running with DIR (pid N)" when another process holds it; `what` names the
  // directory's role in messages ("run directory", "state directory").
  static StatusOr<InstanceLock> Acquire(const std::string& dir, const std::string& what);

 private:
  explicit InstanceLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace strata::rtrmgr
