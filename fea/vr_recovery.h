// VrRecovery: the FEA's half of the restart protocol (docs/restart.md): whether its
// configuration is complete, and for each VR how long the routes it holds stay stale.
//
// Configuration: with `await_config` > 0 (the rtrmgr starts the FEA so) the FEA's VRs are not
// ready until config_complete (the rtrmgr's replay or boot commit bound their interfaces) or
// that time after the start, whichever comes first; a RIB waits for it before it sends routes.
// Stale windows, one per VR at most: routes the FEA holds but nobody has confirmed. A window is
// opened when the FEA adopts a VR's routes from the kernel at add_vr (deadline `grace`), or by a
// RIB's begin_resync (deadline `hold`, or none with a hold of 0: then only end_resync closes it);
// a later begin_resync replaces the deadline (the RIB took over). end_resync closes it (the FEA
// then removes what was not re-sent), and so does the deadline passing: Expire() returns the VRs
// whose stale routes are to go now.
// Pure logic on caller-supplied time; FeaService arms one timer for NextDeadline().
// Thread-compatible.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace strata::fea {

class VrRecovery {
 public:
  using Clock = std::chrono::steady_clock;
  using TimePoint = Clock::time_point;

  struct Options {
    std::chrono::milliseconds grace{60000};     // adopted routes wait this long for a RIB
    std::chrono::milliseconds await_config{0};  // 0: the configuration is complete at start
  };

  VrRecovery(Options options, TimePoint start);

  bool config_complete() const { return config_complete_; }
  // The rtrmgr's configuration is in. False if it already was.
  bool ConfigComplete();

  // The FEA adopted `routes` routes of `vr` from the kernel: a window with the grace deadline.
  void Adopted(const std::string& vr, size_t routes, TimePoint now);
  // A RIB began a resync of `vr`, keeping what it does not re-send at most `hold` (0: until
  // EndResync).
  void BeginResync(const std::string& vr, std::chrono::milliseconds hold, TimePoint now);
  // The window of `vr` closed (end_resync, or the VR went).
  void Close(const std::string& vr) { windows_.erase(vr); }

  bool stale(const std::string& vr) const { return windows_.contains(vr); }
  // The deadline of `vr`'s window (nullopt: no window, or one without a deadline).
  std::optional<TimePoint> deadline(const std::string& vr) const;

  struct Due {
    std::vector<std::string> vrs;   // windows whose deadline passed: closed, stale routes go
    bool config_timed_out = false;  // the configuration wait ended without config_complete
  };
  Due Expire(TimePoint now);
  std::optional<TimePoint> NextDeadline() const;

 private:
  Options options_;
  bool config_complete_;
  TimePoint config_deadline_;
  std::map<std::string, std::optional<TimePoint>> windows_;
};

}  // namespace strata::fea
