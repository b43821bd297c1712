// InputFilterStage: the input filter bank of one peer's branch.
//
// Drops routes whose AS_PATH holds the local AS (RFC 4271 9.1.2 loop detection) or whose
// ORIGINATOR_ID is our router id (RFC 4456 8), then applies the import policy hook. It holds no
// routes: deletes and lookups re-apply the same deterministic filter, so a delete is dropped iff
// its add was, and replace becomes add, delete or replace according to which side passes.
// Counters: drops by reason and `accepted`, the number of routes currently passed on.
// Threading: single-threaded.
#pragma once

#include <cstdint>
#include <string>

#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/route_policy.h"

namespace strata::bgp {

class InputFilterStage : public PassThroughStage {
 public:
  struct Counters {
    uint64_t as_loop = 0;        // announcements dropped for an AS loop
    uint64_t originator_id = 0;  // dropped: our own ORIGINATOR_ID came back
    uint64_t policy_rejected = 0;
    uint64_t accepted = 0;  // routes currently passed downstream
  };

  InputFilterStage(PeerId peer, uint32_t local_as, IpAddr router_id, BgpStage* parent,
                   RoutePolicy import_policy = nullptr);

  std::string name() const override { return "filter-in:" + std::to_string(peer_); }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;
  BgpRouteRef lookup_route(const IpPrefix& prefix) const override;

  const Counters& counters() const { return counters_; }

 private:
  enum class Verdict { kPass, kAsLoop, kOriginatorId, kPolicy };
  // The route to pass, or null with the reason in *verdict.
  BgpRouteRef filter(const BgpRouteRef& route, Verdict* verdict) const;
  void count_drop(Verdict v);

  PeerId peer_;
  uint32_t local_as_;
  IpAddr router_id_;
  RoutePolicy import_policy_;
  Counters counters_;
};

}  // namespace strata::bgp
