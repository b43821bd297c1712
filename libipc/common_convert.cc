#include "libipc/common_convert.h"

#include <cstdint>
#include <span>
#include <string>

namespace strata::ipc {

namespace {

std::span<const uint8_t> BytesOf(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

}  // namespace

StatusOr<IpAddr> AddrFromProto(const common::v1::IpAddress& a, std::string_view field) {
  auto addr = IpAddr::FromBytes(BytesOf(a.addr()));
  if (!addr.ok()) {
    return InvalidArgument(std::string(field) + ": an address must have 4 or 16 bytes, not " +
                           std::to_string(a.addr().size()));
  }
  return addr;
}

StatusOr<IpPrefix> PrefixFromProto(const common::v1::IpPrefix& p, std::string_view field) {
  auto addr = IpAddr::FromBytes(BytesOf(p.addr()));
  if (!addr.ok()) {
    return InvalidArgument(std::string(field) + ": a prefix address must have 4 or 16 bytes, not " +
                           std::to_string(p.addr().size()));
  }
  if (p.len() > static_cast<uint32_t>(addr->bit_length())) {
    return InvalidArgument(std::string(field) + ": prefix length " + std::to_string(p.len()) +
                           " is too long for " + addr->ToString());
  }
  auto prefix = IpPrefix::MakeStrict(*addr, static_cast<int>(p.len()));
  if (!prefix.ok()) {
    return InvalidArgument(std::string(field) + ": " + prefix.status().message());
  }
  return prefix;
}

void AddrToProto(const IpAddr& a, common::v1::IpAddress* out) {
  const auto b = a.bytes();
  out->set_addr(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
}

void PrefixToProto(const IpPrefix& p, common::v1::IpPrefix* out) {
  const auto b = p.addr().bytes();
  out->set_addr(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
  out->set_len(static_cast<uint32_t>(p.len()));
}

StatusOr<std::optional<RouteType>> RouteTypeFromProto(common::v1::RouteType t,
                                                      std::string_view field) {
  switch (t) {
    case common::v1::ROUTE_TYPE_UNSPECIFIED:
      return std::optional<RouteType>();
    case common::v1::ROUTE_TYPE_UNICAST:
      return std::optional<RouteType>(RouteType::kUnicast);
    case common::v1::ROUTE_TYPE_BLACKHOLE:
      return std::optional<RouteType>(RouteType::kBlackhole);
    case common::v1::ROUTE_TYPE_UNREACHABLE:
      return std::optional<RouteType>(RouteType::kUnreachable);
    case common::v1::ROUTE_TYPE_PROHIBIT:
      return std::optional<RouteType>(RouteType::kProhibit);
    default:
      return InvalidArgument(std::string(field) + ": unknown route type " +
                             std::to_string(static_cast<int>(t)));
  }
}

common::v1::RouteType RouteTypeToProto(RouteType t) {
  switch (t) {
    case RouteType::kUnicast:
      return common::v1::ROUTE_TYPE_UNICAST;
    case RouteType::kBlackhole:
      return common::v1::ROUTE_TYPE_BLACKHOLE;
    case RouteType::kUnreachable:
      return common::v1::ROUTE_TYPE_UNREACHABLE;
    case RouteType::kProhibit:
      return common::v1::ROUTE_TYPE_PROHIBIT;
  }
  return common::v1::ROUTE_TYPE_UNICAST;
}

}  // namespace strata::ipc
