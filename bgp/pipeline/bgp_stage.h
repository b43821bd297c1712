// BgpStage: the interface every BGP route table stage implements (XORP paper, section 5.1).
//
// Routes flow downstream through add_route / replace_route / delete_route; a stage that needs to
// know more asks upstream with lookup_route. Routes are stored only in PeerIn (the Adj-RIB-In);
// other stages keep at most indexes and derived state (the resolver's annotated routes, the
// decision's winners) and look upstream for the rest.
//
// Contract (every stage relies on its parents keeping it, and keeps it for its children):
//  1. A branch carries at most one route per prefix. Every delete_route matches the route of an
//     earlier add_route for that prefix; replace_route(old, new) replaces the route of an earlier
//     add (old) by new for the same prefix. The route passed to delete/replace is the one added,
//     or one equal to it (SameRoute) when a stage recomputes it deterministically (filters).
//  2. A lookup agrees with what was already sent downstream: after add_route(r), lookup_route of
//     r->prefix returns r (or an equal route) until delete_route or replace_route is sent.
//     During a call, the parent may already answer lookups of that prefix with the new state, so
//     a stage handling a message from one parent uses the message, not that parent's lookup.
//  3. Calls are synchronous: when add/replace/delete returns, the change has been passed on, or
//     deliberately held by a stage that then answers lookups accordingly (the nexthop resolver
//     holds routes whose next hop is not yet known and answers null for them).
// `caller` is the parent that sent the message, so a stage with several parents (decision) knows
// which branch changed. replace_route defaults to delete_route(old) then add_route(new).
// Plumbing: one child (next()); dynamic stages are plumbed in and out with set_next() and
// replace_parent(). The pipeline owns all stages (unique_ptr). Threading: single-threaded.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>

#include "bgp/pipeline/bgp_route.h"
#include "common/ip_prefix.h"

namespace strata::bgp {

// The first prefix after `after` (the first of all for nullopt) some table may hold, or nullopt
// at the end: how a stage without a table walks the prefixes of the tables upstream.
using PrefixWalk = std::function<std::optional<IpPrefix>(const std::optional<IpPrefix>& after)>;

class BgpStage {
 public:
  BgpStage() = default;
  virtual ~BgpStage() = default;
  BgpStage(const BgpStage&) = delete;
  BgpStage& operator=(const BgpStage&) = delete;

  virtual std::string name() const = 0;

  // Downstream messages; see the contract above. REQUIRES: routes are non-null.
  virtual void add_route(const BgpRouteRef& route, BgpStage* caller) = 0;
  virtual void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                             BgpStage* caller) {
    delete_route(old_route, caller);
    add_route(new_route, caller);
  }
  virtual void delete_route(const BgpRouteRef& route, BgpStage* caller) = 0;

  // Upstream: the route this stage has sent downstream for exactly this prefix, or null.
  virtual BgpRouteRef lookup_route(const IpPrefix& prefix) const = 0;

  // A hint, not a message: changes for these prefixes are about to come down (one UPDATE's).
  // A stage with a per-prefix table warms the paths to them (RouteTrie::warm: the
  // descents interleaved, so their cache misses overlap) and passes the hint on; the default
  // only passes it on. Nothing a stage sends or answers may depend on it.
  virtual void prefetch(std::span<const IpPrefix> prefixes) {
    if (next_) next_->prefetch(prefixes);
  }

  // Re-plumbing: `old_parent` is replaced by `new_parent` (a dynamic stage came or went).
  virtual void replace_parent(BgpStage* old_parent, BgpStage* new_parent) = 0;

  BgpStage* next() const { return next_; }
  void set_next(BgpStage* next) { next_ = next; }

 protected:
  void send_add(const BgpRouteRef& r) {
    if (next_) next_->add_route(r, this);
  }
  void send_replace(const BgpRouteRef& old_route, const BgpRouteRef& new_route) {
    if (next_) next_->replace_route(old_route, new_route, this);
  }
  void send_delete(const BgpRouteRef& r) {
    if (next_) next_->delete_route(r, this);
  }
  // The difference between two states of one prefix (either may be null): nothing if the same
  // object, else add, delete or replace.
  void send_change(const BgpRouteRef& old_route, const BgpRouteRef& new_route) {
    if (old_route == new_route) return;
    if (!old_route) {
      send_add(new_route);
    } else if (!new_route) {
      send_delete(old_route);
    } else {
      send_replace(old_route, new_route);
    }
  }

 private:
  BgpStage* next_ = nullptr;
};

// Base for single-parent stages that hold nothing: forwards everything unchanged and answers
// lookups from the parent, so it keeps the contract by construction.
class PassThroughStage : public BgpStage {
 public:
  explicit PassThroughStage(BgpStage* parent = nullptr) : parent_(parent) {}

  void add_route(const BgpRouteRef& route, BgpStage* /*caller*/) override { send_add(route); }
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* /*caller*/) override {
    send_replace(old_route, new_route);
  }
  void delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) override { send_delete(route); }
  BgpRouteRef lookup_route(const IpPrefix& prefix) const override {
    return parent_ ? parent_->lookup_route(prefix) : nullptr;
  }
  void replace_parent(BgpStage* old_parent, BgpStage* new_parent) override {
    if (parent_ == old_parent) parent_ = new_parent;
  }

  BgpStage* parent() const { return parent_; }
  void set_parent(BgpStage* parent) { parent_ = parent; }

 private:
  BgpStage* parent_;
};

// Plumbs `stage` in between `parent` and parent's current child.
void PlumbAfter(BgpStage* parent, BgpStage* stage);
// Unplumbs a single-parent stage: its parent's child becomes its child.
void Unplumb(BgpStage* parent, BgpStage* stage);

}  // namespace strata::bgp
