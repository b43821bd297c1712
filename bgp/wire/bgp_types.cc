#include "bgp/wire/bgp_types.h"

namespace strata::bgp {

std::string AfiSafi::ToString() const {
  if (*this == kIpv4Unicast) return "ipv4-unicast";
  if (*this == kIpv6Unicast) return "ipv6-unicast";
  return std::to_string(afi) + "/" + std::to_string(safi);
}

std::optional<Family> AfiSafi::IpFamily() const {
  if (afi == kAfiIpv4) return Family::kIpv4;
  if (afi == kAfiIpv6) return Family::kIpv6;
  return std::nullopt;
}

}  // namespace strata::bgp
