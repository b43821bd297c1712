// PolicyRefilter: which policy applies to each prefix while a policy change is re-evaluated in
// the background, and the sliced walk that does it. A filter stage owns one.
//
// Why: re-running a new import or export policy over a full table (a million routes) in one event
// would stall every session and IPC call for seconds. Instead Change() records the new policy and
// a walk visits the parent's prefixes in order, a slice at a time (TaskScheduler, like the
// deletion stage), calling visit(prefix, before, after) so the stage sends only the difference.
// Which policy a prefix's route was filtered with (what the filter's deletes and lookups must
// re-apply): the newest policy once the walk has passed the prefix or a message for it arrived
// during the walk (Touch: routes arriving meanwhile use the new policy at once, and the walk skips
// them); otherwise the one before. A change during a walk pushes a layer and restarts the walk
// from the beginning: each layer remembers its cursor and touched prefixes, so every prefix still
// knows which of the policies its route went through; when a walk ends every prefix is on the
// newest policy and the layers collapse into one. Prefixes the walk visits come from next(after):
// the first prefix after `after` the parent may hold a route for (read live, so a cursor that is
// just a prefix stays valid whatever is added or deleted meanwhile).
// Without a scheduler, Change() walks to the end at once (synchronously).
// Threading: single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/route_policy.h"
#include "common/ip_prefix.h"
#include "common/task_scheduler.h"

namespace strata::bgp {

class PolicyRefilter {
 public:
  // The first prefix after `after` (the first of all for nullopt) the parent may hold, or nullopt.
  using NextFn = PrefixWalk;
  // Re-filters one prefix: its route went through `before`, now goes through `after`.
  using VisitFn =
      std::function<void(const IpPrefix&, const RoutePolicy& before, const RoutePolicy& after)>;
  struct Background {
    TaskScheduler* scheduler = nullptr;  // null: walks run synchronously
    size_t slice = 200;                  // prefixes visited per slice; REQUIRES: > 0
    std::function<bool()> throttle;      // while true, slices do nothing (stay scheduled)
    std::function<bool()> paused;        // when true, the walk's task ends until Resume()
    std::function<void()> before_slice;  // around each slice's visits (may be null)
    std::function<void()> after_slice;
    std::string name = "refilter";
  };
  struct Stats {
    uint64_t changes = 0;   // Change() calls
    uint64_t restarts = 0;  // changes that restarted a running walk
    uint64_t slices = 0;    // slices that visited prefixes
    uint64_t visited = 0;   // prefixes visited by walks
    uint64_t skipped = 0;   // prefixes the walk skipped: touched meanwhile
  };

  PolicyRefilter(RoutePolicy policy, VisitFn visit);
  PolicyRefilter(const PolicyRefilter&) = delete;
  PolicyRefilter& operator=(const PolicyRefilter&) = delete;

  void set_background(Background background) { background_ = std::move(background); }

  // The newest policy: what new messages are filtered with.
  const RoutePolicy& current() const { return layers_.back().policy; }
  // The policy the route held for `prefix` went through.
  const RoutePolicy& For(const IpPrefix& prefix) const {
    return policy_for(prefix, layers_.size());
  }
  // A message for `prefix` has just been filtered with current(): the walk leaves it alone.
  void Touch(const IpPrefix& prefix);

  // Starts re-filtering every prefix next() yields from `before` to `policy` (see above).
  void Change(RoutePolicy policy, NextFn next);
  // Visits up to `budget` prefixes; returns true while the walk has more to do.
  bool Slice(size_t budget);
  // Restarts the background task of a walk that Background::paused stopped.
  void Resume();

  bool walking() const { return layers_.size() > 1; }
  size_t layers() const { return layers_.size(); }
  const Stats& stats() const { return stats_; }

 private:
  struct Layer {
    RoutePolicy policy;
    std::optional<IpPrefix> cursor;  // the walk to this policy has passed every prefix <= cursor
    std::set<IpPrefix> touched;      // after the cursor, already on this policy
  };
  bool covers(const Layer& l, const IpPrefix& p) const {
    return (l.cursor && p <= *l.cursor) || l.touched.contains(p);
  }
  // The policy of `prefix` looking only at layers [0, n).
  const RoutePolicy& policy_for(const IpPrefix& prefix, size_t n) const;
  bool run_slice();
  void finish();

  VisitFn visit_;
  NextFn next_;
  Background background_;
  std::vector<Layer> layers_;  // [0]: the settled policy; the last: the running walk's
  Stats stats_;
  TaskHandle task_;  // last: cancelled before the rest goes
};

}  // namespace strata::bgp
