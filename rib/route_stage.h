// RouteStage: the interface every RIB route table stage implements (XORP paper, section 5).
//
// Routes flow downstream through add_route/delete_route; a stage that needs to know more asks
// upstream with the lookup_* calls. Routes are stored only in origin tables; other stages keep
// at most indexes and derived state, and look upstream for the rest.
//
// Contract (every stage relies on its parents keeping it, and keeps it for its child):
//  1. Every delete_route matches an earlier add_route of the same route object, and a prefix has
//     at most one route downstream at a time. Replacing a route is a delete_route of the old route
//     followed by an add_route of the new one, in that order.
//  2. A lookup agrees with what was already sent downstream: after add_route(r), lookups of
//     r->prefix return r until delete_route(r) has been sent.
//     Between the delete and the add of a replace, the parent may already answer lookups of that
//     prefix with the new route; so a stage handling a message for prefix P from one parent must
//     not rely on that same parent's lookups of P (two-parent stages look up the other parent).
// Calls are synchronous: by the time add_route/delete_route returns, the change has been passed
// on (or deliberately held by a stage that then answers lookups accordingly). `caller` is the
// parent that sent the message, so stages with two parents know which side changed.
// Plumbing: a stage has one child (next()) and one or two parents; dynamic stages are plumbed in
// and out with set_next()/replace_parent(). The pipeline owner (Rib) owns the stages.
// Threading: single-threaded.
#pragma once

#include <optional>
#include <string>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "rib/rib_route.h"

namespace strata::rib {

// The answer to an interest registration: the route matching an address (null if none) and the
// largest subnet containing the address over which that answer holds.
struct RouteRange {
  RouteRef route;
  IpPrefix valid;
};

class RouteStage {
 public:
  virtual ~RouteStage() = default;
  RouteStage() = default;
  RouteStage(const RouteStage&) = delete;
  RouteStage& operator=(const RouteStage&) = delete;

  virtual std::string name() const = 0;

  // Downstream messages; see the contract above. REQUIRES: route is non-null.
  virtual void add_route(const RouteRef& route, RouteStage* caller) = 0;
  virtual void delete_route(const RouteRef& route, RouteStage* caller) = 0;

  // Upstream questions about the routes this stage has sent downstream.
  // The route for exactly this prefix, or null.
  virtual RouteRef lookup_route(const IpPrefix& prefix) const = 0;
  // The longest-prefix match for an address, or null.
  virtual RouteRef lookup_best(const IpAddr& addr) const = 0;
  // The longest-prefix match and the largest subnet where it is not overlaid.
  virtual RouteRange lookup_range(const IpAddr& addr) const = 0;
  // The route at the first prefix after `after` (IpPrefix order: IPv4 first, by address, a
  // covering prefix before those it contains), the first of all for nullopt, null past the end.
  // Walking with it visits what this stage has sent downstream, so stages that dump the table
  // (FEA resync, redistribution) keep no index of their own.
  virtual RouteRef lookup_next(const std::optional<IpPrefix>& after) const = 0;

  // Re-plumbing: `old_parent` is replaced by `new_parent` (a dynamic stage came or went).
  virtual void replace_parent(RouteStage* old_parent, RouteStage* new_parent) = 0;

  RouteStage* next() const { return next_; }
  void set_next(RouteStage* next) { next_ = next; }

 protected:
  // Sends the difference between two winners for one prefix downstream (either may be null):
  // nothing if they are the same object, else delete of the old then add of the new.
  void send_change(const RouteRef& old_winner, const RouteRef& new_winner);
  void send_add(const RouteRef& r) {
    if (next_) next_->add_route(r, this);
  }
  void send_delete(const RouteRef& r) {
    if (next_) next_->delete_route(r, this);
  }

 private:
  RouteStage* next_ = nullptr;
};

// Combines the answers of two disjoint-or-deciding route sources (e.g. a Merge's parents): the
// longer match wins (PickBetter on equal prefixes) and the answer holds on the smaller subnet.
RouteRange CombineRanges(const RouteRange& a, const RouteRange& b);
// The longer of two matches, PickBetter on equal prefixes.
RouteRef CombineBest(const RouteRef& a, const RouteRef& b);
// The one at the smaller prefix of two lookup_next answers, PickBetter on equal prefixes.
RouteRef CombineNext(const RouteRef& a, const RouteRef& b);

}  // namespace strata::rib
