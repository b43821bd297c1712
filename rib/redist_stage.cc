#include "rib/redist_stage.h"

namespace strata::rib {

bool RedistFilter::Matches(const RibRoute& r) const {
  if (!protocols.empty() && !protocols.contains(r.protocol())) return false;
  if (within && !within->Contains(r.prefix)) return false;
  if (tag && r.tag() != *tag) return false;
  return true;
}

RedistStage::RedistStage(RouteStage* parent, TaskScheduler& scheduler, size_t slice_routes)
    : PassThroughStage(parent),
      scheduler_(scheduler),
      slice_routes_(slice_routes == 0 ? 1 : slice_routes) {}

bool RedistStage::passed(const Subscription& s, const IpPrefix& p) {
  return !s.dumping || (s.dumped_to && p <= *s.dumped_to);
}

void RedistStage::add_route(const RouteRef& route, RouteStage* caller) {
  ++routes_;
  for (auto& [id, s] : subs_) {
    if (passed(s, route->prefix) && s.filter.Matches(*route)) s.output->redist_add(route);
  }
  PassThroughStage::add_route(route, caller);
}

void RedistStage::delete_route(const RouteRef& route, RouteStage* caller) {
  --routes_;
  for (auto& [id, s] : subs_) {
    if (passed(s, route->prefix) && s.filter.Matches(*route)) s.output->redist_delete(route);
  }
  PassThroughStage::delete_route(route, caller);
}

uint64_t RedistStage::subscribe(RedistFilter filter, RedistOutput* output) {
  const uint64_t id = next_id_++;
  Subscription& s = subs_[id];
  s.filter = std::move(filter);
  s.output = output;
  // The task belongs to the subscription, so it cannot outlive this stage or the subscription.
  s.task = scheduler_.add("redist-dump", [this, &s] { return dump_slice(s); });
  return id;
}

Status RedistStage::unsubscribe(uint64_t id) {
  if (subs_.erase(id) == 0) return NotFound("no redistribution subscription " + std::to_string(id));
  return Status::Ok();
}

bool RedistStage::dump_slice(Subscription& s) {
  RouteRef r;
  if (s.dumped_to) {
    r = lookup_next(s.dumped_to);
  } else if (s.filter.within) {
    // Within a range filter, start at the range instead of the beginning.
    r = lookup_route(*s.filter.within);
    if (!r) r = lookup_next(*s.filter.within);
  } else {
    r = lookup_next(std::nullopt);
  }
  for (size_t n = 0; n < slice_routes_ && r; ++n, r = lookup_next(r->prefix)) {
    if (s.filter.within && !s.filter.within->Contains(r->prefix) && r->prefix > *s.filter.within) {
      r = nullptr;
      break;
    }
    s.dumped_to = r->prefix;
    if (s.filter.Matches(*r)) s.output->redist_add(r);
  }
  if (r) return true;
  s.dumping = false;
  s.output->redist_dump_done();
  return false;
}

}  // namespace strata::rib
