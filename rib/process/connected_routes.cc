#include "rib/process/connected_routes.h"

#include <vector>

#include "rib/process/proto_convert.h"

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
  // Interfaces removed while the FEA was away get no event: compare with its full list.
  const uint64_t id = ++sync_id_;
  touched_since_list_.clear();
  fea::v1::ListInterfacesRequest list;
  list.set_vr(vr_);
  fea_.ListInterfaces(list, [this, id, alive = std::weak_ptr<bool>(self_alive_)](
                                const Status& s, const fea::v1::ListInterfacesReply& reply) {
    if (alive.expired() || id != sync_id_) return;  // gone, or a newer watch() took over
    if (!s.ok()) {
      log_->warn("list_interfaces for VR {} failed: {}", vr_, s.ToString());
      return;
    }
    reconcile(reply);
    if (changed_) changed_();
    if (on_synced_) on_synced_();
  });
}

StatusOr<std::map<IpPrefix, ConnectedRoutes::Subnet>> ConnectedRoutes::subnets_of(
    const fea::v1::Interface& ifc) const {
  std::map<IpPrefix, Subnet> subnets;
  if (!ifc.up() || ifc.vr() != vr_) return subnets;
  for (int i = 0; i < ifc.addresses_size(); ++i) {
    const auto& a = ifc.addresses(i);
    // The prefix keeps host bits (it is the address with its length): mask them here.
    common::v1::IpAddress raw;
    raw.set_addr(a.prefix().addr());
    auto addr = ipc::AddrFromProto(raw, "addresses.prefix");
    if (!addr.ok()) return addr.status();
    auto prefix = IpPrefix::Make(*addr, static_cast<int>(a.prefix().len()));
    if (a.prefix().len() > static_cast<uint32_t>(addr->bit_length()) || !prefix.ok()) {
      return InvalidArgument("addresses.prefix: bad length " + std::to_string(a.prefix().len()));
    }
    subnets[*prefix] = Subnet{*addr};
  }
  return subnets;
}

void ConnectedRoutes::reconcile(const fea::v1::ListInterfacesReply& list) {
  ++resyncs_;
  bool gained = false;
  std::set<std::string> listed;
  for (const auto& ifc : list.interfaces()) {
    if (ifc.name().empty()) continue;
    listed.insert(ifc.name());
    if (touched_since_list_.contains(ifc.name())) continue;
    auto subnets = subnets_of(ifc);
    if (!subnets.ok()) {
      log_->warn("list_interfaces: interface {}: {}", ifc.name(), subnets.status().ToString());
      continue;
    }
    if (gains_subnet(ifc.name(), *subnets)) gained = true;
    set_interface(ifc.name(), std::move(*subnets));
  }
  std::vector<std::string> gone;
  for (const auto& [name, subnets] : interfaces_) {
    if (!listed.contains(name) && !touched_since_list_.contains(name)) gone.push_back(name);
  }
  for (const std::string& name : gone) {
    log_->info("interface {} is gone from VR {}: withdrawing its connected routes", name, vr_);
    ++resync_removals_;
    set_interface(name, {});
  }
  if (gained) notify_gained();
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
  if (request.change() == fcpb::INTERFACE_CHANGE_UPDATED) {
    auto parsed = subnets_of(ifc);
    if (!parsed.ok()) {
      reply.Fail(parsed.status());
      return;
    }
    subnets = std::move(*parsed);
  }
  touched_since_list_.insert(ifc.name());
  ++events_;
  const bool gained = gains_subnet(ifc.name(), subnets);
  set_interface(ifc.name(), std::move(subnets));
  if (changed_) changed_();
  if (gained) notify_gained();
  reply(fcpb::InterfaceEventReply());
}

void ConnectedRoutes::notify_gained() {
  ++subnet_gains_;
  if (on_gained_) on_gained_();
}

bool ConnectedRoutes::gains_subnet(const std::string& ifname,
                                   const std::map<IpPrefix, Subnet>& subnets) const {
  auto it = interfaces_.find(ifname);
  for (const auto& [prefix, subnet] : subnets) {
    if (it == interfaces_.end() || !it->second.contains(prefix)) return true;
  }
  return false;
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
  RouteAttrs a;
  a.nexthop = subnet.address;
  a.ifname = ifname;
  RibRoute r(prefix, a);
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
