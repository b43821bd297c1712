#include "bgp/pipeline/decision_steps.h"

#include <algorithm>
#include <array>
#include <string>

#include "absl/container/inlined_vector.h"
#include "bgp/pipeline/llgr_community.h"

namespace strata::bgp {
namespace {

template <typename T>
int Lower(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

const IpAddr& EffectiveRouterId(const BgpRoute& r) {
  const auto& originator = r.path().originator_id();
  return originator ? *originator : r.peer->router_id;
}

constexpr std::array<DecisionStep, 10> kSteps = {{
    {DecisionReason::kNotLlgrStale, &CompareNotLlgrStale},
    {DecisionReason::kLocalPref, &CompareLocalPref},
    {DecisionReason::kAsPathLength, &CompareAsPathLength},
    {DecisionReason::kOrigin, &CompareOrigin},
    {DecisionReason::kMed, &CompareMed},
    {DecisionReason::kEbgpOverIbgp, &CompareEbgpOverIbgp},
    {DecisionReason::kIgpMetric, &CompareIgpMetric},
    {DecisionReason::kRouterId, &CompareRouterId},
    {DecisionReason::kClusterListLength, &CompareClusterListLength},
    {DecisionReason::kPeerAddress, &ComparePeerAddress},
}};

}  // namespace

std::string_view DecisionReasonName(DecisionReason r) {
  switch (r) {
    case DecisionReason::kOnlyRoute:
      return "only-route";
    case DecisionReason::kNotLlgrStale:
      return "not-llgr-stale";
    case DecisionReason::kLocalPref:
      return "local-pref";
    case DecisionReason::kAsPathLength:
      return "as-path-length";
    case DecisionReason::kOrigin:
      return "origin";
    case DecisionReason::kMed:
      return "med";
    case DecisionReason::kEbgpOverIbgp:
      return "ebgp-over-ibgp";
    case DecisionReason::kIgpMetric:
      return "igp-metric";
    case DecisionReason::kRouterId:
      return "router-id";
    case DecisionReason::kClusterListLength:
      return "cluster-list-length";
    case DecisionReason::kPeerAddress:
      return "peer-address";
  }
  return "unknown";
}

int CompareNotLlgrStale(const BgpRoute& a, const BgpRoute& b) {
  return Lower(IsLlgrStale(a), IsLlgrStale(b));
}

int CompareLocalPref(const BgpRoute& a, const BgpRoute& b) {
  // Higher is better.
  return Lower(b.path().local_pref.value_or(kDefaultLocalPref),
               a.path().local_pref.value_or(kDefaultLocalPref));
}

int CompareAsPathLength(const BgpRoute& a, const BgpRoute& b) {
  const size_t la = a.path().as_path ? a.path().as_path->PathLength() : 0;
  const size_t lb = b.path().as_path ? b.path().as_path->PathLength() : 0;
  return Lower(la, lb);
}

int CompareOrigin(const BgpRoute& a, const BgpRoute& b) {
  return Lower(a.path().origin.value_or(Origin::kIncomplete),
               b.path().origin.value_or(Origin::kIncomplete));
}

uint32_t NeighborAs(const BgpRoute& r) {
  const auto& path = r.path().as_path;
  return path ? path->FirstAsAfterConfed().value_or(0) : 0;
}

int CompareMed(const BgpRoute& a, const BgpRoute& b) {
  if (NeighborAs(a) != NeighborAs(b)) return 0;
  return Lower(a.path().med.value_or(0), b.path().med.value_or(0));
}

int CompareEbgpOverIbgp(const BgpRoute& a, const BgpRoute& b) {
  // Confederation-external routes rank as internal (RFC 5065 5.3). false (eBGP) sorts first.
  return Lower(a.peer->internal(), b.peer->internal());
}

int CompareIgpMetric(const BgpRoute& a, const BgpRoute& b) {
  return Lower(a.igp_metric, b.igp_metric);
}

int CompareRouterId(const BgpRoute& a, const BgpRoute& b) {
  return Lower(EffectiveRouterId(a), EffectiveRouterId(b));
}

int CompareClusterListLength(const BgpRoute& a, const BgpRoute& b) {
  return Lower(a.path().cluster_list().size(), b.path().cluster_list().size());
}

int ComparePeerAddress(const BgpRoute& a, const BgpRoute& b) {
  return Lower(a.peer->address, b.peer->address);
}

std::span<const DecisionStep> DecisionSteps() { return kSteps; }

Selection SelectBest(std::span<const BgpRouteRef> candidates,
                     std::vector<DecisionReason>* lost_at) {
  Selection sel;
  if (lost_at != nullptr) lost_at->assign(candidates.size(), DecisionReason::kOnlyRoute);
  if (candidates.empty()) return sel;
  if (candidates.size() == 1) {  // the usual case: nothing to compare, no reason to give
    sel.best = candidates.front();
    return sel;
  }
  // Pointers into `candidates`: no reference counting while the steps narrow them down.
  using Left = absl::InlinedVector<const BgpRouteRef*, 8>;
  Left left;
  for (const BgpRouteRef& r : candidates) left.push_back(&r);
  for (const DecisionStep& step : kSteps) {
    if (left.size() == 1) break;
    Left kept;
    for (const BgpRouteRef* r : left) {
      bool beaten = false;
      for (const BgpRouteRef* other : left) {
        if (other != r && step.compare(**other, **r) < 0) {
          beaten = true;
          break;
        }
      }
      if (!beaten) {
        kept.push_back(r);
      } else if (lost_at != nullptr) {
        (*lost_at)[static_cast<size_t>(r - candidates.data())] = step.reason;
      }
    }
    if (kept.size() < left.size()) {
      sel.reason = step.reason;
      left = std::move(kept);
    }
  }
  sel.best = *left.front();
  if (lost_at != nullptr)
    (*lost_at)[static_cast<size_t>(left.front() - candidates.data())] = sel.reason;
  return sel;
}

Status ValidateMultipathConfig(const MultipathConfig& config) {
  for (uint32_t paths : {config.ebgp_paths, config.ibgp_paths}) {
    if (paths < 1 || paths > MultipathConfig::kMaxPaths) {
      return InvalidArgument("maximum paths " + std::to_string(paths) + " outside 1.." +
                             std::to_string(MultipathConfig::kMaxPaths));
    }
  }
  return Status::Ok();
}

bool MultipathEqual(const BgpRoute& best, const BgpRoute& r, const MultipathConfig& config) {
  if (best.peer->local || r.peer->local) return false;  // our own networks forward nowhere
  if (!best.path().next_hop || !r.path().next_hop) return false;
  for (const DecisionStep& step : kSteps) {
    if (step.reason == DecisionReason::kRouterId) break;  // the tie-breakers from here on
    if (step.compare(best, r) != 0) return false;
  }
  return config.multiple_as || NeighborAs(best) == NeighborAs(r);
}

std::vector<BgpRouteRef> SelectMultipath(std::span<const BgpRouteRef> candidates,
                                         const BgpRouteRef& best, const MultipathConfig& config) {
  std::vector<BgpRouteRef> out;
  if (!best || !config.enabled()) return out;
  const uint32_t paths = best->peer->internal() ? config.ibgp_paths : config.ebgp_paths;
  if (paths <= 1) return out;
  for (const BgpRouteRef& r : candidates) {
    if (r->peer->id != best->peer->id && MultipathEqual(*best, *r, config)) out.push_back(r);
  }
  // Tie-break order: the routes the best would have lost to next come first.
  std::sort(out.begin(), out.end(), [](const BgpRouteRef& a, const BgpRouteRef& b) {
    for (auto cmp : {&CompareRouterId, &CompareClusterListLength, &ComparePeerAddress}) {
      if (const int c = cmp(*a, *b); c != 0) return c < 0;
    }
    return false;
  });
  // One member per next hop: a second path through the same router adds nothing to forward on.
  std::vector<IpAddr> hops = {*best->path().next_hop};
  std::erase_if(out, [&](const BgpRouteRef& r) {
    const IpAddr& nh = *r->path().next_hop;
    if (std::find(hops.begin(), hops.end(), nh) != hops.end()) return true;
    hops.push_back(nh);
    return false;
  });
  if (out.size() > paths - 1) out.resize(paths - 1);
  return out;
}

}  // namespace strata::bgp
