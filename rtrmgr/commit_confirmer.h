// CommitConfirmer: `commit confirmed MINUTES` (Junos): a commit that rolls itself back unless
// confirmed in time, for remote changes that might cut the operator off. A confirmed commit
// arms a timer and records the revision to return to (the last confirmed one: a second
// `commit confirmed` within the window restarts the timer and keeps that revision); any other
// commit confirms it. When the time runs out, `rollback` is asked to commit the revision back.
// The pending state is persisted (PendingConfirm), so that a restart inside the window rolls
// back too (BootConfig). Threading: the io_context thread.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "common/asio.h"
#include "rtrmgr/pending_confirm.h"

namespace strata::rtrmgr {

class CommitConfirmer {
 public:
  // Called when the window ends: commit `pending.rollback_to` again.
  using Rollback = std::function<void(const PendingConfirm& pending)>;

  CommitConfirmer(boost::asio::io_context& io, std::string state_dir, Rollback rollback);
  ~CommitConfirmer();

  // After commit `revision` succeeded (`previous` ran before it): `minutes` > 0 arms (or
  // re-arms) the window, 0 confirms what is pending.
  void Committed(uint64_t revision, uint64_t previous, uint32_t minutes);
  // Re-arms a window found at start whose deadline has not passed (the boot kept its commit).
  void Resume(const PendingConfirm& pending);
  const std::optional<PendingConfirm>& pending() const { return pending_; }

 private:
  void Arm();

  boost::asio::io_context& io_;
  std::string state_dir_;
  Rollback rollback_;
  std::optional<PendingConfirm> pending_;
  bool expired_ = false;  // the window ended: the rollback is under way
  boost::asio::system_timer timer_;
};

}  // namespace strata::rtrmgr
