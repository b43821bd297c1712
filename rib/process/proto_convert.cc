#include "rib/process/proto_convert.h"

#include <cstdint>
#include <span>
#include <string>

namespace strata::rib {

StatusOr<RibRoute> RouteFromProto(const v1::RouteEntry& e) {
  if (!e.has_prefix()) return InvalidArgument("route without a prefix");
  auto prefix = ipc::PrefixFromProto(e.prefix(), "prefix");
  if (!prefix.ok()) return prefix.status();
  if (!e.has_nexthop()) return InvalidArgument("route " + prefix->ToString() + " has no nexthop");
  auto nexthop = ipc::AddrFromProto(e.nexthop(), "nexthop");
  if (!nexthop.ok()) return nexthop.status();
  RouteAttrs a;
  a.nexthop = *nexthop;
  a.metric = e.metric();
  a.tag = e.tag();
  a.ifname = e.interface();
  if (e.multipath_nexthops_size() > 0) {
    Multipath hops;
    hops.reserve(static_cast<size_t>(e.multipath_nexthops_size()));
    for (const auto& m : e.multipath_nexthops()) {
      auto hop = ipc::AddrFromProto(m, "multipath_nexthops");
      if (!hop.ok()) return hop.status();
      hops.push_back(MultipathHop{*hop, nullptr, Symbol()});
    }
    a.multipath = MakeMultipath(std::move(hops));
  }
  RibRoute r(*prefix, a);
  if (Status s = r.Validate(); !s.ok()) return s;
  return r;
}

void RouteToProto(const RibRoute& r, v1::Route* out) {
  ipc::PrefixToProto(r.prefix, out->mutable_prefix());
  ipc::AddrToProto(r.nexthop(), out->mutable_nexthop());
  if (r.resolution()) ipc::AddrToProto(r.resolution()->nexthop, out->mutable_resolved_nexthop());
  out->set_metric(r.metric());
  out->set_admin_distance(r.admin_distance());
  out->set_protocol(r.protocol().str());
  out->set_tag(r.tag());
  out->set_interface(r.ifname().str());
  if (const MultipathRef& m = r.multipath()) {
    for (const MultipathHop& hop : *m) {
      v1::MultipathNexthop* o = out->add_multipath();
      ipc::AddrToProto(hop.nexthop, o->mutable_nexthop());
      if (hop.resolution) ipc::AddrToProto(hop.resolution->nexthop, o->mutable_resolved_nexthop());
    }
  }
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
