// AggregateStage: route aggregation (RFC 4271 9.2.2.2; FRR's and BIRD's aggregate-address),
// fed the Loc-RIB's winners by a fanout reader of its own.
//
// Each configured aggregate (a prefix, summary-only, as-set) counts its contributors: the winners
// strictly inside its prefix. While it has one, the aggregate route is originated through the
// origin callback (the pipeline's aggregate pseudo-peer, so it competes in the decision like any
// route of ours); when the last goes it is withdrawn. The aggregate's attributes: ORIGIN the
// weakest of the contributors' (INCOMPLETE over EGP over IGP), NEXT_HOP ourselves (zero),
// AGGREGATOR our AS and router id; without as-set an empty AS_PATH and ATOMIC_AGGREGATE (the
// path information is lost); with as-set the contributors' longest common leading AS_SEQUENCE then
// an AS_SET of every other AS in their paths, their communities merged, ATOMIC_AGGREGATE only if
// a contributor carried it. Contributor changes mark the aggregate; the origination runs in a
// TaskScheduler task after the delivery (never inside a fanout slice), and only when the
// attributes changed. Summary-only (suppressing the contributors towards peers) is applied by
// the pipeline in the export filters (summary_only()).
// Threading: single-threaded.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bgp/pipeline/bgp_stage.h"
#include "common/status.h"
#include "common/task_scheduler.h"

namespace strata::bgp {

struct AggregateConfig {
  IpPrefix prefix;
  bool summary_only = false;  // the contributors are not sent to peers
  bool as_set = false;        // AS_SET of the contributors' ASes instead of ATOMIC_AGGREGATE
  friend bool operator==(const AggregateConfig&, const AggregateConfig&) = default;
};

// The attributes of the aggregate of `contributors` (none empty), see the header comment.
AttributeSetPtr AggregateAttributes(const AggregateConfig& config,
                                    const std::vector<BgpRouteRef>& contributors, uint32_t local_as,
                                    const IpAddr& router_id);

class AggregateStage : public PassThroughStage {
 public:
  // Originates (attrs) or withdraws (null) the aggregate route of `prefix`.
  using OriginateFn = std::function<void(const IpPrefix& prefix, const AttributeSetPtr& attrs)>;

  // `parent`: the fanout reader; `origin`: the peer the originate callback announces through
  // (its routes are never contributors).
  AggregateStage(BgpStage* parent, TaskScheduler& scheduler, uint32_t local_as, IpAddr router_id,
                 PeerId origin, OriginateFn originate);

  std::string name() const override { return "aggregates"; }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;

  // Adds or replaces an aggregate; its contributors are the winners `winners` yields inside its
  // prefix (looked up through the parent). Error: a host prefix (nothing fits inside).
  Status Set(const AggregateConfig& config, const PrefixWalk& winners);
  // Withdraws and forgets an aggregate. Error: not configured.
  Status Delete(const IpPrefix& prefix);

  std::vector<AggregateConfig> configs() const;
  // The prefixes of the summary-only aggregates, sorted.
  std::vector<IpPrefix> summary_only() const;
  // How many contributors the aggregate has now (0 also when not configured).
  size_t contributors(const IpPrefix& prefix) const;
  // Whether its route is originated now (after the pending task ran).
  bool originated(const IpPrefix& prefix) const;

 private:
  struct Aggregate {
    AggregateConfig config;
    std::map<IpPrefix, BgpRouteRef> contributors;
    AttributeSetPtr sent;  // what was originated; null: withdrawn
    bool dirty = false;
  };
  void update(const IpPrefix& prefix, const BgpRouteRef& route);  // null route: gone
  void mark(Aggregate& a);
  void flush();

  TaskScheduler& scheduler_;
  uint32_t local_as_;
  IpAddr router_id_;
  PeerId origin_;
  OriginateFn originate_;
  std::map<IpPrefix, Aggregate> aggregates_;
  TaskHandle task_;
};

}  // namespace strata::bgp
