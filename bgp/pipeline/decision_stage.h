// DecisionStage: picks the best route per prefix across every peer's input branch.
//
// Its parents are the branches' last stages (the nexthop resolvers), one per peer; routes live
// only in the PeerIn tables, so on every change for a prefix the stage looks up the alternatives
// in the other branches (the changed branch's route is taken from the message, per rule 2 of
// bgp_stage.h) and runs SelectBest (decision_steps.h). Only usable routes reach it: the resolver
// holds unresolvable ones. Downstream (the fanout) it sends add when a prefix gains a winner,
// replace when the winner changes, delete when none is left.
// No table: the winner sent before a change is the same choice made with the changed branch's
// previous route (the message's old route; the other branches have not changed and SelectBest is
// deterministic), and lookups and Explain choose again from the branches' current routes. A
// full table's winners (a million entries) are stored nowhere but in the branches; a lookup costs
// one per branch instead of one descent, and lookups are rare (dumps, refilter walks, show).
// Multipath (set_multipath): the winner alone goes downstream (peers are sent the best path
// only); Multipath(best) answers the other members of its set from the branches' current routes
// (the RIB's branch asks it for every winner it passes on). When a change alters the set but not
// the winner, the stage sends replace(best, best), the same object twice: the fanout passes such
// a change only to the readers that asked for it (the RIB's), whose lookups it does not change.
// Threading: single-threaded.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/decision_steps.h"

namespace strata::bgp {

class DecisionStage : public BgpStage {
 public:
  struct Decided {
    BgpRouteRef route;
    DecisionReason reason = DecisionReason::kOnlyRoute;
  };
  struct Explanation {
    Decided winner;
    std::vector<BgpRouteRef> candidates;  // every usable route for the prefix, winner included
    // Per candidate: the step that eliminated it (the winner's: winner.reason).
    std::vector<DecisionReason> lost_at;
    // Per candidate: a member of the winner's multipath set besides the winner.
    std::vector<bool> multipath;
  };

  DecisionStage() = default;

  std::string name() const override { return "decision"; }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;
  BgpRouteRef lookup_route(const IpPrefix& prefix) const override;
  void replace_parent(BgpStage* old_parent, BgpStage* new_parent) override;

  // A new branch. REQUIRES: it has sent nothing yet.
  void add_parent(BgpStage* parent);
  // REQUIRES: the branch has withdrawn all its routes.
  void remove_parent(BgpStage* parent);

  // The winner and why, or nullopt if the prefix has none.
  std::optional<Explanation> Explain(const IpPrefix& prefix) const;
  // Prefixes with a winner.
  size_t size() const { return count_; }

  // Equal-cost multipath; takes effect with the next change of each prefix (the pipeline has
  // every winner's set recomputed: announce_multipath).
  void set_multipath(const MultipathConfig& config) { multipath_ = config; }
  const MultipathConfig& multipath() const { return multipath_; }
  // The other members of `best`'s multipath set (SelectMultipath over the branches' current
  // routes); empty without multipath.
  std::vector<BgpRouteRef> Multipath(const BgpRouteRef& best) const;
  // Sends replace(winner, winner) for `prefix` if it has a winner: its set is to be recomputed.
  void announce_multipath(const IpPrefix& prefix);

 private:
  // Re-decides `prefix` given the changed branch's previous and new route (null: none).
  void decide(const IpPrefix& prefix, BgpStage* caller, const BgpRouteRef& caller_old,
              const BgpRouteRef& caller_new);
  // A branch may answer a lookup with a route equal to the one it sent, not the same object (a
  // filter recomputing its route, the resolver annotating it): best becomes old when they are
  // equal, so an unchanged winner sends nothing downstream.
  static void KeepIfEqual(const BgpRouteRef& old, BgpRouteRef& best);
  static std::vector<IpAddr> NextHops(const std::vector<BgpRouteRef>& routes);
  // Inline for a few peers: no allocation per decision.
  using Candidates = absl::InlinedVector<BgpRouteRef, 4>;
  Candidates candidates(const IpPrefix& prefix, BgpStage* caller,
                        const BgpRouteRef& caller_route) const;

  std::vector<BgpStage*> parents_;
  size_t count_ = 0;  // prefixes with a winner
  MultipathConfig multipath_;
};

}  // namespace strata::bgp
