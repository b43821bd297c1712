#include "rib/origin_table.h"

#include <utility>

namespace strata::rib {

OriginTable::OriginTable(std::string protocol, ProtocolKind kind, uint32_t admin_distance,
                         TaskScheduler& scheduler, size_t slice_routes)
    : protocol_(std::move(protocol)),
      kind_(kind),
      admin_distance_(admin_distance),
      scheduler_(scheduler),
      slice_routes_(slice_routes == 0 ? 1 : slice_routes) {}

OriginTable::~OriginTable() {
  restamp_task_.reset();
  sweep_task_.reset();
  restamp_cursor_ = RouteStore::Iterator();
  sweep_cursor_ = RouteStore::Iterator();
}

bool OriginTable::busy() const {
  return !deletions_.empty() || restamp_task_.active() || sweep_task_.active();
}

RouteRef OriginTable::stamp(RibRoute route) const {
  RouteAttrs a = route.attrs();
  a.protocol = protocol_;
  a.kind = kind_;
  if (!a.own_distance) a.admin_distance = admin_distance_;
  a.resolution.reset();
  route.set_attrs(a);
  route.generation = generation_;
  return MakeRoute(std::move(route));
}

void OriginTable::store_and_send(RouteRef route) {
  StoredRoute* existing = store_.find_mutable(route->prefix);
  if (existing) {
    if (existing->generation() < generation_) --stale_;
    RouteRef old = std::exchange(existing->route, route);
    send_delete(old);
  } else {
    store_.insert(route->prefix, StoredRoute{route});
  }
  send_add(route);
}

bool OriginTable::is_stale(const IpPrefix& prefix) const {
  const StoredRoute* s = store_.find(prefix);
  return s && s->generation() < generation_;
}

void OriginTable::for_each(const std::optional<IpPrefix>& from,
                           const std::function<bool(const RouteRef&, bool stale)>& fn) const {
  // Iterating only pins trie nodes (a reference count), which does not change the table.
  auto& store = const_cast<RouteStore&>(store_);
  for (auto it = store.begin(); !it.at_end(); ++it) {
    if (!it.has_value() || (from && it.key() < *from)) continue;
    if (!fn(it.value().route, it.value().generation() < generation_)) return;
  }
}

Status OriginTable::add(RibRoute route) {
  if (Status s = route.Validate(); !s.ok()) return s;
  const StoredRoute* existing = store_.find(route.prefix);
  if (existing && existing->generation() >= generation_) {
    return AlreadyExists(protocol_ + " already has a route for " + route.prefix.ToString());
  }
  store_and_send(stamp(std::move(route)));
  return Status::Ok();
}

Status OriginTable::replace(RibRoute route) {
  if (Status s = route.Validate(); !s.ok()) return s;
  if (!store_.find(route.prefix)) {
    return NotFound(protocol_ + " has no route for " + route.prefix.ToString() + " to replace");
  }
  store_and_send(stamp(std::move(route)));
  return Status::Ok();
}

Status OriginTable::remove(const IpPrefix& prefix) {
  const StoredRoute* existing = store_.find(prefix);
  if (!existing) return NotFound(protocol_ + " has no route for " + prefix.ToString());
  if (existing->generation() < generation_) --stale_;
  RouteRef old = existing->route;
  store_.erase(prefix);
  send_delete(old);
  return Status::Ok();
}

void OriginTable::add_route(const RouteRef& route, RouteStage* /*caller*/) {
  if (!route->Validate().ok()) {
    ++rejected_;
    return;
  }
  store_and_send(stamp(*route));
}

void OriginTable::delete_route(const RouteRef& route, RouteStage* /*caller*/) {
  if (!remove(route->prefix).ok()) ++rejected_;
}

RouteRef OriginTable::lookup_best(const IpAddr& addr) const {
  return RouteOf(store_.longest_match(addr).value);
}

RouteRange OriginTable::lookup_range(const IpAddr& addr) const {
  return ToRouteRange(store_.range(addr));
}

void OriginTable::replace_parent(RouteStage* /*old_parent*/, RouteStage* /*new_parent*/) {}

void OriginTable::delete_all_routes() {
  // Every stored route goes, so pending re-stamps and sweeps have nothing left to do; their
  // cursors point into the store and must be released before it moves.
  restamp_task_.reset();
  sweep_task_.reset();
  restamp_cursor_ = RouteStore::Iterator();
  sweep_cursor_ = RouteStore::Iterator();
  stale_ = 0;
  if (store_.empty()) return;
  RouteStore old = std::move(store_);
  store_ = RouteStore();
  // Plumb the new stage directly below this table (above any older deletion stages).
  auto stage = std::make_unique<DeletionStage>(
      protocol_, std::move(old), this, scheduler_, slice_routes_,
      // deletions_ owns the stage and the stage owns the task, so `this` outlives the call.
      [this](DeletionStage* done) { unplumb(done); });
  DeletionStage* d = stage.get();
  d->set_next(next());
  if (next()) next()->replace_parent(this, d);
  set_next(d);
  deletions_.push_back(std::move(stage));
}

void OriginTable::unplumb(DeletionStage* stage) {
  RouteStage* parent = stage->parent();
  RouteStage* child = stage->next();
  parent->set_next(child);
  if (child) child->replace_parent(stage, parent);
  deletions_.remove_if([stage](const auto& p) { return p.get() == stage; });
}

void OriginTable::set_admin_distance(uint32_t admin_distance) {
  if (admin_distance == admin_distance_) return;
  admin_distance_ = admin_distance;
  restamp_task_.reset();
  restamp_cursor_ = store_.begin();
  if (restamp_cursor_.at_end()) return;
  // restamp_task_ is a member: the task cannot outlive this table.
  restamp_task_ = scheduler_.add(name() + ":restamp", [this] { return restamp_slice(); });
}

bool OriginTable::restamp_slice() {
  for (size_t n = 0; n < slice_routes_ && !restamp_cursor_.at_end(); ++n, ++restamp_cursor_) {
    if (!restamp_cursor_.has_value()) continue;
    const StoredRoute& s = restamp_cursor_.value();
    if (s.route->admin_distance() == admin_distance_ || s.route->attrs().own_distance) continue;
    RibRoute copy = *s.route;
    copy.set_admin_distance(admin_distance_);
    RouteRef fresh = MakeRoute(std::move(copy));
    StoredRoute* slot = store_.find_mutable(restamp_cursor_.key());
    RouteRef old = std::exchange(slot->route, fresh);
    send_delete(old);
    send_add(fresh);
  }
  if (restamp_cursor_.at_end()) {
    restamp_cursor_ = RouteStore::Iterator();
    return false;
  }
  return true;
}

void OriginTable::mark_stale() {
  ++generation_;
  stale_ = store_.size();
}

size_t OriginTable::sweep_stale() {
  const size_t stale = stale_;
  sweep_generation_ = generation_;
  sweep_task_.reset();
  sweep_cursor_ = RouteStore::Iterator();
  if (stale == 0) return 0;
  sweep_cursor_ = store_.begin();
  // sweep_task_ is a member: the task cannot outlive this table.
  sweep_task_ = scheduler_.add(name() + ":sweep", [this] { return sweep_slice(); });
  return stale;
}

bool OriginTable::sweep_slice() {
  for (size_t n = 0; n < slice_routes_ && !sweep_cursor_.at_end(); ++n, ++sweep_cursor_) {
    if (!sweep_cursor_.has_value()) continue;
    const StoredRoute& s = sweep_cursor_.value();
    if (s.generation() >= sweep_generation_) continue;
    RouteRef old = s.route;
    --stale_;
    store_.erase(sweep_cursor_.key());
    send_delete(old);
  }
  if (sweep_cursor_.at_end()) {
    sweep_cursor_ = RouteStore::Iterator();
    return false;
  }
  return true;
}

}  // namespace strata::rib
