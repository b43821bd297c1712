#include "rib/connected_routes.h"

#include "rib/proto_convert.h"

namespace strata::rib {

namespace fcpb = strata::fea_client::v1;

ConnectedRoutes::ConnectedRoutes(ipc::Router& router, Rib& rib, std::string vr, std::string self,
                                 std::string fea_target, std::function<void()> changed)
    : router_(router),
      rib_(rib),
      vr_(std::move(vr)),
      self_(std::move(self)),
      fea_(router, std::move(fea_target)),
      log_(MakeLogger("rib." + vr_ + ".connected")),
      changed_(std::move(changed)) {}

void ConnectedRoutes::watch() {
  fea::v1::WatchInterfacesRequest req;
  req.set_watcher(self_);
  req.set_vr(vr_);
  fea_.WatchInterfaces(req, [this, alive = std::weak_ptr<bool>(self_alive_)](
                                const Status& s, const fea::v1::WatchInterfacesReply&) {
    if (alive.expired() || s.ok()) return;
    log_->warn("watch_interfaces for VR {} failed: {}", vr_, s.ToString());
  });
}

void ConnectedRoutes::InterfaceEvent(const fcpb::InterfaceEventRequest& request,
                                     ipc::Responder<fcpb::InterfaceEventReply> reply) {
  const auto& ifc = request.interface();
  if (ifc.name().empty()) {
    reply.Fail(InvalidArgument("interface event without an interface name"));
    return;
  }
  if (request.change() != fcpb::INTERFACE_CHANGE_UPDATED &&
      request.change() != fcpb::INTERFACE_CHANGE_REMOVED) {
    reply.Fail(InvalidArgument("change must be INTERFACE_CHANGE_UPDATED or _REMOVED"));
    return;
  }
  std::map<IpPrefix, Subnet> subnets;
  if (request.change() == fcpb::INTERFACE_CHANGE_UPDATED && ifc.up() && ifc.vr() == vr_) {
    for (int i = 0; i < ifc.addresses_size(); ++i) {
      const auto& a = ifc.addresses(i);
      // The prefix keeps host bits (it is the address with its length): mask them here.
      common::v1::IpAddress raw;
      raw.set_addr(a.prefix().addr());
      auto addr = AddrFromProto(raw, "addresses.prefix");
      if (!addr.ok()) {
        reply.Fail(addr.status());
        return;
      }
      auto prefix = IpPrefix::Make(*addr, static_cast<int>(a.prefix().len()));
      if (a.prefix().len() > static_cast<uint32_t>(addr->bit_length()) || !prefix.ok()) {
        reply.Fail(
            InvalidArgument("addresses.prefix: bad length " + std::to_string(a.prefix().len())));
        return;
      }
      subnets[*prefix] = Subnet{*addr};
    }
  }
  ++events_;
  set_interface(ifc.name(), std::move(subnets));
  if (changed_) changed_();
  reply(fcpb::InterfaceEventReply());
}

void ConnectedRoutes::set_interface(const std::string& ifname, std::map<IpPrefix, Subnet> subnets) {
  std::map<IpPrefix, Subnet> old;
  if (auto it = interfaces_.find(ifname); it != interfaces_.end()) old = std::move(it->second);
  if (subnets.empty()) {
    interfaces_.erase(ifname);
  } else {
    interfaces_[ifname] = subnets;
  }
  for (const auto& [prefix, subnet] : old) {
    auto now = subnets.find(prefix);
    if (now == subnets.end()) {
      withdraw(ifname, prefix);
    } else if (!(now->second.address == subnet.address) && holder_[prefix] == ifname) {
      announce(ifname, prefix, now->second);  // our address on it changed
    }
  }
  for (const auto& [prefix, subnet] : subnets) {
    if (!old.contains(prefix)) announce(ifname, prefix, subnet);
  }
}

void ConnectedRoutes::announce(const std::string& ifname, const IpPrefix& prefix,
                               const Subnet& subnet) {
  auto held = holder_.find(prefix);
  if (held != holder_.end() && held->second != ifname) return;  // another interface holds it
  RibRoute r;
  r.prefix = prefix;
  r.nexthop = subnet.address;
  r.ifname = ifname;
  const std::string protocol(kConnectedProtocol);
  Status s = held == holder_.end() ? rib_.add_route(protocol, std::move(r))
                                   : rib_.replace_route(protocol, std::move(r));
  if (!s.ok()) {
    log_->warn("connected route {} on {}: {}", prefix.ToString(), ifname, s.ToString());
    return;
  }
  holder_[prefix] = ifname;
}

void ConnectedRoutes::withdraw(const std::string& ifname, const IpPrefix& prefix) {
  auto held = holder_.find(prefix);
  if (held == holder_.end() || held->second != ifname) return;
  // Another interface on the same subnet takes over.
  for (const auto& [other, subnets] : interfaces_) {
    auto it = subnets.find(prefix);
    if (other == ifname || it == subnets.end()) continue;
    held->second = other;
    announce(other, prefix, it->second);
    return;
  }
  holder_.erase(held);
  if (Status s = rib_.delete_route(std::string(kConnectedProtocol), prefix); !s.ok()) {
    log_->warn("withdrawing connected route {}: {}", prefix.ToString(), s.ToString());
  }
}

}  // namespace strata::rib
