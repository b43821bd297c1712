// RouteType: what a route does with the packets it matches. Unicast routes forward to their next
// hops; the others have none and drop: silently (blackhole), or telling the sender with ICMP
// destination unreachable (unreachable) or administratively prohibited (prohibit), as Linux's
// RTN_BLACKHOLE, RTN_UNREACHABLE and RTN_PROHIBIT do. One type for the RIB's routes, the FEA's
// and the kernel's (common.v1.RouteType on the wire: libipc/common_convert.h).
#pragma once

#include <cstdint>
#include <string_view>

namespace strata {

enum class RouteType : uint8_t { kUnicast, kBlackhole, kUnreachable, kProhibit };

// "unicast", "blackhole", "unreachable", "prohibit" (as `ip route` spells them).
constexpr std::string_view RouteTypeName(RouteType t) {
  switch (t) {
    case RouteType::kUnicast:
      return "unicast";
    case RouteType::kBlackhole:
      return "blackhole";
    case RouteType::kUnreachable:
      return "unreachable";
    case RouteType::kProhibit:
      return "prohibit";
  }
  return "unicast";
}

}  // namespace strata
