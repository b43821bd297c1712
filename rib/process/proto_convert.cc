#include "rib/process/proto_convert.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace strata::rib {

StatusOr<RibRoute> RouteFromProto(const v1::RouteEntry& e) {
  if (!e.has_prefix()) return InvalidArgument("route without a prefix");
  auto prefix = ipc::PrefixFromProto(e.prefix(), "prefix");
  if (!prefix.ok()) return prefix.status();
  RouteAttrs a;
  auto type = ipc::RouteTypeFromProto(e.type(), "type");
  if (!type.ok()) return type.status();
  a.type = type->value_or(RouteType::kUnicast);
  a.metric = e.metric();
  a.tag = e.tag();
  a.ifname = e.interface();
  if (e.has_admin_distance()) {
    a.admin_distance = e.admin_distance();
    a.own_distance = true;
  }
  // The next hops in order: `nexthop`, then the multipath ones (the first of which stands for
  // `nexthop` when it is unset).
  std::vector<IpAddr> hops;
  if (e.has_nexthop()) {
    auto nexthop = ipc::AddrFromProto(e.nexthop(), "nexthop");
    if (!nexthop.ok()) return nexthop.status();
    hops.push_back(*nexthop);
  }
  for (const auto& m : e.multipath_nexthops()) {
    auto hop = ipc::AddrFromProto(m, "multipath_nexthops");
    if (!hop.ok()) return hop.status();
    hops.push_back(*hop);
  }
  if (e.weights_size() > 0 && static_cast<size_t>(e.weights_size()) != hops.size()) {
    return InvalidArgument("route " + prefix->ToString() + " has " +
                           std::to_string(e.weights_size()) + " weights for " +
                           std::to_string(hops.size()) + " next hops");
  }
  std::vector<uint16_t> weights;
  for (uint32_t w : e.weights()) {
    if (w < 1 || w > kMaxWeight) {
      return InvalidArgument("route " + prefix->ToString() + ": weight " + std::to_string(w) +
                             " is not 1..256");
    }
    weights.push_back(static_cast<uint16_t>(w));
  }
  weights.resize(hops.size(), 1);
  if (hops.empty()) {
    // A route that drops, or an interface route: no gateway.
    if (a.type == RouteType::kUnicast && a.ifname.empty()) {
      return InvalidArgument("route " + prefix->ToString() + " has no nexthop");
    }
    a.nexthop = IpAddr::Zero(prefix->family());
  } else {
    a.nexthop = hops[0];
    a.weight = weights[0];
  }
  if (hops.size() > 1) {
    Multipath more;
    more.reserve(hops.size() - 1);
    for (size_t i = 1; i < hops.size(); ++i) {
      more.push_back(MultipathHop{hops[i], nullptr, a.ifname, weights[i]});
    }
    a.multipath = MakeMultipath(std::move(more));
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
  out->set_type(ipc::RouteTypeToProto(r.attrs().type));
  out->set_weight(r.attrs().weight);
  if (const MultipathRef& m = r.multipath()) {
    for (const MultipathHop& hop : *m) {
      v1::MultipathNexthop* o = out->add_multipath();
      o->set_weight(hop.weight);
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
