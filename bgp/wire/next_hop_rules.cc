#include "bgp/wire/next_hop_rules.h"

#include <algorithm>

namespace strata::bgp {

bool IsLoopback(const IpAddr& a) {
  if (a.is_v4()) return (a.v4_host_order() >> 24) == 127;
  const auto b = a.bytes();
  return std::all_of(b.begin(), b.end() - 1, [](uint8_t x) { return x == 0; }) && b[15] == 1;
}

std::optional<std::string> NonHostNextHop(const IpAddr& nh, bool peer_on_loopback) {
  if (IsLoopback(nh)) {
    if (peer_on_loopback) return std::nullopt;
    return "loopback, from a peer on another host";
  }
  if (nh.is_v4()) {
    const uint32_t a = nh.v4_host_order();
    if ((a >> 24) == 0) return "in 0.0.0.0/8";
    if ((a >> 28) == 0xE) return "multicast";
    if ((a >> 28) == 0xF) return a == 0xFFFFFFFFu ? "broadcast" : "reserved (240.0.0.0/4)";
    return std::nullopt;
  }
  const auto b = nh.bytes();
  if (b[0] == 0xFF) return "multicast";
  const bool zero_but_last = std::all_of(b.begin(), b.end() - 1, [](uint8_t x) { return x == 0; });
  if (zero_but_last && b[15] == 0) return "unspecified";
  return std::nullopt;
}

}  // namespace strata::bgp
