#include "fea/vrf_devices.h"

#include <algorithm>
#include <vector>

namespace strata::fea {
namespace {

std::string Alias(const std::string& vr) { return std::string(VrfDevices::kAliasPrefix) + vr; }

bool MadeByStrata(const Interface& link) {
  return link.link.alias.starts_with(VrfDevices::kAliasPrefix);
}

}  // namespace

VrfDevices::VrfDevices(LinkKernel* kernel, const InterfaceTable& interfaces)
    : kernel_(kernel), interfaces_(interfaces), log_(MakeLogger("fea.vrf")) {}

void VrfDevices::Check(const Status& s, const std::string& what) {
  if (s.ok()) return;
  ++errors_;
  log_->error("{}: {}", what, s.ToString());
}

const VrfDevice* VrfDevices::Find(const std::string& vr) const {
  auto it = devices_.find(vr);
  return it == devices_.end() ? nullptr : &it->second;
}

Status VrfDevices::Ensure(const std::string& vr, uint32_t table, const std::string& device) {
  if (kernel_ == nullptr) return Status();
  auto it = devices_.find(vr);
  if (table == 0 || table == kMainTable) {
    if (table == kMainTable) {
      log_->info("VR {}: table 254 is the main table, the kernel's default VRF: no VRF device", vr);
    }
    if (it != devices_.end()) Remove(vr);
    return Status();
  }
  if (!device.empty()) {
    if (Status s = CheckInterfaceName(device); !s.ok()) return s;
  }
  // "" keeps the name the VR's device has (a table change names none), else the VR's.
  std::string name = device.empty() ? vr : device;
  if (it != devices_.end()) {
    VrfDevice& dev = it->second;
    if (device.empty() && !dev.name.empty()) name = dev.name;
    if (dev.rules && dev.table == table) {
      EnslaveBound(dev);
      return Status();
    }
    if ((device.empty() || device == dev.name) && dev.table == table) {
      EnslaveBound(dev);
      return Status();
    }
    if (dev.adopted) {
      return FailedPrecondition("VRF device " + dev.name + " (table " + std::to_string(dev.table) +
                                ") was not made by Strata: Linux cannot change its table or "
                                "name; delete it by hand (ip link del " +
                                dev.name + ") or leave VR " + vr + " as it is");
    }
    Remove(vr);  // made again below, on the new table or under the new name
  }
  auto dev = Acquire(vr, table, name);
  if (!dev.ok() && dev.status().code() == StatusCode::kUnimplemented) {
    if (!no_vrf_) {
      log_->warn(
          "the kernel has no VRF devices (CONFIG_NET_VRF): VRs' interfaces are steered "
          "to their tables by ip rules (iif); the VRs' own sockets use the main table");
    }
    no_vrf_ = true;
    VrfDevice rules;
    rules.vr = vr;
    rules.table = table;
    rules.rules = true;
    dev = std::move(rules);
  }
  if (!dev.ok()) return dev.status();
  Check(kernel_->AddGuard(table), "VR " + vr + ": guard of table " + std::to_string(table));
  auto& stored = devices_[vr] = std::move(*dev);
  EnslaveBound(stored);
  return Status();
}

StatusOr<VrfDevice> VrfDevices::Acquire(const std::string& vr, uint32_t table,
                                        const std::string& name) {
  if (Status s = CheckInterfaceName(name); !s.ok()) {
    return InvalidArgument("VR " + vr + ": " + s.message() + "; give it a vrf-device name");
  }
  for (const auto& [other, dev] : devices_) {
    if (dev.name == name) {
      return AlreadyExists("VRF device " + name + " belongs to VR " + other);
    }
  }
  VrfDevice dev{vr, name, table, 0, false, false, {}};
  if (no_vrf_) return Unimplemented("the kernel has no VRF devices");
  // A device bound to the table already: adopted.
  for (const Interface* link : interfaces_.List("")) {
    if (link->link.kind != "vrf" || link->link.vrf_table != table) continue;
    if (deleted_.contains(link->link.ifindex)) continue;
    if (link->link.name != name) {
      return FailedPrecondition("kernel table " + std::to_string(table) +
                                " already has VRF device " + link->link.name +
                                ": name it as the VR's vrf-device, or delete it");
    }
    dev.ifindex = link->link.ifindex;
    dev.adopted = link->link.alias != Alias(vr);
    if (!link->link.admin_up) Check(kernel_->SetUp(dev.ifindex), "setting " + name + " up");
    log_->info("VR {}: VRF device {} (table {}) adopted{}", vr, name, table,
               dev.adopted ? ", not made by Strata: it stays when the VR goes" : "");
    return dev;
  }
  if (const Interface* link = interfaces_.Find(name);
      link != nullptr && !deleted_.contains(link->link.ifindex)) {
    if (link->link.kind != "vrf") {
      return FailedPrecondition("an interface named " + name +
                                " exists and is not a VRF device: give VR " + vr +
                                " another vrf-device name");
    }
    if (!MadeByStrata(*link)) {
      return FailedPrecondition(
          "VRF device " + name + " is bound to table " + std::to_string(link->link.vrf_table) +
          ", not made by Strata; delete it or give VR " + vr + " another vrf-device name");
    }
    // Strata's, left on another table (a table change while the FEA was down): made again.
    Delete(link->link.ifindex, "stale VRF device " + name);
  }
  auto index = kernel_->CreateVrf(name, table, Alias(vr));
  if (!index.ok()) return index.status();
  dev.ifindex = *index;
  log_->info("VR {}: VRF device {} made on table {}", vr, name, table);
  return dev;
}

void VrfDevices::SetMaster(const Interface& iface, uint32_t master) {
  Check(kernel_->SetMaster(iface.link.ifindex, master),
        master == 0 ? "releasing " + iface.link.name : "enslaving " + iface.link.name);
  if (master != 0) log_->info("{} enslaved to VRF device {}", iface.link.name, master);
}

void VrfDevices::Delete(uint32_t ifindex, const std::string& what) {
  const Status s = kernel_->DeleteLink(ifindex);
  Check(s, "deleting " + what);
  if (s.ok()) deleted_.insert(ifindex);
}

void VrfDevices::AddRule(VrfDevice& dev, const std::string& iface) {
  const Status s = kernel_->AddIifRule(iface, dev.table);
  Check(s, "VR " + dev.vr + ": rule iif " + iface);
  if (s.ok() && dev.ruled.insert(iface).second) {
    log_->info("VR {}: packets from {} use table {} (ip rule)", dev.vr, iface, dev.table);
  }
}

void VrfDevices::DeleteRule(VrfDevice& dev, const std::string& iface) {
  Check(kernel_->DeleteIifRule(iface, dev.table), "VR " + dev.vr + ": deleting rule iif " + iface);
  dev.ruled.erase(iface);
}

void VrfDevices::EnslaveBound(VrfDevice& dev) {
  if (dev.rules) {
    for (const Interface* iface : interfaces_.List(dev.vr)) {
      if (!dev.ruled.contains(iface->link.name)) AddRule(dev, iface->link.name);
    }
    return;
  }
  for (const Interface* iface : interfaces_.List(dev.vr)) {
    if (iface->link.master != dev.ifindex) SetMaster(*iface, dev.ifindex);
  }
}

void VrfDevices::Remove(const std::string& vr) {
  if (kernel_ == nullptr) return;
  auto it = devices_.find(vr);
  if (it == devices_.end()) return;
  VrfDevice dev = it->second;
  devices_.erase(it);
  if (dev.rules) {
    for (const std::string& iface : std::set<std::string>(dev.ruled)) DeleteRule(dev, iface);
    Check(kernel_->DeleteGuard(dev.table), "VR " + vr + ": deleting the guard");
    return;
  }
  for (const Interface* iface : interfaces_.List("")) {
    if (iface->link.master == dev.ifindex && dev.ifindex != 0) SetMaster(*iface, 0);
  }
  Check(kernel_->DeleteGuard(dev.table), "VR " + vr + ": deleting the guard");
  if (dev.adopted) {
    log_->info("VR {}: VRF device {} left in place (not made by Strata)", vr, dev.name);
    return;
  }
  Delete(dev.ifindex, "VR " + vr + ": VRF device " + dev.name);
  log_->info("VR {}: VRF device {} deleted", vr, dev.name);
}

void VrfDevices::RemoveAll() {
  std::vector<std::string> vrs;
  for (const auto& [vr, dev] : devices_) vrs.push_back(vr);
  for (const std::string& vr : vrs) Remove(vr);
}

void VrfDevices::OnInterfaceChange(const InterfaceChange& c) {
  if (kernel_ == nullptr) return;
  const Interface& iface = *c.iface;
  if (c.removed) deleted_.erase(iface.link.ifindex);
  if (iface.link.kind == "vrf") {
    for (auto& [vr, dev] : devices_) {
      if (dev.name != iface.link.name) continue;
      if (c.removed && dev.ifindex == iface.link.ifindex) {
        log_->warn("VR {}: VRF device {} deleted from outside; making it again", vr, dev.name);
        const VrfDevice gone = dev;
        devices_.erase(vr);
        Check(Ensure(gone.vr, gone.table, gone.name), "VR " + gone.vr + ": VRF device again");
        return;
      }
      if (!c.removed) dev.ifindex = iface.link.ifindex;
      return;
    }
    return;
  }
  if (c.removed) return;
  if (auto it = devices_.find(iface.vr); it != devices_.end() && it->second.rules) {
    if (!it->second.ruled.contains(iface.link.name)) AddRule(it->second, iface.link.name);
  }
  if (auto it = devices_.find(c.old_vr); it != devices_.end() && it->second.rules &&
                                         iface.vr != c.old_vr &&
                                         it->second.ruled.contains(iface.link.name)) {
    DeleteRule(it->second, iface.link.name);
  }
  if (!iface.vr.empty()) {
    const VrfDevice* dev = Find(iface.vr);
    if (dev != nullptr && dev->ifindex != 0 && iface.link.master != dev->ifindex) {
      SetMaster(iface, dev->ifindex);
    }
    return;
  }
  if (c.old_vr.empty()) return;
  const VrfDevice* old = Find(c.old_vr);
  if (old != nullptr && !old->rules && iface.link.master == old->ifindex) SetMaster(iface, 0);
}

void VrfDevices::Cleanup() {
  if (kernel_ == nullptr) return;
  std::vector<std::pair<uint32_t, std::string>> stale;
  for (const Interface* link : interfaces_.List("")) {
    if (link->link.kind != "vrf" || !MadeByStrata(*link)) continue;
    const bool held = std::any_of(devices_.begin(), devices_.end(), [&](const auto& d) {
      return d.second.ifindex == link->link.ifindex;
    });
    if (!held) stale.emplace_back(link->link.ifindex, link->link.alias.substr(kAliasPrefix.size()));
  }
  for (const auto& [index, vr] : stale) {
    const Interface* link = interfaces_.Find(index);
    Check(kernel_->DeleteGuard(link->link.vrf_table), "deleting a stale guard");
    log_->info("VRF device {} of VR {}, no longer configured, deleted", link->link.name, vr);
    Delete(index, "stale VRF device " + link->link.name);
  }
  for (const auto& [vr, dev] : devices_) {
    if (dev.rules) continue;
    for (const Interface* iface : interfaces_.List("")) {
      if (iface->link.master == dev.ifindex && iface->vr != vr) SetMaster(*iface, 0);
    }
  }
}

}  // namespace strata::fea
