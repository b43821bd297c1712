#include "rib/ext_int_stage.h"

#include <algorithm>
#include <vector>

namespace strata::rib {

ResolutionRef ExtIntStage::ResolutionVia(const IpAddr& nexthop, const RibRoute& igp) {
  // A connected subnet, an interface route (no gateway) and a route that drops have no router to
  // send to: the nexthop itself is the one.
  const bool direct = igp.protocol() == kConnectedProtocol || igp.nexthop().is_zero();
  return ResolutionRef::Make(
      Resolution{direct ? nexthop : igp.forwarding_nexthop(), igp.prefix, igp.metric()});
}

RouteRef ExtIntStage::Resolve(const RibRoute& ext, const Nexthop& nh) const {
  if (!nh.igp) return nullptr;
  RouteAttrs a = ext.attrs();
  a.resolution = nh.resolution;
  if (a.ifname.empty()) a.ifname = nh.igp->ifname();
  if (a.multipath) {
    Multipath hops = *a.multipath;
    for (MultipathHop& hop : hops) {
      auto it = nexthops_.find(hop.nexthop);
      const bool resolves = it != nexthops_.end() && it->second.igp;
      hop.resolution = resolves ? it->second.resolution : nullptr;
      hop.ifname = resolves ? it->second.igp->ifname() : Symbol();
    }
    a.multipath = MakeMultipath(std::move(hops));
  }
  RibRoute r(ext.prefix, a);
  r.generation = ext.generation;
  return MakeRoute(std::move(r));
}

ExtIntStage::Nexthop& ExtIntStage::Depend(const IpAddr& addr, const IpPrefix& prefix) {
  auto [it, fresh] = nexthops_.try_emplace(addr);
  Nexthop& nh = it->second;
  if (fresh) {
    nh.igp = int_->lookup_best(addr);
    if (nh.igp) nh.resolution = ResolutionVia(addr, *nh.igp);
  }
  nh.dependents.insert(prefix);
  return nh;
}

void ExtIntStage::Undepend(const IpAddr& addr, const IpPrefix& prefix) {
  if (auto it = nexthops_.find(addr); it != nexthops_.end()) {
    it->second.dependents.erase(prefix);
    if (it->second.dependents.empty()) nexthops_.erase(it);
  }
}

RouteRef ExtIntStage::resolved(const IpPrefix& prefix) const {
  const RouteRef* r = resolved_.find(prefix);
  return r ? *r : nullptr;
}

RouteRef ExtIntStage::internal(const IpPrefix& prefix) const {
  if (int_change_ && int_change_->first == prefix) return int_change_->second;
  return int_->lookup_route(prefix);
}

size_t ExtIntStage::unresolved_count() const {
  size_t n = 0;
  for (const auto& [addr, nh] : nexthops_) {
    if (!nh.igp) n += nh.dependents.size();
  }
  return n;
}

void ExtIntStage::add_route(const RouteRef& route, RouteStage* caller) {
  if (caller == ext_) {
    add_ext(route);
  } else {
    add_int(route);
  }
}

void ExtIntStage::delete_route(const RouteRef& route, RouteStage* caller) {
  if (caller == ext_) {
    delete_ext(route);
  } else {
    delete_int(route);
  }
}

void ExtIntStage::update_ext(const IpPrefix& prefix, const RouteRef& old_resolved,
                             const RouteRef& new_resolved) {
  RouteRef in = internal(prefix);
  send_change(PickBetter(in, old_resolved), PickBetter(in, new_resolved));
}

void ExtIntStage::add_ext(const RouteRef& route) {
  if (const MultipathRef& m = route->multipath()) {
    for (const MultipathHop& hop : *m) Depend(hop.nexthop, route->prefix);
  }
  const Nexthop& nh = Depend(route->nexthop(), route->prefix);
  RouteRef res = Resolve(*route, nh);
  if (res) resolved_.insert(route->prefix, res);
  update_ext(route->prefix, nullptr, res);
}

void ExtIntStage::delete_ext(const RouteRef& route) {
  Undepend(route->nexthop(), route->prefix);
  if (const MultipathRef& m = route->multipath()) {
    for (const MultipathHop& hop : *m) Undepend(hop.nexthop, route->prefix);
  }
  RouteRef old = resolved(route->prefix);
  if (!old) return;  // it was held back, never sent
  resolved_.erase(route->prefix);
  update_ext(route->prefix, old, nullptr);
}

void ExtIntStage::add_int(const RouteRef& route) {
  const IpPrefix& p = route->prefix;
  // The internal parent held nothing at p, so the old winner was the resolved route, if any.
  RouteRef ext = resolved(p);
  send_change(ext, PickBetter(ext, route));
  int_change_.emplace(p, route);
  // Nexthops inside p that resolved less specifically (or not at all) now resolve through it.
  const IpAddr last = nexthops_.empty() ? p.addr() : p.Last();  // Last() costs a loop
  for (auto it = nexthops_.lower_bound(p.addr()); it != nexthops_.end() && it->first <= last;
       ++it) {
    const RouteRef& igp = it->second.igp;
    if (!igp || igp->prefix.len() < p.len()) reresolve(it->first, it->second);
  }
  int_change_.reset();
}

void ExtIntStage::delete_int(const RouteRef& route) {
  const IpPrefix& p = route->prefix;
  RouteRef ext = resolved(p);
  send_change(PickBetter(ext, route), ext);
  int_change_.emplace(p, nullptr);
  // Nexthops that resolved through the deleted route resolve through a less specific one or not.
  const IpAddr last = nexthops_.empty() ? p.addr() : p.Last();
  for (auto it = nexthops_.lower_bound(p.addr()); it != nexthops_.end() && it->first <= last;
       ++it) {
    if (it->second.igp == route) reresolve(it->first, it->second);
  }
  int_change_.reset();
}

void ExtIntStage::reresolve(const IpAddr& addr, Nexthop& nh) {
  RouteRef igp = int_->lookup_best(addr);
  if (igp == nh.igp) return;
  nh.igp = igp;
  nh.resolution = igp ? ResolutionVia(addr, *igp) : nullptr;
  // In prefix order, so that the changes go downstream in the same order on every run.
  std::vector<IpPrefix> dependents(nh.dependents.begin(), nh.dependents.end());
  std::sort(dependents.begin(), dependents.end());
  for (const IpPrefix& p : dependents) {
    RouteRef ext = ext_->lookup_route(p);
    RouteRef old = resolved(p);
    // `addr` is the route's own next hop or one of its multipath hops.
    RouteRef res;
    if (ext) {
      const Nexthop* own = ext->nexthop() == addr ? &nh : &nexthops_.at(ext->nexthop());
      res = Resolve(*ext, *own);
    }
    if (res) {
      resolved_.insert(p, res);
    } else {
      resolved_.erase(p);
    }
    update_ext(p, old, res);
  }
}

RouteRef ExtIntStage::lookup_route(const IpPrefix& prefix) const {
  return PickBetter(int_->lookup_route(prefix), resolved(prefix));
}

RouteRef ExtIntStage::lookup_best(const IpAddr& addr) const {
  const RouteRef* r = resolved_.longest_match(addr).value;
  return CombineBest(int_->lookup_best(addr), r ? *r : nullptr);
}

RouteRef ExtIntStage::lookup_next(const std::optional<IpPrefix>& after) const {
  // External routes pass only once resolved: walk the resolved copies, not the EGP side.
  const RouteTrie<RouteRef>::Hit ext = resolved_.next_after(after);
  return CombineNext(int_->lookup_next(after), ext.value ? *ext.value : nullptr);
}

RouteRange ExtIntStage::lookup_range(const IpAddr& addr) const {
  auto r = resolved_.range(addr);
  RouteRange ext{r.match.value ? *r.match.value : nullptr, r.valid};
  return CombineRanges(int_->lookup_range(addr), ext);
}

void ExtIntStage::replace_parent(RouteStage* old_parent, RouteStage* new_parent) {
  if (ext_ == old_parent) ext_ = new_parent;
  if (int_ == old_parent) int_ = new_parent;
}

}  // namespace strata::rib
