// Conversions between the RIB's core types and the generated protobuf types of rib.proto
// (addresses and prefixes: libipc/common_convert.h). Used only by the IPC-facing classes of
// strata-rib (rib_service, the FEA and client senders), so the core never sees protobuf. Every
// conversion of untrusted input returns an error value naming the field. Threading: pure functions.
#pragma once

#include <string_view>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "common/status.h"
#include "libipc/common_convert.h"
#include "libipc/interfaces/rib.pb.h"
#include "rib/rib_route.h"

namespace strata::rib {

// A protocol's route: a prefix; a unicast route a nexthop (or an interface alone: its nexthop
// is then the zero address), of the prefix's family, with as many weights as next hops (or
// none: all 1); a route that drops neither. An admin distance given makes it the route's own.
StatusOr<RibRoute> RouteFromProto(const v1::RouteEntry& e);
void RouteToProto(const RibRoute& r, v1::Route* out);

StatusOr<ProtocolKind> KindFromProto(v1::ProtocolKind k);
v1::ProtocolKind KindToProto(ProtocolKind k);

}  // namespace strata::rib
