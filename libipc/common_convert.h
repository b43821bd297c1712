// Conversions between common/'s value types (IpAddr, IpPrefix) and the common.v1 protobuf messages
// every interface uses for addresses and prefixes. Used by the IPC-facing code of each process
// (service adapters, senders), so the cores never see protobuf. Every conversion of untrusted
// input returns an error value naming the field. Threading: pure functions.
#pragma once

#include <string_view>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "common/status.h"
#include "libipc/interfaces/common.pb.h"

namespace strata::ipc {

// `field` names the argument in error messages.
StatusOr<IpAddr> AddrFromProto(const common::v1::IpAddress& a, std::string_view field);
// Refuses host bits and lengths beyond the family's.
StatusOr<IpPrefix> PrefixFromProto(const common::v1::IpPrefix& p, std::string_view field);
void AddrToProto(const IpAddr& a, common::v1::IpAddress* out);
void PrefixToProto(const IpPrefix& p, common::v1::IpPrefix* out);

}  // namespace strata::ipc
