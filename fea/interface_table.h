// InterfaceTable: the kernel's interfaces and addresses as the FEA knows them, and each
// interface's binding to a virtual router.
//
// Fed by the netlink link monitor (or by tests) with link and address events and with whole
// snapshots (at start, and after the kernel dropped events); every change that a client could
// see is reported once to the change callback, with the interface as it now is. Bindings are
// kept by interface name, so that an interface deleted and re-created stays in its VR.
// Threading: the io_context thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "fea/link_info.h"

namespace strata::fea {

struct Interface {
  LinkInfo link;
  std::string vr;                   // "" when unbound
  std::vector<AddrInfo> addresses;  // sorted, no duplicates
  bool up() const { return link.admin_up && link.carrier; }
};

struct InterfaceChange {
  const Interface* iface = nullptr;  // the interface now (for a removal: as it was)
  bool removed = false;
  std::string old_vr;         // the binding before the change
  bool was_admin_up = false;  // the link before the change
  bool was_carrier = false;
};

class InterfaceTable {
 public:
  using ChangeCallback = std::function<void(const InterfaceChange&)>;
  void set_on_change(ChangeCallback cb) { on_change_ = std::move(cb); }

  void UpdateLink(const LinkInfo& link);
  void RemoveLink(uint32_t ifindex);
  void AddAddress(const AddrInfo& addr);
  void RemoveAddress(const AddrInfo& addr);
  // Makes the table equal to a complete kernel snapshot, reporting each difference.
  void Sync(const std::vector<LinkInfo>& links, const std::vector<AddrInfo>& addrs);

  // NOT_FOUND for an unknown interface; ALREADY_EXISTS when it is bound to another VR (an
  // interface forwards for one VR: moving it is an unbind, then a bind).
  Status Bind(const std::string& name, const std::string& vr);
  // With `vr`, only a binding to that VR is removed (another VR's stays; either way OK), so an
  // undo cannot take an interface from the VR that owns it. NOT_FOUND for an interface neither
  // bound nor known.
  Status Unbind(const std::string& name, const std::string& vr = "");
  // Unbinds every interface of `vr` (the VR is going away).
  void UnbindAll(const std::string& vr);

  const Interface* Find(const std::string& name) const;
  const Interface* Find(uint32_t ifindex) const;
  // Interfaces bound to `vr` ("" for all interfaces), by ifindex.
  std::vector<const Interface*> List(const std::string& vr) const;
  // The interface of `vr` with an address whose subnet holds `addr` (longest subnet first).
  const Interface* ConnectedTo(const std::string& vr, const IpAddr& addr) const;

 private:
  void Report(const Interface& iface, bool removed, const std::string& old_vr, const LinkInfo& was);

  std::map<uint32_t, Interface> by_index_;
  std::map<std::string, std::string> bindings_;  // interface name -> vr
  ChangeCallback on_change_;
};

}  // namespace strata::fea
