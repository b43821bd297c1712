// DeletionStage: a dynamic stage that withdraws a dead session's routes in the background.
//
// Why (XORP paper 5.1.2): a peer may have sent a million routes; withdrawing them in one event
// would stall every other peer. When a peering goes down, its PeerIn hands its whole table to a
// new DeletionStage plumbed directly below it and starts empty, so the peer may come back at
// once. The stage sends delete_route for its routes a slice at a time (one TaskScheduler task,
// a safe iterator keeping its place) and, when empty, calls on_done so the owner unplumbs and
// destroys it.
// Consistency: if an add_route (or replace) arrives from above for a prefix the stage still holds,
// it first sends delete_route for its old route, then the add; lookups answer from the held
// routes until each is deleted. If the peer flaps again, a newer DeletionStage is plumbed above
// this one; since each add flushes a held route, a prefix is held by at most one of them, and
// none knows about the others.
// Fairness: with a throttle set (the pipeline's: "the fanout's active readers are behind"), a
// slice that finds it true withdraws nothing, so the deletes are produced only as fast as the
// output branches take them and a new change of another peer never queues behind a whole table.
// It sits directly below PeerIn (above the input filters) because it holds PeerIn's unfiltered
// table: its deletes are filtered exactly as the adds were. Threading: single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/peer_in.h"
#include "common/task_scheduler.h"

namespace strata::bgp {

class DeletionStage : public BgpStage {
 public:
  using DoneFn = std::function<void(DeletionStage*)>;

  // Starts at once (in the scheduler's slices). on_done may destroy the stage.
  // REQUIRES: slice_routes > 0.
  DeletionStage(std::string label, RouteTable routes, BgpStage* parent, TaskScheduler& scheduler,
                size_t slice_routes, DoneFn on_done);

  std::string name() const override { return "deletion:" + label_; }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;
  BgpRouteRef lookup_route(const IpPrefix& prefix) const override;
  void replace_parent(BgpStage* old_parent, BgpStage* new_parent) override;

  // While throttle() returns true, slices do no work (they stay scheduled). Null: never held.
  // REQUIRES: whatever makes it true makes progress by itself (it must not wait for this stage).
  void set_throttle(std::function<bool()> throttle) { throttle_ = std::move(throttle); }

  BgpStage* parent() const { return parent_; }
  // Routes still waiting to be withdrawn.
  size_t remaining() const { return routes_.size(); }
  // Slices that withdrew nothing because of the throttle.
  uint64_t held_slices() const { return held_slices_; }
  // The first held prefix after `after` (the first for nullopt), or nullopt: for re-filtering
  // after a policy change.
  std::optional<IpPrefix> next_prefix(const std::optional<IpPrefix>& after) const;

 private:
  bool run_slice();

  std::string label_;
  RouteTable routes_;
  RouteTable::Iterator cursor_;  // declared after routes_: released before the trie goes
  BgpStage* parent_;
  size_t slice_routes_;
  std::function<bool()> throttle_;
  uint64_t held_slices_ = 0;
  TaskHandle task_;
};

}  // namespace strata::bgp
