#include "bgp/pipeline/rib_out_stage.h"

namespace strata::bgp {

RibMultipath RibOutStage::MultipathOf(const BgpRouteRef& route) const {
  RibMultipath mp;
  if (!decision_) return mp;
  multipath_seen_ = multipath_seen_ || decision_->multipath().enabled();
  mp.enabled = multipath_seen_;
  for (const BgpRouteRef& m : decision_->Multipath(route))
    mp.nexthops.push_back(*m->path().next_hop);
  return mp;
}

void RibOutStage::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  ++installed_;
  sink_.add_route(RibOriginOf(*route), route, MultipathOf(route));
}

void RibOutStage::replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                                BgpStage* /*caller*/) {
  const RibOrigin from = RibOriginOf(*old_route);
  const RibOrigin to = RibOriginOf(*new_route);
  if (from == to) {
    sink_.replace_route(to, old_route, new_route, MultipathOf(new_route));
  } else {
    sink_.delete_route(from, old_route);
    sink_.add_route(to, new_route, MultipathOf(new_route));
  }
}

void RibOutStage::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  --installed_;
  sink_.delete_route(RibOriginOf(*route), route);
}

}  // namespace strata::bgp
