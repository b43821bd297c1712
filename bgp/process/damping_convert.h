// bgp.proto's damping messages <-> DampingParams and the pipeline's damping entries. Untrusted
// input gets an error naming the field. Threading: pure functions.
#pragma once

#include <optional>

#include "bgp/pipeline/bgp_pipeline.h"
#include "libipc/interfaces/bgp.pb.h"

namespace strata::bgp {

// nullopt when `enabled` is false; else the parameters (0: default) after range checks
// (minutes for half_life and max_suppress) and ValidateDampingParams.
StatusOr<std::optional<DampingParams>> DampingParamsFromProto(const v1::SetDampingRequest& r);

void DampedRouteToProto(const IpAddr& peer, const DampingStage::Entry& e, v1::DampedRoute* out);

}  // namespace strata::bgp
