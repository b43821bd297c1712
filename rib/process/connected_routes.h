// ConnectedRoutes: keeps the "connected" origin table in step with this VR's interfaces.
//
// Serves fea_client/1.0/interface_event on the RIB's target. After the FEA is ready the process
// calls watch(), which sends fea/1.0/watch_interfaces for this VR; the FEA answers with the
// current interfaces as events, then every change. An interface contributes one connected route
// per address (the subnet, nexthop = our address, interface = its name) while it is up and bound
// to this VR. Two interfaces with the same subnet: the first one announced holds the route; the
// other takes over if it goes. Events with malformed addresses are refused (INVALID_ARGUMENT)
// and change nothing.
// Re-sync: watch() runs on each FEA birth. Watch events only report interfaces that exist, so
// watch() also asks fea/1.0/list_interfaces for the VR and reconciles with the answer: known
// interfaces not listed (removed, or moved out of the VR, while the FEA was away) are withdrawn,
// listed ones are set as listed. An interface that got an event after the list was asked for is
// left to that event (it is at least as recent). Threading: the io_context thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "common/log.h"
#include "libipc/interfaces/fea.strata.h"
#include "libipc/interfaces/fea_client.strata.h"
#include "libipc/router.h"
#include "rib/rib.h"

namespace strata::rib {

class ConnectedRoutes : public fea_client::v1::FeaClientHandler {
 public:
  // `self` is the RIB's own target (the watcher named in watch_interfaces); `changed` runs
  // after each event that changed routes.
  ConnectedRoutes(ipc::Router& router, Rib& rib, std::string vr, std::string self,
                  std::string fea_target, std::function<void()> changed);

  // Subscribes to the FEA's interface events for this VR.
  void watch();
  // Called after an event (or the re-sync's list) gives this VR a connected subnet it did not
  // have: an interface bound to the VR, a link of the VR coming up, an address added to one of
  // its interfaces. The FEA refuses routes whose next hop is on no interface of the VR, so routes
  // it refused before may be accepted now. Not called when subnets only go or stay as they were
  // (an event that changes nothing reachable costs no re-offer).
  void set_on_subnet_gained(std::function<void()> fn) { on_gained_ = std::move(fn); }
  // Called after each reconcile with the FEA's list: the connected routes agree with the FEA.
  void set_on_synced(std::function<void()> fn) { on_synced_ = std::move(fn); }

  void InterfaceEvent(const fea_client::v1::InterfaceEventRequest& request,
                      ipc::Responder<fea_client::v1::InterfaceEventReply> reply) override;

  size_t routes() const { return holder_.size(); }
  uint64_t events() const { return events_; }
  // Interface lists applied, and interfaces withdrawn because the list no longer had them.
  uint64_t resyncs() const { return resyncs_; }
  uint64_t resync_removals() const { return resync_removals_; }
  // Times the VR gained a connected subnet (on_subnet_gained was due).
  uint64_t subnet_gains() const { return subnet_gains_; }

 private:
  struct Subnet {
    IpAddr address;  // our address on it
  };
  // The connected subnets an interface contributes to this VR (none if down or elsewhere).
  StatusOr<std::map<IpPrefix, Subnet>> subnets_of(const fea::v1::Interface& ifc) const;
  // Applies the FEA's full interface list for this VR (answer to list_interfaces).
  void reconcile(const fea::v1::ListInterfacesReply& list);
  // True if `subnets` holds a subnet the interface does not contribute now.
  bool gains_subnet(const std::string& ifname, const std::map<IpPrefix, Subnet>& subnets) const;
  void notify_gained();
  // Replaces the interface's contribution with `subnets` (empty: remove it).
  void set_interface(const std::string& ifname, std::map<IpPrefix, Subnet> subnets);
  void withdraw(const std::string& ifname, const IpPrefix& prefix);
  void announce(const std::string& ifname, const IpPrefix& prefix, const Subnet& subnet);

  ipc::Router& router_;
  Rib& rib_;
  std::string vr_;
  std::string self_;
  fea::v1::FeaClient fea_;
  std::shared_ptr<spdlog::logger> log_;
  std::function<void()> changed_;
  std::function<void()> on_gained_;
  std::function<void()> on_synced_;
  std::map<std::string, std::map<IpPrefix, Subnet>> interfaces_;  // up and in this VR
  std::map<IpPrefix, std::string> holder_;                        // interface holding the route
  uint64_t events_ = 0;
  uint64_t resyncs_ = 0;
  uint64_t resync_removals_ = 0;
  uint64_t subnet_gains_ = 0;
  uint64_t sync_id_ = 0;                      // the list_interfaces answer still awaited
  std::set<std::string> touched_since_list_;  // interfaces with events since it was asked
  std::shared_ptr<bool> self_alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::rib
