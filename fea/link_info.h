// LinkInfo and AddrInfo: what the kernel says about one interface and one interface address.
// Plain value types produced by the netlink link monitor (or by tests) and consumed by the
// InterfaceTable. Thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/ip_addr.h"
#include "common/mac_addr.h"

namespace strata::fea {

struct LinkInfo {
  uint32_t ifindex = 0;
  std::string name;
  bool admin_up = false;  // IFF_UP
  bool carrier = false;   // IFF_LOWER_UP
  uint32_t mtu = 0;
  std::optional<MacAddr> mac;  // Ethernet-like links only
  uint32_t master = 0;         // IFLA_MASTER: the device this one is enslaved to (a VRF), 0 none
  std::string kind{};          // IFLA_INFO_KIND: "vrf", "veth", ...; "" for physical devices
  uint32_t vrf_table = 0;      // IFLA_VRF_TABLE of a "vrf" device
  std::string alias{};         // IFLA_IFALIAS (Strata marks the VRF devices it creates)
  friend bool operator==(const LinkInfo&, const LinkInfo&) = default;
};

struct AddrInfo {
  uint32_t ifindex = 0;
  IpAddr address;
  int prefix_len = 0;
  friend bool operator==(const AddrInfo&, const AddrInfo&) = default;
};

}  // namespace strata::fea
