// VRF device names: which Linux VRF device a virtual router forwards in, as strata-fea makes it,
// strata-bgp binds its sockets to it and the rtrmgr's rules check it. One rule for all three:
// a VR with a kernel table other than the main table has a VRF device, named by its
// `vrf-device` setting or else after the VR (as FRR names a VRF's device after the VRF); table
// 0 (no kernel table) and 254 (the main table, the kernel's default VRF) have none.
// Header-only, stateless.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace strata {

inline constexpr uint32_t kMainTable = 254;
// Linux interface names hold at most IFNAMSIZ - 1 bytes.
inline constexpr size_t kMaxInterfaceName = 15;

// "" when the VR has no VRF device.
inline std::string VrfDeviceName(std::string_view vr, uint32_t table, std::string_view configured) {
  if (table == 0 || table == kMainTable) return "";
  return std::string(configured.empty() ? vr : configured);
}

// Whether Linux takes `name` as an interface name: 1..15 bytes, no '/', ':' or whitespace, not
// "." or "..".
inline Status CheckInterfaceName(std::string_view name) {
  const std::string quoted = "'" + std::string(name) + "'";
  if (name.empty() || name.size() > kMaxInterfaceName) {
    return InvalidArgument("interface name " + quoted + " is not 1..15 bytes");
  }
  if (name == "." || name == "..") return InvalidArgument("interface name " + quoted);
  for (char c : name) {
    if (c == '/' || c == ':' || c == ' ' || c == '\t' || c == '\n' || c == '\0') {
      return InvalidArgument("interface name " + quoted + " holds a '/', ':' or a space");
    }
  }
  return Status();
}

}  // namespace strata
