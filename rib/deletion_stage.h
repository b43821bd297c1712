// DeletionStage: a dynamic stage that withdraws a whole table's routes in the background.
//
// Why (XORP paper 5.1.2): when a protocol goes away, its origin table may hold a million routes;
// withdrawing them in one event would stall the RIB. The origin table instead hands its whole
// RouteStore to a new DeletionStage plumbed directly below it and carries on with an empty store,
// so the protocol can come back at once. The stage then sends delete_route for its routes a slice
// at a time (one TaskScheduler task) and, when empty, calls on_done so the owner unplumbs and
// destroys it. Consistency: if the origin sends add_route for a prefix the stage still holds, the
// stage first sends delete_route for its old route; lookups answer from the held routes until
// each is deleted. Several deletion stages may be stacked (the protocol flapped); a prefix is held
// by at most one of them. Threading: single-threaded.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "common/task_scheduler.h"
#include "rib/route_stage.h"
#include "rib/route_store.h"

namespace strata::rib {

class DeletionStage : public RouteStage {
 public:
  using DoneFn = std::function<void(DeletionStage*)>;

  // Starts deleting at once (in the scheduler's slices). REQUIRES: slice_routes > 0.
  DeletionStage(std::string protocol, RouteStore routes, RouteStage* parent,
                TaskScheduler& scheduler, size_t slice_routes, DoneFn on_done);

  std::string name() const override { return "deletion:" + protocol_; }
  void add_route(const RouteRef& route, RouteStage* caller) override;
  void delete_route(const RouteRef& route, RouteStage* caller) override;
  RouteRef lookup_route(const IpPrefix& prefix) const override;
  RouteRef lookup_best(const IpAddr& addr) const override;
  RouteRange lookup_range(const IpAddr& addr) const override;
  RouteRef lookup_next(const std::optional<IpPrefix>& after) const override;
  void replace_parent(RouteStage* old_parent, RouteStage* new_parent) override;

  RouteStage* parent() const { return parent_; }
  // Routes still waiting to be withdrawn.
  size_t remaining() const { return routes_.size(); }

 private:
  bool run_slice();

  std::string protocol_;
  RouteStore routes_;
  RouteStore::Iterator cursor_;  // declared after routes_: released before the trie goes
  RouteStage* parent_;
  size_t slice_routes_;
  TaskHandle task_;
};

}  // namespace strata::rib
