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
// Multipath (ECMP, SelectMultipath): after the best is chosen, the routes it could not beat before
// the router-id step (equal through IGP metric, so of the same peer type), from the same
// neighbouring AS unless `multiple_as` (FRR's as-path multipath-relax), each with a next hop of
// its own, up to the configured number of paths counting the best.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "bgp/pipeline/bgp_route.h"
#include "common/status.h"

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

// How many equal paths a winner may share its prefix with (FRR's maximum-paths, Junos'
// multipath). 1: no multipath.
struct MultipathConfig {
  static constexpr uint32_t kMaxPaths = 64;  // the FEA's (and the kernel's) next hops a route
  uint32_t ebgp_paths = 1;                   // when the best is external, 1..kMaxPaths
  uint32_t ibgp_paths = 1;   // when the best is internal (iBGP or confederation-external)
  bool multiple_as = false;  // equal paths may come from different neighbouring ASes
  bool enabled() const { return ebgp_paths > 1 || ibgp_paths > 1; }
  friend bool operator==(const MultipathConfig&, const MultipathConfig&) = default;
};

// Errors: a path count outside 1..kMaxPaths.
Status ValidateMultipathConfig(const MultipathConfig& config);

// True if `r` may share `best`'s forwarding: equal to it through the IGP metric step, same
// neighbouring AS unless config.multiple_as, neither our own route, both with a next hop.
bool MultipathEqual(const BgpRoute& best, const BgpRoute& r, const MultipathConfig& config);

// The other members of `best`'s multipath set among `candidates` (best itself, known by its
// peer, left out): the routes MultipathEqual to it whose next hop differs from best's and from
// the members' before them, in tie-break order (router id, CLUSTER_LIST length, peer address),
// at most the configured paths less one. Empty without multipath or for a null best.
// REQUIRES: candidates are non-null routes for best's prefix from distinct peers.
std::vector<BgpRouteRef> SelectMultipath(std::span<const BgpRouteRef> candidates,
                                         const BgpRouteRef& best, const MultipathConfig& config);

}  // namespace strata::bgp
