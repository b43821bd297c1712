// OriginAs: the origin AS of a route for route origin validation (RFC 6811 2).
//
// The rightmost AS of the final segment of the AS_PATH if that is an AS_SEQUENCE; NONE (nullopt)
// if it is an AS_SET. Confederation segments are ours, not the origin's, and are skipped: a
// path of nothing else (or an empty one) was originated inside our AS or confederation, whose
// public AS is `own_as` (the local AS, or the confederation identifier).
// Threading: pure function.
#pragma once

#include <cstdint>
#include <optional>

#include "bgp/wire/as_path.h"

namespace strata::bgp {

std::optional<uint32_t> OriginAs(const AsPath& path, uint32_t own_as);

}  // namespace strata::bgp
