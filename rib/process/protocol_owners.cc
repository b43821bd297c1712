#include "rib/process/protocol_owners.h"

#include <algorithm>

namespace strata::rib {

ProtocolOwners::ProtocolOwners(boost::asio::io_context& io, Rib& rib,
                               std::chrono::milliseconds restart_timeout, WatchFn watch,
                               std::function<void()> changed,
                               std::chrono::milliseconds max_deferral)
    : io_(io),
      rib_(rib),
      restart_timeout_(restart_timeout),
      max_deferral_(max_deferral),
      watch_(std::move(watch)),
      changed_(std::move(changed)),
      log_(MakeLogger("rib.owners")) {}

void ProtocolOwners::set(const std::string& protocol, const std::string& owner,
                         bool graceful_restart, std::chrono::milliseconds restart_time,
                         std::chrono::milliseconds selection_deferral) {
  Entry& e = entries_[protocol];
  e.owner = owner;
  e.graceful_restart = graceful_restart;
  e.restart_time = restart_time;
  e.enabled = true;
  e.resent = false;
  if (!owner.empty() && watched_.insert(owner).second && watch_) watch_(owner);
  if (!e.restarting || selection_deferral.count() <= 0) return;
  const auto after = std::min(selection_deferral + this->restart_time(e), max_deferral_);
  ++e.deferrals;
  log_->info("{}: owner {} is back and defers its selection {} ms: stale routes kept up to {} ms",
             protocol, owner, selection_deferral.count(), after.count());
  start_restart_timer(protocol, e, after);
}

void ProtocolOwners::start_restart_timer(const std::string& protocol, Entry& e,
                                         std::chrono::milliseconds after) {
  e.restart_timer = std::make_unique<boost::asio::steady_timer>(io_, after);
  e.restart_timer->async_wait(
      [this, alive = std::weak_ptr<bool>(alive_), protocol](const boost::system::error_code& ec) {
        if (ec || alive.expired()) return;
        restart_timer_fired(protocol);
      });
}

std::chrono::milliseconds ProtocolOwners::restart_remaining(const Entry& e) const {
  if (!e.restarting || !e.restart_timer) return std::chrono::milliseconds(0);
  const auto left = e.restart_timer->expiry() - std::chrono::steady_clock::now();
  return std::max(std::chrono::milliseconds(0), std::chrono::ceil<std::chrono::milliseconds>(left));
}

Status ProtocolOwners::disable(const std::string& protocol) {
  if (!enabled(protocol)) return NotFound("no origin table " + protocol);
  if (Status s = rib_.delete_all_routes(protocol); !s.ok()) return s;
  Entry& e = entries_[protocol];
  e.enabled = false;
  e.restarting = false;
  e.restart_timer.reset();
  return Status::Ok();
}

bool ProtocolOwners::enabled(const std::string& protocol) const {
  auto it = entries_.find(protocol);
  return it == entries_.end() || it->second.enabled;
}

const ProtocolOwners::Entry* ProtocolOwners::find(const std::string& protocol) const {
  auto it = entries_.find(protocol);
  return it == entries_.end() ? nullptr : &it->second;
}

void ProtocolOwners::owner_event(const std::string& owner, bool alive) {
  if (alive) return;  // a restarted owner re-registers its table and re-announces its routes
  for (auto& [protocol, e] : entries_) {
    if (e.owner != owner || !e.enabled) continue;
    e.resent = false;
    if (!e.graceful_restart) {
      (void)rib_.delete_all_routes(protocol);
      ++withdrawals_;
      continue;
    }
    // A second death during a restart marks again: routes re-announced since are kept fresh
    // only until the next sweep.
    (void)rib_.mark_stale(protocol);
    e.restarting = true;
    start_restart_timer(protocol, e, restart_time(e));
  }
}

void ProtocolOwners::restart_timer_fired(const std::string& protocol) {
  auto it = entries_.find(protocol);
  if (it == entries_.end() || !it->second.restarting) return;
  it->second.restarting = false;
  (void)rib_.sweep_stale(protocol);
  ++sweeps_;
  if (changed_) changed_();
}

StatusOr<size_t> ProtocolOwners::restart_done(const std::string& protocol) {
  if (!rib_.table(protocol) || !enabled(protocol)) return NotFound("no origin table " + protocol);
  auto it = entries_.find(protocol);
  if (it != entries_.end()) {
    it->second.restarting = false;
    it->second.restart_timer.reset();
    it->second.resent = true;
  }
  ++sweeps_;
  return rib_.sweep_stale(protocol);
}

bool ProtocolOwners::all_resent(const std::string& owner) const {
  bool any = false;
  for (const auto& [protocol, e] : entries_) {
    if (e.owner != owner || !e.enabled) continue;
    if (!e.resent) return false;
    any = true;
  }
  return any;
}

}  // namespace strata::rib
