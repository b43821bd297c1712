// RibOutStage: the end of the RIB's branch below its fanout reader; turns winners into RibSink
// calls with the origin table (ebgp or ibgp) of each route, and counts them.
// Threading: single-threaded.
#pragma once

#include <cstdint>
#include <string>

#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/rib_sink.h"

namespace strata::bgp {

class RibOutStage : public PassThroughStage {
 public:
  RibOutStage(RibSink& sink, BgpStage* parent) : PassThroughStage(parent), sink_(sink) {}

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
  RibSink& sink_;
  uint64_t installed_ = 0;  // routes currently given to the RIB
};

}  // namespace strata::bgp
