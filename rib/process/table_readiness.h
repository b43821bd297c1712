// TableReadiness: the RIB's half of the restart protocol (docs/restart.md): when its table is
// complete after a start, and whether the FEA must keep the routes it holds until then.
//
// A RIB starts empty. Its table is complete once
//   - the rtrmgr said its configuration was replayed (config_complete, only when the process was
//     told to await it): the static routes are in;
//   - the connected routes agree with the FEA's list of the VR's interfaces;
//   - every owner the rtrmgr named (e.g. "bgp.red") said graceful_restart_done, which an owner
//     sends once it has (re-)sent its whole table (strata-bgp: after its peers' End-of-RIB or its
//     selection deferral when it restarts, after its resend when only the RIB restarted);
// or when the deadline passes: `recovery_time` after the start, pushed back when an expected
// owner registers with a selection deferral (it restarts and defers that long), by at most
// `max_extension` from then. Complete is final for the life of the process.
// Recovering: the FEA reported routes it holds for the VR (left by an earlier RIB, or adopted
// from the kernel) while the table is not complete. The FEA's output is then held: the FEA keeps
// forwarding with what it has, and gets the complete table in one resync, so only what is really
// gone is removed. A RIB that finds the FEA empty (a first start) sends routes as they come.
// Answers to the table's owners wait too, so that no owner acts on a partial table: a RIB
// started by the rtrmgr (await_config) cannot say whether it recovers before the FEA answered
// (get_restart_state waits), and while recovering its IGP side (configuration and connected
// routes) is incomplete until both are in: interest registrations (next-hop resolution) wait,
// so that strata-bgp never sees its next hops unreachable only because the connected routes
// were not back yet.
// Pure logic on caller-supplied time: the process feeds it events and the time of each, and
// arms a timer for deadline(). Thread-compatible.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace strata::rib {

class TableReadiness {
 public:
  using Clock = std::chrono::steady_clock;
  using TimePoint = Clock::time_point;

  struct Options {
    bool await_config = false;  // false: the configuration counts as complete from the start
    std::chrono::milliseconds recovery_time{420000};
    std::chrono::milliseconds max_extension{3600000};
  };

  TableReadiness(Options options, TimePoint start);

  // The rtrmgr replayed the configuration; `owners` will re-send their tables.
  void ConfigComplete(const std::vector<std::string>& owners, TimePoint now);
  // The connected routes were reconciled with the FEA's interface list.
  void ConnectedSynced(TimePoint now);
  // `owner` has sent its whole table (graceful_restart_done for every table it registered).
  void OwnerDone(const std::string& owner, TimePoint now);
  // `owner` registered while restarting and defers its selection up to `deferral`.
  void OwnerDefers(const std::string& owner, std::chrono::milliseconds deferral, TimePoint now);
  // The FEA answered add_vr: whether it holds routes for the VR.
  void FeaAnswered(bool holds_routes, TimePoint now);
  // Ends the wait if the deadline has passed.
  void Tick(TimePoint now);

  bool complete() const { return complete_; }
  // Whether the FEA has answered add_vr once (recovering() means something only then).
  bool fea_answered() const { return fea_answered_; }
  bool recovering() const { return fea_holds_ && !complete_; }
  // Whether recovering() is not known yet (started by the rtrmgr, the FEA has not answered).
  bool recovery_unknown() const { return options_.await_config && !fea_answered_; }
  // The configuration and the connected routes are in (the owners may not be).
  bool igp_ready() const { return complete_ || (config_ && connected_); }
  // Whether next-hop answers should wait (see above).
  bool hold_answers() const { return recovery_unknown() || (recovering() && !igp_ready()); }
  TimePoint deadline() const { return deadline_; }
  // What the table still waits for: "configuration", "connected routes", "owner bgp.red".
  std::vector<std::string> awaiting() const;
  // How the table became complete ("" while not): "every owner re-sent its routes", or
  // "the recovery deadline passed (awaiting: ...)".
  const std::string& completed_how() const { return completed_how_; }

  // Runs once, when complete() becomes true.
  void set_on_complete(std::function<void()> cb) { on_complete_ = std::move(cb); }
  // Runs after every input (the owner re-checks what waits on hold_answers()).
  void set_on_change(std::function<void()> cb) { on_change_ = std::move(cb); }

 private:
  void Check(TimePoint now);
  void Complete(std::string how);

  Options options_;
  TimePoint deadline_;
  bool config_ = false;
  bool connected_ = false;
  std::set<std::string> owners_waited_;  // expected owners that have not said done
  std::set<std::string> owners_done_;    // done before config_complete named them
  bool fea_answered_ = false;
  bool fea_holds_ = false;
  bool complete_ = false;
  std::string completed_how_;
  std::function<void()> on_complete_;
  std::function<void()> on_change_;
};

}  // namespace strata::rib
