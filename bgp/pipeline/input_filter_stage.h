// InputFilterStage: the input filter bank of one peer's branch.
//
// Drops routes whose AS_PATH holds the local AS (RFC 4271 9.1.2 loop detection; with a
// confederation, RFC 5065 6: our member AS anywhere or the identifier outside confed segments;
// allowas-in N lets it appear N times; a peer's local-as counts as ours),
// whose ORIGINATOR_ID is our router id or whose CLUSTER_LIST holds our CLUSTER_ID (RFC 4456 8),
// prepends the peer's local-as (unless no-prepend, AsPathOptions), then applies the import
// policy hook. It holds no routes: deletes and lookups re-apply the same
// deterministic filter, so a delete is dropped iff its add was, and replace becomes add, delete
// or replace according to which side passes.
// Counters: drops by reason and `accepted`, the number of routes currently passed on.
// A new import policy is applied by ChangePolicy, which re-filters every route the parent holds
// (prefix by prefix, in order, in background slices when refilter().set_background was given a
// scheduler; PolicyRefilter) so that each delete still matches the add it undoes and only the
// differences go downstream. Routes arriving meanwhile use the new policy at once.
// Threading: single-threaded.
#pragma once

#include <cstdint>
#include <string>

#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/policy_refilter.h"
#include "bgp/pipeline/route_policy.h"
#include "bgp/wire/as_path_options.h"
#include "bgp/wire/confederation.h"

namespace strata::bgp {

class InputFilterStage : public PassThroughStage {
 public:
  struct Counters {
    uint64_t as_loop = 0;        // announcements dropped for an AS loop
    uint64_t originator_id = 0;  // dropped: our own ORIGINATOR_ID came back
    uint64_t cluster_loop = 0;   // dropped: our CLUSTER_ID is in the CLUSTER_LIST
    uint64_t policy_rejected = 0;
    uint64_t accepted = 0;  // routes currently passed downstream
  };

  // `cluster_id`: our route reflection CLUSTER_ID (usually the router id as a number).
  InputFilterStage(PeerId peer, uint32_t local_as, IpAddr router_id, uint32_t cluster_id,
                   BgpStage* parent, RoutePolicy import_policy = nullptr, Confederation confed = {},
                   AsPathOptions as_path = {});

  std::string name() const override { return "filter-in:" + std::to_string(peer_); }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;
  BgpRouteRef lookup_route(const IpPrefix& prefix) const override;

  const Counters& counters() const { return counters_; }

  // Why a route is dropped, or kPass.
  enum class Verdict { kPass, kAsLoop, kOriginatorId, kClusterLoop, kPolicy };
  // What the filter does with `route` (one its parent holds): the verdict, and the route it
  // passes on (import policy applied) or null. For operators' views; changes nothing.
  BgpRouteRef Explain(const BgpRouteRef& route, Verdict* verdict) const {
    return filter(route, verdict);
  }

  // Replaces the import policy and sends downstream the difference it makes for each prefix
  // `next` yields (every prefix the parent may hold a route for, see PolicyRefilter::NextFn).
  // In the background if the refilter has a scheduler, else at once; lookups of a prefix answer
  // with the old policy until that prefix has been re-filtered (or a message for it came).
  void ChangePolicy(RoutePolicy policy, PolicyRefilter::NextFn next);
  PolicyRefilter& refilter() { return refilter_; }
  const PolicyRefilter& refilter() const { return refilter_; }

 private:
  // The route to pass, or null with the reason in *verdict.
  BgpRouteRef filter(const BgpRouteRef& route, Verdict* verdict) const;
  void refilter_one(const IpPrefix& prefix, const RoutePolicy& before, const RoutePolicy& after);
  BgpRouteRef filter_with(const BgpRouteRef& route, const RoutePolicy& policy,
                          Verdict* verdict) const;
  void count_drop(Verdict v);
  bool is_loop(const AsPath& path) const;
  // The route with the peer's local-as prepended (one-entry memo by attribute set).
  BgpRouteRef prepend_local_as(const BgpRouteRef& route) const;

  PeerId peer_;
  uint32_t local_as_;
  IpAddr router_id_;
  uint32_t cluster_id_;
  Confederation confed_;
  AsPathOptions as_path_;
  mutable AttributeSetPtr memo_in_;
  mutable AttributeSetPtr memo_out_;
  Counters counters_;
  PolicyRefilter refilter_;  // the import policy of each prefix; last: its task goes first
};

}  // namespace strata::bgp
