// Best-path selection (RFC 4271 9.1.2.2, RFC 4456 9) as a chain of small comparators.
//
// Each step compares two usable routes for one prefix: negative if `a` is better, positive if
// `b` is, zero if the step cannot tell them apart. SelectBest runs the steps in order over the
// whole candidate set, each step removing every route that some other remaining route beats, and
// stops when one route is left; the step that removed the last rival is the reason it won. The
// MED step only compares routes from the same neighbouring AS, which is why selection eliminates
// over the set rather than sorting (MED is not a total order). Order:
//   not LLGR_STALE (RFC 9494 4.4: any other route wins over a long-lived stale one) >
//   LOCAL_PREF (highest, default 100) > AS_PATH length (shortest) > ORIGIN (lowest) >
//   MED (lowest, missing = 0, same neighbour AS only) > eBGP over iBGP (confederation-external
//   counts as iBGP) > IGP metric (lowest) >
//   router id (lowest; ORIGINATOR_ID when present) > CLUSTER_LIST length (shortest) >
//   peer address (lowest).
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "bgp/pipeline/bgp_route.h"

namespace strata::bgp {

enum class DecisionReason : uint8_t {
  kOnlyRoute,
  kLocalPref,
  kAsPathLength,
  kOrigin,
  kMed,
  kEbgpOverIbgp,
  kIgpMetric,
  kRouterId,
  kClusterListLength,
  kPeerAddress,
  kNotLlgrStale,
};

// "only-route", "local-pref", "as-path-length", ... for `show bgp routes`.
std::string_view DecisionReasonName(DecisionReason r);

int CompareNotLlgrStale(const BgpRoute& a, const BgpRoute& b);
int CompareLocalPref(const BgpRoute& a, const BgpRoute& b);
int CompareAsPathLength(const BgpRoute& a, const BgpRoute& b);
int CompareOrigin(const BgpRoute& a, const BgpRoute& b);
int CompareMed(const BgpRoute& a, const BgpRoute& b);
int CompareEbgpOverIbgp(const BgpRoute& a, const BgpRoute& b);
int CompareIgpMetric(const BgpRoute& a, const BgpRoute& b);
int CompareRouterId(const BgpRoute& a, const BgpRoute& b);
int CompareClusterListLength(const BgpRoute& a, const BgpRoute& b);
int ComparePeerAddress(const BgpRoute& a, const BgpRoute& b);

// The neighbouring AS for the MED rule: the first AS of the path after its leading confederation
// segments (RFC 5065 5.3), or 0 for a path without one (a route originated inside our AS or our
// confederation).
uint32_t NeighborAs(const BgpRoute& r);

struct DecisionStep {
  DecisionReason reason;
  int (*compare)(const BgpRoute&, const BgpRoute&);
};
// The steps in the order above.
std::span<const DecisionStep> DecisionSteps();

struct Selection {
  BgpRouteRef best;  // null if there were no candidates
  DecisionReason reason = DecisionReason::kOnlyRoute;
};
// REQUIRES: candidates are non-null routes for one prefix from distinct peers. With `lost_at`
// (resized to the candidates), each loser's entry is the step that eliminated it (`show bgp
// route PREFIX detail`); the winner's is the selection's reason.
Selection SelectBest(std::span<const BgpRouteRef> candidates,
                     std::vector<DecisionReason>* lost_at = nullptr);

}  // namespace strata::bgp
