// Conversions between common/'s value types (IpAddr, IpPrefix, RouteType) and the common.v1
// protobuf types every interface uses for addresses, prefixes and route types. Used by the
// IPC-facing code of each process (service adapters, senders), so the cores never see protobuf.
// Every conversion of untrusted input returns an error value naming the field. Threading: pure
// functions.
#pragma once

#include <optional>
#include <string_view>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "common/route_type.h"
#include "common/status.h"
#include "libipc/interfaces/common.pb.h"

namespace strata::ipc {

// `field` names the argument in error messages.
StatusOr<IpAddr> AddrFromProto(const common::v1::IpAddress& a, std::string_view field);
// Refuses host bits and lengths beyond the family's.
StatusOr<IpPrefix> PrefixFromProto(const common::v1::IpPrefix& p, std::string_view field);
void AddrToProto(const IpAddr& a, common::v1::IpAddress* out);
void PrefixToProto(const IpPrefix& p, common::v1::IpPrefix* out);
// nullopt for ROUTE_TYPE_UNSPECIFIED (the caller's default applies); an error for a value this
// build does not know.
StatusOr<std::optional<RouteType>> RouteTypeFromProto(common::v1::RouteType t,
                                                      std::string_view field);
common::v1::RouteType RouteTypeToProto(RouteType t);

}  // namespace strata::ipc
