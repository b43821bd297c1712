// VrfDevices: the Linux VRF device of each VR with a kernel table (VRF-lite), so that the
// kernel forwards what arrives on a VR's interfaces with the VR's table.
//
//   VR red (table 100) --- VRF device "red" (IFLA_VRF_TABLE 100) <--master-- eth1, eth2
//
// - Ensure(vr, table, device) gives the VR a VRF device on its table: one already bound to
//   that table is adopted (whatever made it), else a device named `device` (the VR's name by
//   default, as FRR names VRF devices after VRFs) is made, marked with the alias
//   "strata vr NAME" and set up; the table gets its guard (LinkKernel::AddGuard); every
//   interface bound to the VR is enslaved. Table 0 (no kernel table) and 254 (the main table,
//   which is the kernel's default VRF) need no device: a device the VR had is removed.
//   Linux cannot change a VRF's table: a table change deletes the device Strata made and makes
//   it again on the new table (an adopted one is refused: FAILED_PRECONDITION).
// - Remove(vr) releases the VR's interfaces, deletes the guard and deletes the device if Strata
//   made it (the alias says so, also after a restart). A device found there is left: the
//   operator or another daemon made it and may use it for more than this VR (sockets bound to
//   it, `ip vrf exec`, interfaces of their own).
// - OnInterfaceChange() keeps the kernel equal to the bindings: an interface bound to a VR with
//   a device, and not its slave, is enslaved (when bound, when it appears, when something else
//   released it); an interface unbound from a VR is released from that VR's device. A VR's
//   device deleted by someone else is made again.
// - After a restart nothing is made again: Ensure adopts the device and the slaves are already
//   enslaved (no message goes to the kernel, so forwarding never stops). Cleanup(), once the
//   configuration is in, deletes the devices Strata made that no VR has any more and releases
//   the slaves no VR binds.
// A kernel without VRF devices (CONFIG_NET_VRF off: CreateVrf is UNIMPLEMENTED) gets the older
// policy routing instead: a rule `iif IFNAME lookup TABLE` per bound interface (added on
// binding, deleted on unbinding and with the VR) and the guard. Forwarding then follows the VR's
// table, but the VR's own sockets (BGP) use the main table, and the VRs' interface addresses
// share the kernel's local table; rules a previous run left for interfaces no longer bound stay.
// Without a LinkKernel (--no-kernel) nothing is done.
// Threading: the io_context thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "common/log.h"
#include "common/status.h"
#include "common/vrf_name.h"
#include "fea/interface_table.h"
#include "fea/link_kernel.h"

namespace strata::fea {

struct VrfDevice {
  std::string vr;
  std::string name;
  uint32_t table = 0;
  uint32_t ifindex = 0;
  bool adopted = false;  // there before Strata: Remove() leaves it
  // The kernel has no VRF devices: the VR's interfaces are steered to its table by the rules
  // `iif IFNAME lookup TABLE` instead (name "" and ifindex 0), one per interface in `ruled`.
  bool rules = false;
  std::set<std::string> ruled;
};

class VrfDevices {
 public:
  static constexpr std::string_view kAliasPrefix = "strata vr ";

  VrfDevices(LinkKernel* kernel, const InterfaceTable& interfaces);

  // INVALID_ARGUMENT for a bad device name; FAILED_PRECONDITION when the name is taken by
  // another link, or the table has a device of another name; ALREADY_EXISTS when the device
  // is another VR's.
  Status Ensure(const std::string& vr, uint32_t table, const std::string& device);
  void Remove(const std::string& vr);
  void OnInterfaceChange(const InterfaceChange& change);
  // Deletes the devices Strata made that no VR has now, and releases the slaves of the VRs'
  // devices that are bound to no VR or to another.
  void Cleanup();
  // Removes every VR's device (a clean stop).
  void RemoveAll();

  const VrfDevice* Find(const std::string& vr) const;
  uint64_t errors() const { return errors_; }

 private:
  // The device record `vr` gets, adopted or made.
  StatusOr<VrfDevice> Acquire(const std::string& vr, uint32_t table, const std::string& device);
  void EnslaveBound(VrfDevice& dev);
  void SetMaster(const Interface& iface, uint32_t master);
  void Delete(uint32_t ifindex, const std::string& what);
  void AddRule(VrfDevice& dev, const std::string& iface);
  void DeleteRule(VrfDevice& dev, const std::string& iface);
  void Check(const Status& s, const std::string& what);

  LinkKernel* kernel_;
  const InterfaceTable& interfaces_;
  std::shared_ptr<spdlog::logger> log_;
  std::map<std::string, VrfDevice> devices_;  // by VR
  // Devices deleted whose removal the link monitor has not reported yet: not adoptable.
  std::set<uint32_t> deleted_;
  uint64_t errors_ = 0;
  bool no_vrf_ = false;  // the kernel said it has no VRF devices
};

}  // namespace strata::fea
