// LivenessTracker: which supervised processes to ping now, and which failed to answer in time.
//
// The rtrmgr pings every registered process over IPC (common/1.0/get_status, answered on the
// process's event loop) every `interval`, like FRR's watchfrr: a process that exists but whose
// loop does not turn (SIGSTOPped, spinning, deadlocked) answers nothing. A ping unanswered for
// `timeout` makes the process hung; the rtrmgr kills it and the supervisor restarts it. An error
// answer (the process died, or is not registered) is not a hang: the supervisor or the Finder
// reports those. A call to a process whose address is not cached waits for the Finder first, so
// a process is only reported hung if the Finder answered a ping of its own since that process's
// ping went (or the Finder is not watched): while the Finder is hung only the Finder is.
// One ping per process is outstanding at most. Pure logic on caller-supplied time.
// Thread-compatible.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace strata::rtrmgr {

class LivenessTracker {
 public:
  using Clock = std::chrono::steady_clock;
  using TimePoint = Clock::time_point;

  struct Options {
    std::chrono::milliseconds interval{5000};
    std::chrono::milliseconds timeout{30000};
  };
  // The instance whose hang makes the others' unanswered pings inconclusive.
  static constexpr const char* kFinder = "finder";

  explicit LivenessTracker(Options options) : options_(options) {}

  // Starts pinging `instance` (registered), first at now + interval. Again: no change.
  void Watch(const std::string& instance, TimePoint now);
  // Stops (the process died, is stopping, or was reported hung).
  void Unwatch(const std::string& instance) { entries_.erase(instance); }
  bool watched(const std::string& instance) const { return entries_.contains(instance); }

  // The instances to ping now; each is marked as having a ping outstanding since `now`.
  std::vector<std::string> DuePings(TimePoint now);
  // The ping of `instance` got an answer (or an error): the next goes `interval` later.
  void Answered(const std::string& instance, TimePoint now);
  // Instances whose ping has been unanswered for `timeout`; they are no longer watched.
  std::vector<std::string> Hung(TimePoint now);
  // When Hung() or DuePings() may next have something (an overdue process waiting for the
  // Finder's answer is not counted: the Finder's own ping decides when).
  std::optional<TimePoint> NextDeadline(TimePoint now) const;

  const Options& options() const { return options_; }

 private:
  struct Entry {
    TimePoint next_ping;
    std::optional<TimePoint> outstanding_since;
  };
  // A process's missing answer counts (see the contract above).
  bool Proven(const std::string& instance, const Entry& e, bool finder_watched) const;
  bool OverDue(const Entry& e, TimePoint now) const {
    return e.outstanding_since && now - *e.outstanding_since >= options_.timeout;
  }

  Options options_;
  std::map<std::string, Entry> entries_;
  std::optional<TimePoint> finder_answered_;
};

}  // namespace strata::rtrmgr
