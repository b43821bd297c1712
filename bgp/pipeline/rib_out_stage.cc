#include "bgp/pipeline/rib_out_stage.h"

namespace strata::bgp {

void RibOutStage::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  ++installed_;
  sink_.add_route(RibOriginOf(*route), route);
}

void RibOutStage::replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                                BgpStage* /*caller*/) {
  const RibOrigin from = RibOriginOf(*old_route);
  const RibOrigin to = RibOriginOf(*new_route);
  if (from == to) {
    sink_.replace_route(to, old_route, new_route);
  } else {
    sink_.delete_route(from, old_route);
    sink_.add_route(to, new_route);
  }
}

void RibOutStage::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  --installed_;
  sink_.delete_route(RibOriginOf(*route), route);
}

}  // namespace strata::bgp
