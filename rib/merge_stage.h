// MergeStage: combines two route sources pairwise, by admin distance (XORP paper 5.2).
//
// For each prefix the stage passes on the preferred (RouteBetter: admin distance, then metric,
// then protocol name) of its two parents' routes. It stores nothing: on a change from one parent
// it looks up the other parent's route for that prefix and sends the difference in winner
// downstream. A tree of merges combines any number of origin tables; a new table joins by a new
// merge whose second parent is the (empty) new table. Threading: single-threaded.
#pragma once

#include <string>

#include "rib/route_stage.h"

namespace strata::rib {

class MergeStage : public RouteStage {
 public:
  MergeStage(std::string name, RouteStage* a, RouteStage* b)
      : name_(std::move(name)), a_(a), b_(b) {}

  std::string name() const override { return name_; }
  void add_route(const RouteRef& route, RouteStage* caller) override;
  void delete_route(const RouteRef& route, RouteStage* caller) override;
  RouteRef lookup_route(const IpPrefix& prefix) const override;
  RouteRef lookup_best(const IpAddr& addr) const override;
  RouteRange lookup_range(const IpAddr& addr) const override;
  RouteRef lookup_next(const std::optional<IpPrefix>& after) const override;
  void replace_parent(RouteStage* old_parent, RouteStage* new_parent) override;

  RouteStage* parent_a() const { return a_; }
  RouteStage* parent_b() const { return b_; }

 private:
  // The parent that did not send a message. REQUIRES: caller is a parent.
  RouteStage* other(RouteStage* caller) const;
  // The winner between the caller's route and the other parent's, in lookup_route's order.
  const RouteRef& pick(RouteStage* caller, const RouteRef& mine, const RouteRef& rival) const;

  std::string name_;
  RouteStage* a_;
  RouteStage* b_;
};

}  // namespace strata::rib
