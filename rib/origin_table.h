// OriginTable: the stage where one protocol's routes enter the RIB and the only place they are
// stored (XORP paper 5.2).
//
// One table per protocol (connected, static, ebgp, ibgp, and any registered at run time). The
// table stamps each route with its protocol, kind (IGP/EGP) and admin distance, and sends changes
// downstream: add, replace (delete of the old route then add of the new) and delete.
// Long jobs run as background tasks in slices so other calls keep being answered:
//  - delete_all_routes(): the store moves into a DeletionStage plumbed below this table;
//  - set_admin_distance(): routes are re-stamped in place, walking the store with a safe iterator
//    (each re-stamped route is a delete + add downstream, so merges re-decide; until a route is
//    reached it keeps, and looks up with, its old distance);
//  - graceful restart: mark_stale() makes every current route stale in O(1); routes announced
//    again become fresh; sweep_stale() withdraws the rest in slices.
// Protocol-facing calls take untrusted input and return Status. Threading: single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>

#include "common/status.h"
#include "common/task_scheduler.h"
#include "rib/deletion_stage.h"
#include "rib/route_stage.h"
#include "rib/route_store.h"

namespace strata::rib {

class OriginTable : public RouteStage {
 public:
  OriginTable(std::string protocol, ProtocolKind kind, uint32_t admin_distance,
              TaskScheduler& scheduler, size_t slice_routes = 1000);
  ~OriginTable() override;

  const std::string& protocol() const { return protocol_.str(); }
  ProtocolKind kind() const { return kind_; }
  uint32_t admin_distance() const { return admin_distance_; }
  // Routes stored here (not counting those handed to deletion stages).
  size_t size() const { return store_.size(); }
  // True while a deletion, re-stamp or sweep is still running in the background.
  bool busy() const;

  // A new route; AlreadyExists if the prefix holds a fresh route (a stale one is replaced).
  // The table sets protocol, kind and admin_distance (not a route's own_distance); resolution
  // fields are cleared.
  Status add(RibRoute route);
  // Replaces the route for route.prefix; NotFound if there is none.
  Status replace(RibRoute route);
  // NotFound if the prefix holds no route.
  Status remove(const IpPrefix& prefix);
  // The stored route for exactly this prefix, or null.
  RouteRef find(const IpPrefix& prefix) const { return RouteOf(store_.find(prefix)); }
  // True if the route for prefix was marked stale and not announced since.
  bool is_stale(const IpPrefix& prefix) const;
  // Visits the stored routes in prefix order (covering prefixes first), from the first at or
  // after `from` (nullopt: the start), until fn returns false. REQUIRES: fn does not change the
  // table.
  void for_each(const std::optional<IpPrefix>& from,
                const std::function<bool(const RouteRef&, bool stale)>& fn) const;

  // Withdraws every route in the background; the table is empty (and usable) at once.
  void delete_all_routes();
  // New routes get the new distance at once; stored ones are re-stamped in the background.
  void set_admin_distance(uint32_t admin_distance);
  // Graceful restart: all current routes become stale until announced again.
  void mark_stale();
  // Withdraws, in the background, the routes still stale. Returns how many are stale now.
  size_t sweep_stale();
  size_t stale_count() const { return stale_; }

  // RouteStage. An origin table has no parent; add_route/delete_route called on it are treated as
  // the protocol's add-or-replace and remove (errors are counted in rejected()).
  std::string name() const override { return "origin:" + protocol_.str(); }
  void add_route(const RouteRef& route, RouteStage* caller) override;
  void delete_route(const RouteRef& route, RouteStage* caller) override;
  RouteRef lookup_route(const IpPrefix& prefix) const override { return find(prefix); }
  RouteRef lookup_best(const IpAddr& addr) const override;
  RouteRange lookup_range(const IpAddr& addr) const override;
  RouteRef lookup_next(const std::optional<IpPrefix>& after) const override {
    return RouteOf(store_.next_after(after).value);
  }
  void replace_parent(RouteStage* old_parent, RouteStage* new_parent) override;

  uint64_t rejected() const { return rejected_; }
  size_t deletion_stages() const { return deletions_.size(); }

 private:
  RouteRef stamp(RibRoute route) const;
  void store_and_send(RouteRef route);
  bool restamp_slice();
  bool sweep_slice();
  void unplumb(DeletionStage* stage);

  Symbol protocol_;  // stamped on every route: a pointer copy
  ProtocolKind kind_;
  uint32_t admin_distance_;
  TaskScheduler& scheduler_;
  size_t slice_routes_;
  uint32_t generation_ = 0;
  uint32_t sweep_generation_ = 0;
  uint64_t rejected_ = 0;
  size_t stale_ = 0;

  RouteStore store_;
  // Iterators are declared after the store so they are released before it goes.
  RouteStore::Iterator restamp_cursor_;
  RouteStore::Iterator sweep_cursor_;
  std::list<std::unique_ptr<DeletionStage>> deletions_;
  // Tasks last: cancelled first on destruction.
  TaskHandle restamp_task_;
  TaskHandle sweep_task_;
};

}  // namespace strata::rib
