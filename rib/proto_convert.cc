#include "rib/proto_convert.h"

#include <cstdint>
#include <span>
#include <string>

namespace strata::rib {

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

StatusOr<RibRoute> RouteFromProto(const v1::RouteEntry& e) {
  if (!e.has_prefix()) return InvalidArgument("route without a prefix");
  auto prefix = PrefixFromProto(e.prefix(), "prefix");
  if (!prefix.ok()) return prefix.status();
  if (!e.has_nexthop()) return InvalidArgument("route " + prefix->ToString() + " has no nexthop");
  auto nexthop = AddrFromProto(e.nexthop(), "nexthop");
  if (!nexthop.ok()) return nexthop.status();
  RouteAttrs a;
  a.nexthop = *nexthop;
  a.metric = e.metric();
  a.tag = e.tag();
  a.ifname = e.interface();
  RibRoute r(*prefix, a);
  if (Status s = r.Validate(); !s.ok()) return s;
  return r;
}

void RouteToProto(const RibRoute& r, v1::Route* out) {
  PrefixToProto(r.prefix, out->mutable_prefix());
  AddrToProto(r.nexthop(), out->mutable_nexthop());
  if (r.resolution()) AddrToProto(r.resolution()->nexthop, out->mutable_resolved_nexthop());
  out->set_metric(r.metric());
  out->set_admin_distance(r.admin_distance());
  out->set_protocol(r.protocol().str());
  out->set_tag(r.tag());
  out->set_interface(r.ifname().str());
}

StatusOr<ProtocolKind> KindFromProto(v1::ProtocolKind k) {
  switch (k) {
    case v1::PROTOCOL_KIND_IGP:
      return ProtocolKind::kIgp;
    case v1::PROTOCOL_KIND_EGP:
      return ProtocolKind::kEgp;
    default:
      return InvalidArgument("kind must be PROTOCOL_KIND_IGP or PROTOCOL_KIND_EGP");
  }
}

v1::ProtocolKind KindToProto(ProtocolKind k) {
  return k == ProtocolKind::kIgp ? v1::PROTOCOL_KIND_IGP : v1::PROTOCOL_KIND_EGP;
}

}  // namespace strata::rib
