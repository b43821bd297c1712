#include "rib/deletion_stage.h"

#include <cassert>
#include <utility>

namespace strata::rib {

DeletionStage::DeletionStage(std::string protocol, RouteStore routes, RouteStage* parent,
                             TaskScheduler& scheduler, size_t slice_routes, DoneFn on_done)
    : protocol_(std::move(protocol)),
      routes_(std::move(routes)),
      parent_(parent),
      slice_routes_(slice_routes) {
  assert(slice_routes_ > 0);
  cursor_ = routes_.begin();
  // The task is owned by task_, a member: it cannot run after this stage is destroyed.
  task_ = scheduler.add(
      name(), [this] { return run_slice(); },
      [this, done = std::move(on_done)] {
        if (done) done(this);
      });
}

bool DeletionStage::run_slice() {
  size_t n = 0;
  while (!cursor_.at_end() && n < slice_routes_) {
    if (cursor_.has_value()) {
      RouteRef r = cursor_.value().route;
      routes_.erase(cursor_.key());  // the cursor keeps the emptied node until it moves on
      send_delete(r);
      ++n;
    }
    ++cursor_;
  }
  if (routes_.empty()) {
    cursor_ = RouteStore::Iterator();
    return false;
  }
  return true;
}

void DeletionStage::add_route(const RouteRef& route, RouteStage* /*caller*/) {
  if (const StoredRoute* held = routes_.find(route->prefix)) {
    RouteRef old = held->route;
    routes_.erase(route->prefix);
    send_delete(old);
  }
  send_add(route);
}

void DeletionStage::delete_route(const RouteRef& route, RouteStage* /*caller*/) {
  // The parent only deletes routes it added after this stage was plumbed in, and any such add
  // already flushed a held route for the prefix.
  send_delete(route);
}

RouteRef DeletionStage::lookup_route(const IpPrefix& prefix) const {
  if (const StoredRoute* held = routes_.find(prefix)) return held->route;
  return parent_->lookup_route(prefix);
}

RouteRef DeletionStage::lookup_best(const IpAddr& addr) const {
  return CombineBest(parent_->lookup_best(addr), RouteOf(routes_.longest_match(addr).value));
}

RouteRef DeletionStage::lookup_next(const std::optional<IpPrefix>& after) const {
  // As lookup_route: a held route hides the parent's for its prefix.
  RouteRef held = RouteOf(routes_.next_after(after).value);
  RouteRef fresh = parent_->lookup_next(after);
  if (!held) return fresh;
  if (!fresh || held->prefix <= fresh->prefix) return held;
  return fresh;
}

RouteRange DeletionStage::lookup_range(const IpAddr& addr) const {
  return CombineRanges(parent_->lookup_range(addr), ToRouteRange(routes_.range(addr)));
}

void DeletionStage::replace_parent(RouteStage* old_parent, RouteStage* new_parent) {
  if (parent_ == old_parent) parent_ = new_parent;
}

}  // namespace strata::rib
