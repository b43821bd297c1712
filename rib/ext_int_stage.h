// ExtIntStage: composes external (EGP) routes with internal (IGP) routes (XORP paper 5.2).
//
// An EGP route's nexthop is usually not on a directly connected subnet; the route becomes usable
// only once its nexthop resolves through the best internal route to it (longest match on the
// internal parent). The stage passes on, per prefix, the preferred (RouteBetter) of the internal
// route and the resolved external route; an external route whose nexthop resolves through a
// connected route keeps its nexthop, otherwise it forwards to the internal route's nexthop.
// Unresolvable external routes are held back (not passed downstream) until an internal route
// covers their nexthop.
// Event driven, no periodic scan: nexthops_ indexes every external nexthop (ordered by address)
// with the internal route it resolves through and the external prefixes that depend on it. An
// internal add re-resolves the nexthops it covers more specifically than before; an internal
// delete re-resolves (or withdraws) those that resolved through it.
// A multipath route (RibRoute::multipath) depends on each of its next hops: each is indexed like
// the route's own and resolved on its own; the route passes while its own next hop resolves,
// with every other hop that resolves too (an internal change of any of them re-resolves it).
// Derived state: resolved_ holds the resolved copies this stage made, so lookups return the same
// objects it sent downstream. Original routes stay in the origin tables. Threading: single.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "common/route_trie.h"
#include "rib/route_stage.h"

namespace strata::rib {

class ExtIntStage : public RouteStage {
 public:
  ExtIntStage(RouteStage* ext_parent, RouteStage* int_parent)
      : ext_(ext_parent), int_(int_parent) {}

  std::string name() const override { return "ext-int"; }
  void add_route(const RouteRef& route, RouteStage* caller) override;
  void delete_route(const RouteRef& route, RouteStage* caller) override;
  RouteRef lookup_route(const IpPrefix& prefix) const override;
  RouteRef lookup_best(const IpAddr& addr) const override;
  RouteRange lookup_range(const IpAddr& addr) const override;
  RouteRef lookup_next(const std::optional<IpPrefix>& after) const override;
  void replace_parent(RouteStage* old_parent, RouteStage* new_parent) override;

  RouteStage* ext_parent() const { return ext_; }
  RouteStage* int_parent() const { return int_; }
  size_t resolved_count() const { return resolved_.size(); }
  // External routes held back because their nexthop does not resolve.
  size_t unresolved_count() const;
  size_t nexthop_count() const { return nexthops_.size(); }

 private:
  struct Nexthop {
    RouteRef igp;              // the internal route it resolves through, or null
    ResolutionRef resolution;  // how it resolves through igp, shared by the dependents
    // External prefixes using this nexthop. A flat hash set: a full BGP table puts most of 1M
    // prefixes under a few next hops, and a std::set node per prefix cost 64 bytes and a tree
    // walk of IpPrefix compares on every add (9% of strata-rib's CPU at 1M).
    absl::flat_hash_set<IpPrefix, std::hash<IpPrefix>> dependents;
  };

  void add_ext(const RouteRef& route);
  void delete_ext(const RouteRef& route);
  void add_int(const RouteRef& route);
  void delete_int(const RouteRef& route);
  // Sends the change in winner at `prefix` when its resolved external route goes from old to new.
  void update_ext(const IpPrefix& prefix, const RouteRef& old_resolved,
                  const RouteRef& new_resolved);
  // Looks the nexthop up again and re-resolves its dependents if the internal route changed.
  void reresolve(const IpAddr& addr, Nexthop& nh);
  RouteRef resolved(const IpPrefix& prefix) const;
  // The internal route at prefix as this stage has seen it: while an internal message for P is
  // being handled the internal parent may already hold the next route for P (route_stage.h).
  RouteRef internal(const IpPrefix& prefix) const;
  // How `nexthop` resolves through `igp` (one object per nexthop: dependents share it).
  static ResolutionRef ResolutionVia(const IpAddr& nexthop, const RibRoute& igp);
  // The resolved copy of `ext` through its own next hop's entry `nh` (null if it does not
  // resolve), with its multipath hops resolved through their entries.
  RouteRef Resolve(const RibRoute& ext, const Nexthop& nh) const;
  // The entry of `addr`, made (and looked up) if new, with `prefix` among its dependents.
  Nexthop& Depend(const IpAddr& addr, const IpPrefix& prefix);
  void Undepend(const IpAddr& addr, const IpPrefix& prefix);

  RouteStage* ext_;
  RouteStage* int_;
  RouteTrie<RouteRef> resolved_;
  std::map<IpAddr, Nexthop> nexthops_;
  // Set while an internal add/delete is handled: the prefix and its route as seen by this stage.
  std::optional<std::pair<IpPrefix, RouteRef>> int_change_;
};

}  // namespace strata::rib
