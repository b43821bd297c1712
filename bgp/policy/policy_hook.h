// Policy hooks: turn a Policy into the pipeline's RoutePolicy functions (route_policy.h).
//
// The import hook runs a peer's import policy on each received route. The export hook first gives
// our own routes (networks, whose next hop is the zero address, "self") the session's local
// address as next hop when the output filter left it (iBGP without next-hop-self), then runs the
// export policy. Each hook captures an immutable policy snapshot and fixed addresses, so it is
// deterministic as the filter stages require; a changed policy is a new hook
// (BgpPipeline::set_import_policy / set_export_policy). Threading: pipeline thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bgp/pipeline/route_policy.h"
#include "bgp/policy/policy.h"

namespace strata::bgp {

// Null when `policy` is null (accept all).
RoutePolicy MakeImportHook(PolicyRef policy, uint32_t local_as);

struct ExportSelf {
  std::optional<IpAddr> v4;  // our address per family on the session
  std::optional<IpAddr> v6;
  bool ipv4 = true;  // families negotiated on the session; others are not sent
  bool ipv6 = true;
};
RoutePolicy MakeExportHook(PolicyRef policy, uint32_t local_as, ExportSelf self);

// The route as `policy` leaves it, or null if rejected.
BgpRouteRef ApplyPolicy(const Policy& policy, uint32_t local_as, const BgpRouteRef& route);
// How `policy` decides `route`: "policy P term T" (the term whose verdict ended it) or "policy P
// default action" (no term gave one). For operators' views of rejected routes.
std::string ExplainPolicy(const Policy& policy, uint32_t local_as, const BgpRouteRef& route);
// What the policy `protocol` match sees: the protocol an own route was redistributed from
// (PathAttributes::local_protocol: "static", "connected"), else "bgp".
std::string_view RouteProtocol(const BgpRoute& route);

}  // namespace strata::bgp
