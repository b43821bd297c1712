// RovRevalidator: after the VRP set changes, validates again the held routes the change can
// affect, in background slices, so that import policies matching `rpki` see the new states.
//
// Why only part of the table: a VRP at prefix P decides only routes whose prefix lies within P
// (RFC 6811: a VRP covers a route's prefix when it contains it), and an RTR update usually
// changes a few VRPs. Changed() records the prefixes of the VRPs added or removed; the walk takes
// them in order (a prefix inside one already pending is dropped: its range is walked anyway) and
// visits every prefix some branch holds within each, via next(after) (read live, as
// PolicyRefilter does: the cursor is a prefix, valid whatever is added or deleted meanwhile).
// visit(prefix) validates the routes held for it (PeerIn::Revalidate in every branch) and
// returns how many changed state; those go downstream as replaces, so the input filter
// re-applies the import policy and only differences reach decision and the peers.
// Routes arriving during a walk are validated at arrival against the current set, so the walk
// may pass them again harmlessly. A change during a walk adds its prefixes to the pending ones;
// a range already walked is walked again if it is named again.
// Slices do nothing while throttle() is true (a fanout reader is behind: the replaces enter the
// fanout only as fast as the peers take them, as for deletions). Without a scheduler, Changed()
// walks to the end at once.
// Threading: single-threaded (the pipeline's thread).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>

#include "bgp/pipeline/bgp_stage.h"
#include "common/ip_prefix.h"
#include "common/task_scheduler.h"

namespace strata::bgp {

class RovRevalidator {
 public:
  // Validates again the routes held for one prefix; returns how many changed state.
  using VisitFn = std::function<size_t(const IpPrefix&)>;
  struct Background {
    TaskScheduler* scheduler = nullptr;  // null: walks run synchronously
    size_t slice = 200;                  // prefixes visited per slice; REQUIRES: > 0
    std::function<bool()> throttle;      // while true, slices do nothing (stay scheduled)
    std::string name = "rov-revalidate";
  };
  struct Stats {
    uint64_t changes = 0;  // Changed() calls
    uint64_t ranges = 0;   // VRP prefixes walked
    uint64_t slices = 0;   // slices that visited prefixes
    uint64_t visited = 0;  // prefixes visited
    uint64_t changed = 0;  // routes whose state changed
    uint64_t held = 0;     // slices held by the throttle
  };

  RovRevalidator(PrefixWalk next, VisitFn visit, Background background);
  // Synchronous walks (tests).
  RovRevalidator(PrefixWalk next, VisitFn visit);
  RovRevalidator(const RovRevalidator&) = delete;
  RovRevalidator& operator=(const RovRevalidator&) = delete;

  // The VRPs at these prefixes were added or removed.
  void Changed(std::span<const IpPrefix> vrp_prefixes);
  // Every held route: validation was turned on or off.
  void ChangedAll();
  // Visits up to `budget` prefixes; returns true while there is more to do.
  bool Slice(size_t budget);

  bool walking() const { return range_.has_value() || !pending_.empty(); }
  // VRP prefixes still to walk (the current one included).
  size_t pending() const { return pending_.size() + (range_ ? 1 : 0); }
  const Stats& stats() const { return stats_; }

 private:
  void schedule();
  // Moves to the next pending range; false if none.
  bool next_range();

  PrefixWalk next_;
  VisitFn visit_;
  Background background_;
  std::set<IpPrefix> pending_;
  std::optional<IpPrefix> range_;   // the VRP prefix being walked
  std::optional<IpPrefix> cursor_;  // the last prefix visited in it (nullopt: range_ itself next)
  Stats stats_;
  TaskHandle task_;  // last: cancelled before the rest goes
};

}  // namespace strata::bgp
