// RouteRefreshMessage: ROUTE-REFRESH (RFC 2918) with the enhanced route refresh subtypes
// Beginning and End of Route Refresh (RFC 7313). Thread-compatible value type.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bgp/wire/bgp_types.h"
#include "bgp/wire/wire_result.h"

namespace strata::bgp {

enum class RouteRefreshSubtype : uint8_t {
  kNormal = 0,
  kBeginning = 1,  // BoRR
  kEnd = 2,        // EoRR
};

struct RouteRefreshMessage {
  AfiSafi afi_safi;
  // Raw: RFC 7313 says a subtype we do not know is ignored, so the caller decides.
  uint8_t subtype = 0;

  bool known_subtype() const { return subtype <= 2; }
  std::string ToString() const;
  friend bool operator==(const RouteRefreshMessage&, const RouteRefreshMessage&) = default;
};

std::vector<uint8_t> EncodeRouteRefresh(const RouteRefreshMessage& m);
// A body other than 4 bytes is ROUTE-REFRESH Message Error / Invalid Message Length, with the
// whole message as data (RFC 7313 5).
WireResult<RouteRefreshMessage> DecodeRouteRefresh(std::span<const uint8_t> message);

}  // namespace strata::bgp
