#include "rtrmgr/commit_confirmer.h"

#include "common/log.h"

namespace strata::rtrmgr {
namespace {
std::shared_ptr<spdlog::logger> Log() {
  static auto log = MakeLogger("rtrmgr");
  return log;
}

int64_t NowUnix() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}
}  // namespace

CommitConfirmer::CommitConfirmer(boost::asio::io_context& io, std::string state_dir,
                                 Rollback rollback)
    : io_(io), state_dir_(std::move(state_dir)), rollback_(std::move(rollback)), timer_(io) {}

CommitConfirmer::~CommitConfirmer() { timer_.cancel(); }

void CommitConfirmer::Committed(uint64_t revision, uint64_t previous, uint32_t minutes) {
  if (minutes == 0) {
    if (!pending_) return;
    // After the window ended, this commit is the rollback itself (its caller logs it).
    if (!expired_) Log()->info("commit {} confirmed by commit {}", pending_->revision, revision);
    pending_.reset();
    expired_ = false;
    timer_.cancel();
    PendingConfirm::Clear(state_dir_);
    return;
  }
  PendingConfirm p;
  p.revision = revision;
  p.rollback_to = pending_ ? pending_->rollback_to : previous;
  p.deadline_unix = NowUnix() + static_cast<int64_t>(minutes) * 60;
  pending_ = p;
  if (Status s = p.Save(state_dir_); !s.ok()) {
    Log()->error("commit confirmed: cannot record it ({}): a restart would not roll it back",
                 s.ToString());
  }
  Log()->warn("commit {} rolls back to revision {} in {} minute{} unless confirmed (commit)",
              revision, p.rollback_to, minutes, minutes == 1 ? "" : "s");
  Arm();
}

void CommitConfirmer::Resume(const PendingConfirm& pending) {
  pending_ = pending;
  Log()->warn("commit {} is still not confirmed: it rolls back to revision {} in {} s",
              pending.revision, pending.rollback_to,
              std::max<int64_t>(0, pending.deadline_unix - NowUnix()));
  Arm();
}

void CommitConfirmer::Arm() {
  expired_ = false;
  timer_.cancel();
  timer_.expires_at(
      std::chrono::system_clock::time_point(std::chrono::seconds(pending_->deadline_unix)));
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || !pending_) return;
    const PendingConfirm p = *pending_;
    expired_ = true;
    Log()->warn("commit {} was not confirmed in time: rolling back to revision {}", p.revision,
                p.rollback_to);
    rollback_(p);
  });
}

}  // namespace strata::rtrmgr
