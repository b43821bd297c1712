#include "rib/merge_stage.h"

#include <cassert>

namespace strata::rib {

RouteStage* MergeStage::other(RouteStage* caller) const {
  assert(caller == a_ || caller == b_);
  return caller == a_ ? b_ : a_;
}

const RouteRef& MergeStage::pick(RouteStage* caller, const RouteRef& mine,
                                 const RouteRef& rival) const {
  // As lookup_route: parent a's route wins a full tie (possible when a removed table is still
  // withdrawing while its protocol registered a new table under the same name).
  return caller == a_ ? PickBetter(mine, rival) : PickBetter(rival, mine);
}

void MergeStage::add_route(const RouteRef& route, RouteStage* caller) {
  // Rule 1 upstream: the caller held nothing for this prefix, so the old winner is the other's.
  RouteRef rival = other(caller)->lookup_route(route->prefix);
  send_change(rival, pick(caller, route, rival));
}

void MergeStage::delete_route(const RouteRef& route, RouteStage* caller) {
  RouteRef rival = other(caller)->lookup_route(route->prefix);
  send_change(pick(caller, route, rival), rival);
}

RouteRef MergeStage::lookup_route(const IpPrefix& prefix) const {
  return PickBetter(a_->lookup_route(prefix), b_->lookup_route(prefix));
}

RouteRef MergeStage::lookup_best(const IpAddr& addr) const {
  return CombineBest(a_->lookup_best(addr), b_->lookup_best(addr));
}

RouteRef MergeStage::lookup_next(const std::optional<IpPrefix>& after) const {
  return CombineNext(a_->lookup_next(after), b_->lookup_next(after));
}

RouteRange MergeStage::lookup_range(const IpAddr& addr) const {
  return CombineRanges(a_->lookup_range(addr), b_->lookup_range(addr));
}

void MergeStage::replace_parent(RouteStage* old_parent, RouteStage* new_parent) {
  if (a_ == old_parent) a_ = new_parent;
  if (b_ == old_parent) b_ = new_parent;
}

}  // namespace strata::rib
