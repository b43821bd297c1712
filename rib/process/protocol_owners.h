// ProtocolOwners: which process owns each origin table, and what happens when it dies.
//
// A protocol registers its table with an owner target (e.g. "bgp.red"). When the owner dies its
// routes are withdrawn (Rib::delete_all_routes), unless it registered with graceful restart:
// then they are marked stale and kept, and swept when the restarted protocol says it is done or
// when the restart timer ends, whichever comes first. The timer is the owner's own restart time
// when it gave one at set(), else the RIB's default (--restart-timeout). The returning owner
// controls the end (RFC 4724 4.1): when it registers again during the restart and says how long
// it defers its route selection, the timer is replaced by one of that deferral plus its restart
// time (the time to re-announce), bounded by max_deferral, so a long deferral does not see its
// stale routes swept (and the kernel lose them) mid-restart; restart_done ends it. A deleted
// built-in table (connected, static, ebgp, ibgp) is disabled: it keeps its (empty) stage, refuses
// routes, and comes back when registered again; other deleted tables are removed from the RIB and
// forgotten here. Lifetime events come from the Router's instance watches; `watch` is called once
// per owner name. Counters for `show`. Threading: the io_context thread.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "common/asio.h"
#include "common/log.h"
#include "common/status.h"
#include "rib/rib.h"

namespace strata::rib {

class ProtocolOwners {
 public:
  struct Entry {
    std::string owner;  // "" when none (e.g. connected, or a table added by hand)
    bool graceful_restart = false;
    std::chrono::milliseconds restart_time{0};  // 0: the RIB's default
    bool enabled = true;
    bool restarting = false;  // owner died with graceful restart; sweep pending
    std::unique_ptr<boost::asio::steady_timer> restart_timer;
    uint64_t deferrals = 0;  // restart timers replaced by a returning owner's deferral
    // The owner said restart_done since it registered: it has sent its whole table.
    bool resent = false;
  };
  using WatchFn = std::function<void(const std::string& owner)>;

  // REQUIRES: io and rib outlive this object. `changed` runs after a timer changed routes.
  // `max_deferral` bounds the timer a returning owner's deferral sets (see set()).
  ProtocolOwners(boost::asio::io_context& io, Rib& rib, std::chrono::milliseconds restart_timeout,
                 WatchFn watch, std::function<void()> changed,
                 std::chrono::milliseconds max_deferral = std::chrono::hours(1));
  ProtocolOwners(const ProtocolOwners&) = delete;
  ProtocolOwners& operator=(const ProtocolOwners&) = delete;

  // Records (or updates) the owner of an existing table and enables it. `restart_time` (0: the
  // default given at construction) is how long its routes stay stale after the owner dies.
  // `selection_deferral` (0: none): the owner came back during its restart and defers its route
  // selection that long; the restart timer is restarted with min(selection_deferral +
  // restart_time, max_deferral). Ignored when no restart of the table is in progress.
  void set(const std::string& protocol, const std::string& owner, bool graceful_restart,
           std::chrono::milliseconds restart_time = std::chrono::milliseconds(0),
           std::chrono::milliseconds selection_deferral = std::chrono::milliseconds(0));
  // The time the protocol's routes stay stale after its owner dies.
  std::chrono::milliseconds restart_time(const Entry& e) const {
    return e.restart_time.count() > 0 ? e.restart_time : restart_timeout_;
  }
  // Withdraws the table's routes and refuses new ones until set() again.
  Status disable(const std::string& protocol);
  // The table was removed from the RIB: forgets its owner (and any restart in progress).
  void forget(const std::string& protocol) { entries_.erase(protocol); }
  // True unless the protocol's table was deleted (tables never registered here count as
  // enabled: connected, static, ebgp and ibgp exist from the start).
  bool enabled(const std::string& protocol) const;
  const Entry* find(const std::string& protocol) const;

  // A birth or death of an owner instance.
  void owner_event(const std::string& owner, bool alive);
  // The restarted protocol re-announced everything: sweep what it did not.
  StatusOr<size_t> restart_done(const std::string& protocol);
  // True when every table `owner` registered has had restart_done since its registration (the
  // owner has sent its whole table; docs/restart.md).
  bool all_resent(const std::string& owner) const;

  // While restarting: the time left until the restart timer sweeps.
  std::chrono::milliseconds restart_remaining(const Entry& e) const;

  uint64_t withdrawals() const { return withdrawals_; }
  uint64_t sweeps() const { return sweeps_; }

 private:
  void restart_timer_fired(const std::string& protocol);
  void start_restart_timer(const std::string& protocol, Entry& e, std::chrono::milliseconds after);

  boost::asio::io_context& io_;
  Rib& rib_;
  std::chrono::milliseconds restart_timeout_;
  std::chrono::milliseconds max_deferral_;
  WatchFn watch_;
  std::function<void()> changed_;
  std::shared_ptr<spdlog::logger> log_;
  std::map<std::string, Entry> entries_;
  std::set<std::string> watched_;
  uint64_t withdrawals_ = 0;
  uint64_t sweeps_ = 0;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::rib
