// RibService's part of the restart protocol (docs/restart.md): config_complete from the rtrmgr,
// get_restart_state for owners that start, the owners' graceful_restart_done, and the
// readiness figures of get_stats.
#include "rib/process/rib_service.h"

namespace strata::rib {

void RibService::ConfigComplete(const v1::ConfigCompleteRequest& request,
                                ipc::Responder<v1::ConfigCompleteReply> reply) {
  if (parts_.readiness != nullptr) {
    std::vector<std::string> owners(request.owners().begin(), request.owners().end());
    for (const std::string& o : owners) {
      if (o.empty()) return reply.Fail(InvalidArgument("owners: an empty instance name"));
    }
    // Owners that sent their tables before the rtrmgr named them are done already.
    for (const std::string& o : owners) {
      if (parts_.owners->all_resent(o)) {
        parts_.readiness->OwnerDone(o, std::chrono::steady_clock::now());
      }
    }
    parts_.readiness->ConfigComplete(owners, std::chrono::steady_clock::now());
  }
  notify_changed();
  reply(v1::ConfigCompleteReply());
}

v1::GetRestartStateReply RibService::restart_state(
    const v1::GetRestartStateRequest& request) const {
  v1::GetRestartStateReply out;
  uint64_t stale = 0;
  for (const std::string& p : request.protocols()) {
    if (const OriginTable* t = rib_.table(p)) stale += t->stale_count();
  }
  out.set_stale_routes(stale);
  out.set_recovering(parts_.readiness != nullptr && parts_.readiness->recovering());
  return out;
}

void RibService::GetRestartState(const v1::GetRestartStateRequest& request,
                                 ipc::Responder<v1::GetRestartStateReply> reply) {
  if (parts_.readiness == nullptr || !parts_.readiness->recovery_unknown()) {
    return reply(restart_state(request));
  }
  held_restart_states_.push_back(HeldRestartState{request, std::move(reply)});
  if (restart_state_timer_) return;
  restart_state_timer_ =
      std::make_unique<boost::asio::steady_timer>(router_.io(), kRestartStateWait);
  restart_state_timer_->async_wait(
      [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
        if (!ec && !alive.expired()) answer_restart_states();
      });
}

void RibService::answer_restart_states() {
  restart_state_timer_.reset();
  auto held = std::move(held_restart_states_);
  held_restart_states_.clear();
  for (HeldRestartState& h : held) h.reply(restart_state(h.request));
}

void RibService::readiness_changed() {
  if (parts_.readiness == nullptr) return;
  if (!held_restart_states_.empty() && !parts_.readiness->recovery_unknown()) {
    answer_restart_states();
  }
  if (held_interests_.empty() || parts_.readiness->hold_answers()) return;
  auto held = std::move(held_interests_);
  held_interests_.clear();
  for (HeldInterest& h : held) RegisterInterest(h.request, std::move(h.reply));
}

void RibService::note_resent(const std::string& protocol) {
  if (parts_.readiness == nullptr) return;
  const ProtocolOwners::Entry* e = parts_.owners->find(protocol);
  if (e == nullptr || e->owner.empty() || !parts_.owners->all_resent(e->owner)) return;
  parts_.readiness->OwnerDone(e->owner, std::chrono::steady_clock::now());
}

void RibService::fill_readiness(v1::GetStatsReply& out) const {
  if (parts_.readiness == nullptr) {
    out.set_table_complete(true);
    return;
  }
  const TableReadiness& r = *parts_.readiness;
  out.set_table_complete(r.complete());
  out.set_recovering(r.recovering());
  out.set_completed_how(r.completed_how());
  for (const std::string& a : r.awaiting()) out.add_awaiting(a);
  if (!r.complete()) {
    const auto left = r.deadline() - std::chrono::steady_clock::now();
    out.set_recovery_remaining_ms(static_cast<uint64_t>(
        std::max<int64_t>(0, std::chrono::ceil<std::chrono::milliseconds>(left).count())));
  }
}

}  // namespace strata::rib
