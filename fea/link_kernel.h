// LinkKernel: what the FEA changes in the kernel's links: it makes and deletes VRF devices,
// enslaves interfaces to them and releases them, and guards a VRF's table. Behind an
// interface so that the VRF logic (VrfDevices) runs in memory in tests (FakeLinkKernel) and
// against Linux in production (netlink::NetlinkLinkKernel).
//
// Contract: every call is synchronous and says whether the kernel took it; what the kernel
// then reports about the links (RTM_NEWLINK events) reaches the InterfaceTable later, through
// the link monitor, never from inside these calls.
// Threading: the io_context thread.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"

namespace strata::fea {

class LinkKernel {
 public:
  virtual ~LinkKernel() = default;
  // Makes VRF device `name` on kernel table `table`, with `alias` as its IFLA_IFALIAS, and sets
  // it up. Returns its ifindex; UNIMPLEMENTED when the kernel has no VRF devices.
  virtual StatusOr<uint32_t> CreateVrf(const std::string& name, uint32_t table,
                                       const std::string& alias) = 0;
  virtual Status SetUp(uint32_t ifindex) = 0;
  // Enslaves `ifindex` to `master` (a VRF device); 0 releases it to the default VRF.
  virtual Status SetMaster(uint32_t ifindex, uint32_t master) = 0;
  virtual Status DeleteLink(uint32_t ifindex) = 0;
  // The guard of a VRF table: an unreachable default route (IPv4 and IPv6) of the lowest
  // priority, so that a lookup finding nothing in the VRF's table ends there instead of going
  // on to the next rule (the main table). Idempotent; deleting an absent guard is OK.
  virtual Status AddGuard(uint32_t table) = 0;
  virtual Status DeleteGuard(uint32_t table) = 0;
  // Without VRF devices: the policy rule `iif IFNAME lookup TABLE` (IPv4 and IPv6), so that
  // what arrives on the interface is forwarded with the table. Adding one that exists and
  // deleting one that does not are OK.
  virtual Status AddIifRule(const std::string& iif, uint32_t table) = 0;
  virtual Status DeleteIifRule(const std::string& iif, uint32_t table) = 0;
};

}  // namespace strata::fea
