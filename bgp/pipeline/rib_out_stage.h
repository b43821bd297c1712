// RibOutStage: the end of the RIB's branch below its fanout reader; turns winners into RibSink
// calls with the origin table (ebgp or ibgp) of each route, and counts them. With a decision
// to ask, each winner passed on carries its multipath set's other next hops, as the decision
// answers them when the change is passed (the branch lags the decision: a later change of the
// set is a later replace, so the RIB ends with the newest set).
// Threading: single-threaded.
#pragma once

#include <cstdint>
#include <string>

#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/decision_stage.h"
#include "bgp/pipeline/rib_sink.h"

namespace strata::bgp {

class RibOutStage : public PassThroughStage {
 public:
  // `decision`: where multipath sets come from (null: none). REQUIRES: outlives the stage.
  RibOutStage(RibSink& sink, BgpStage* parent, const DecisionStage* decision = nullptr)
      : PassThroughStage(parent), sink_(sink), decision_(decision) {}

  std::string name() const override { return "rib-out"; }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;
  void flush() { sink_.end_batch(); }
  // The sink is fed everything again (RibFeed::resend): it holds nothing.
  void restart() { installed_ = 0; }

  uint64_t installed() const { return installed_; }

 private:
  RibMultipath MultipathOf(const BgpRouteRef& route) const;

  RibSink& sink_;
  const DecisionStage* decision_;
  // Multipath has been on: the RIB may hold other next hops for a route even once it is off.
  mutable bool multipath_seen_ = false;
  uint64_t installed_ = 0;  // routes currently given to the RIB
};

}  // namespace strata::bgp
