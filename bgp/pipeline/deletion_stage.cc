#include "bgp/pipeline/deletion_stage.h"

#include <cassert>
#include <utility>

namespace strata::bgp {

DeletionStage::DeletionStage(std::string label, RouteTable routes, BgpStage* parent,
                             TaskScheduler& scheduler, size_t slice_routes, DoneFn on_done)
    : label_(std::move(label)),
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
  if (throttle_ && throttle_()) {
    ++held_slices_;
    return true;
  }
  size_t n = 0;
  while (!cursor_.at_end() && n < slice_routes_) {
    if (cursor_.has_value()) {
      BgpRouteRef r = cursor_.value();
      routes_.erase(cursor_.key());  // the cursor keeps the emptied node until it moves on
      send_delete(r);
      ++n;
    }
    ++cursor_;
  }
  if (routes_.empty()) {
    cursor_ = RouteTable::Iterator();
    return false;
  }
  return true;
}

void DeletionStage::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  if (const BgpRouteRef* held = routes_.find(route->prefix)) {
    BgpRouteRef old = *held;
    routes_.erase(route->prefix);
    send_delete(old);
  }
  send_add(route);
}

void DeletionStage::replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                                  BgpStage* /*caller*/) {
  // The parent only replaces routes it added after this stage was plumbed in, and that add
  // already flushed any held route for the prefix.
  assert(!routes_.find(new_route->prefix));
  send_replace(old_route, new_route);
}

void DeletionStage::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  send_delete(route);  // as for replace: never a held prefix
}

BgpRouteRef DeletionStage::lookup_route(const IpPrefix& prefix) const {
  if (const BgpRouteRef* held = routes_.find(prefix)) return *held;
  return parent_ ? parent_->lookup_route(prefix) : nullptr;
}

void DeletionStage::replace_parent(BgpStage* old_parent, BgpStage* new_parent) {
  if (parent_ == old_parent) parent_ = new_parent;
}

std::optional<IpPrefix> DeletionStage::next_prefix(const std::optional<IpPrefix>& after) const {
  const auto hit = routes_.next_after(after);
  if (!hit.value) return std::nullopt;
  return hit.prefix;
}

}  // namespace strata::bgp
