// NetlinkLinkKernel: the LinkKernel on Linux (rtnetlink RTM_NEWLINK / RTM_DELLINK, and
// RTM_NEWROUTE / RTM_DELROUTE for the VRF tables' guards).
//
// Before enslaving an interface it sets the interface's net.ipv6.conf.IFNAME.keep_addr_on_down:
// Linux cycles an interface (down, up) when it joins or leaves a VRF, and without that setting
// the down drops the interface's IPv6 addresses.
// The interface rules (kernels without VRF devices) carry the FEA's protocol (FRA_PROTOCOL) and
// priority kIifRulePriority.
// The guards carry the FEA's route protocol and priority kGuardMetric (as iproute2's
// documentation of VRFs and FRR use), so that no route of the table is ever below them.
// Threading: the io_context thread; calls block while the kernel handles them.
#pragma once

#include <initializer_list>
#include <memory>

#include "fea/link_kernel.h"
#include "fea/netlink/nl_socket.h"
#include "fea/netlink/route_codec.h"

namespace strata::fea::netlink {

// Priority of the interface rules: that of the kernel's l3mdev rule, before main (32766).
inline constexpr uint32_t kIifRulePriority = 1000;

class NetlinkLinkKernel : public LinkKernel {
 public:
  // `protocol`: rtm_protocol of the guards.
  static StatusOr<std::unique_ptr<NetlinkLinkKernel>> Open(uint8_t protocol);

  StatusOr<uint32_t> CreateVrf(const std::string& name, uint32_t table,
                               const std::string& alias) override;
  Status SetUp(uint32_t ifindex) override;
  Status SetMaster(uint32_t ifindex, uint32_t master) override;
  Status DeleteLink(uint32_t ifindex) override;
  Status AddGuard(uint32_t table) override;
  Status DeleteGuard(uint32_t table) override;
  Status AddIifRule(const std::string& iif, uint32_t table) override;
  Status DeleteIifRule(const std::string& iif, uint32_t table) override;

 private:
  NetlinkLinkKernel(std::unique_ptr<NlSocket> sock, uint8_t protocol)
      : sock_(std::move(sock)), protocol_(protocol) {}
  // Sends `msgs` (sequence numbers first_seq, first_seq+1, ...; `count` of them); the first
  // refusal whose errno is not in `fine` as an error naming `what`.
  Status Send(const std::vector<uint8_t>& msgs, uint32_t first_seq, size_t count,
              const std::string& what, std::initializer_list<int> fine = {});
  Status Guard(uint16_t type, uint32_t table);
  Status Rule(uint16_t type, const std::string& iif, uint32_t table);

  std::unique_ptr<NlSocket> sock_;
  uint8_t protocol_;
};

}  // namespace strata::fea::netlink
