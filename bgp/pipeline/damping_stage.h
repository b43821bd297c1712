// DampingStage: route flap damping (RFC 2439) for one eBGP peer's branch (XORP paper 8.3: damping
// as a stage of its own, not code spread over the others).
//
// Plumbed below the peer's input filter when damping is on, so only routes the import policy
// accepts are charged. Per prefix it keeps a figure of merit (DampingParams): a withdrawal adds
// withdraw_penalty and counts a flap, a replace by other attributes adds
// attribute_change_penalty; a plain re-announcement is free. At `suppress` the prefix is
// suppressed: its route is not passed on (one already passed is deleted downstream) and lookups
// answer null. Once the penalty decays below `reuse` the current route, if any, is re-announced
// (looked up in the parent: the stage stores no routes). History of a prefix that is not
// suppressed is freed once its penalty decays below reuse / 2.
// Only messages for routes of the peer's current session are charged (set_session): the deletes
// of a dead session's routes and policy re-filtering (set_charging(false)) are not flaps.
// Time: one PipelineTimer for the earliest pending event (a reuse, or freeing history) over a
// queue ordered by due time; due events are handled in TaskScheduler slices, so a table coming
// out of suppression at once does not stall the process. Until its slice runs, a route stays
// suppressed (lookups keep agreeing with what was sent).
// Consistency (bgp_stage.h): a prefix is passed downstream iff the parent holds a route for it
// and it is not suppressed; each transition sends the matching add or delete.
// Threading: single-threaded.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/damping_params.h"
#include "bgp/pipeline/pipeline_clock.h"
#include "common/task_scheduler.h"

namespace strata::bgp {

class DampingStage : public PassThroughStage {
 public:
  using TimePoint = PipelineClock::TimePoint;

  // One prefix's history, as shown to operators.
  struct Entry {
    IpPrefix prefix;
    double penalty = 0;  // now
    bool suppressed = false;
    bool withdrawn = false;                          // the peer has no route for it now
    std::chrono::steady_clock::duration reuse_in{};  // suppressed: until reuse
    uint32_t flaps = 0;
  };

  // REQUIRES: ValidateDampingParams(params) ok; clock and scheduler outlive the stage;
  // slice_events > 0.
  DampingStage(PeerId peer, DampingParams params, BgpStage* parent, PipelineClock& clock,
               TaskScheduler& scheduler, size_t slice_events = 1000);
  ~DampingStage() override;

  std::string name() const override { return "damping:" + std::to_string(peer_); }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;
  BgpRouteRef lookup_route(const IpPrefix& prefix) const override;

  // The peer's current session (null while down): only its routes' messages are charged.
  void set_session(PeerRef session) { session_ = std::move(session); }
  // Off while the pipeline re-filters the peer's routes for a new import policy.
  void set_charging(bool on) { charging_ = on; }

  // Forgets the history of `prefix` (nullopt: every prefix), re-announcing a suppressed
  // route at once, like `clear ip bgp dampening`. Returns the number of histories dropped.
  size_t Clear(const std::optional<IpPrefix>& prefix);

  const DampingParams& params() const { return params_; }
  std::vector<Entry> Entries() const;
  size_t suppressed() const { return suppressed_; }
  // Whether the route for `prefix` is suppressed now.
  bool suppressed(const IpPrefix& prefix) const {
    auto it = history_.find(prefix);
    return it != history_.end() && it->second.suppressed;
  }
  size_t histories() const { return history_.size(); }

 private:
  struct History {
    double penalty = 0;  // at `updated`
    TimePoint updated{};
    uint32_t flaps = 0;
    bool suppressed = false;
    bool present = false;          // the parent holds a route for the prefix
    std::optional<TimePoint> due;  // its key in queue_
  };
  using HistoryMap = std::map<IpPrefix, History>;

  bool chargeable(const BgpRouteRef& route) const;
  // Adds `amount` to the decayed penalty (capped), suppressing at the threshold.
  History& charge(const IpPrefix& prefix, uint32_t amount, TimePoint now);
  double penalty_at(const History& h, TimePoint now) const;
  void set_suppressed(History& h, bool on);
  // Queues the next event of `it` (reuse if suppressed, else freeing) and arms the timer.
  void reschedule(HistoryMap::iterator it);
  void unqueue(HistoryMap::iterator it);
  void arm_timer();
  void on_timer();
  bool run_slice();

  PeerId peer_;
  DampingParams params_;
  double ceiling_;
  PipelineClock& clock_;
  TaskScheduler& scheduler_;
  size_t slice_events_;
  PeerRef session_;
  bool charging_ = true;
  HistoryMap history_;
  std::set<std::pair<TimePoint, IpPrefix>> queue_;
  size_t suppressed_ = 0;
  std::unique_ptr<PipelineTimer> timer_;
  TaskHandle task_;
};

}  // namespace strata::bgp
