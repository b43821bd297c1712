#include "bgp/pipeline/origin_validation.h"

#include "bgp/rpki/origin_as.h"

namespace strata::bgp {

RovState OriginValidation::Validate(const BgpRoute& route) const {
  if (!vrps) return RovState::kUnverified;
  const std::optional<AsPath>& path = route.path().as_path;
  return vrps->Validate(route.prefix, path ? OriginAs(*path, own_as) : own_as);
}

}  // namespace strata::bgp
