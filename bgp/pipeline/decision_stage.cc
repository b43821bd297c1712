#include "bgp/pipeline/decision_stage.h"

#include <algorithm>
#include <cassert>

namespace strata::bgp {

DecisionStage::Candidates DecisionStage::candidates(const IpPrefix& prefix, BgpStage* caller,
                                                    const BgpRouteRef& caller_route) const {
  Candidates out;
  if (caller_route && caller_route->resolvable) out.push_back(caller_route);
  for (BgpStage* p : parents_) {
    if (p == caller) continue;
    BgpRouteRef r = p->lookup_route(prefix);
    if (r && r->resolvable) out.push_back(std::move(r));
  }
  return out;
}

void DecisionStage::decide(const IpPrefix& prefix, BgpStage* caller, const BgpRouteRef& caller_old,
                           const BgpRouteRef& caller_new) {
  Candidates cands = candidates(prefix, caller, nullptr);
  // What was sent before: the same choice with the caller's previous route (the other branches
  // have not changed, and SelectBest is deterministic).
  const bool had = caller_old && caller_old->resolvable;
  if (had) cands.push_back(caller_old);
  BgpRouteRef old = SelectBest(cands).best;
  std::vector<IpAddr> old_hops;
  if (multipath_.enabled() && old) old_hops = NextHops(SelectMultipath(cands, old, multipath_));
  if (had) cands.pop_back();
  if (caller_new && caller_new->resolvable) cands.push_back(caller_new);
  BgpRouteRef best = SelectBest(cands).best;
  KeepIfEqual(old, best);
  if (!old && best) ++count_;
  if (old && !best) --count_;
  if (multipath_.enabled() && old && old == best &&
      NextHops(SelectMultipath(cands, best, multipath_)) != old_hops) {
    send_replace(best, best);  // the winner's set changed, not the winner
    return;
  }
  send_change(old, best);
}

std::vector<IpAddr> DecisionStage::NextHops(const std::vector<BgpRouteRef>& routes) {
  std::vector<IpAddr> out;
  out.reserve(routes.size());
  for (const BgpRouteRef& r : routes) out.push_back(*r->path().next_hop);
  return out;
}

std::vector<BgpRouteRef> DecisionStage::Multipath(const BgpRouteRef& best) const {
  if (!multipath_.enabled() || !best) return {};
  const Candidates cands = candidates(best->prefix, nullptr, nullptr);
  return SelectMultipath(cands, best, multipath_);
}

void DecisionStage::announce_multipath(const IpPrefix& prefix) {
  if (BgpRouteRef best = lookup_route(prefix)) send_replace(best, best);
}

void DecisionStage::KeepIfEqual(const BgpRouteRef& old, BgpRouteRef& best) {
  // The RPKI state counts: the export policies match it (RFC 8893), so a change must reach them.
  if (old && best && old != best && SameRoute(*old, *best) && old->resolvable == best->resolvable &&
      old->igp_metric == best->igp_metric && old->rov == best->rov) {
    best = old;
  }
}

void DecisionStage::add_route(const BgpRouteRef& route, BgpStage* caller) {
  decide(route->prefix, caller, nullptr, route);
}

void DecisionStage::replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                                  BgpStage* caller) {
  decide(new_route->prefix, caller, old_route, new_route);
}

void DecisionStage::delete_route(const BgpRouteRef& route, BgpStage* caller) {
  decide(route->prefix, caller, route, nullptr);
}

BgpRouteRef DecisionStage::lookup_route(const IpPrefix& prefix) const {
  return SelectBest(candidates(prefix, nullptr, nullptr)).best;
}

void DecisionStage::replace_parent(BgpStage* old_parent, BgpStage* new_parent) {
  auto it = std::find(parents_.begin(), parents_.end(), old_parent);
  if (it == parents_.end()) return;
  if (new_parent) {
    *it = new_parent;
  } else {
    parents_.erase(it);
  }
}

void DecisionStage::add_parent(BgpStage* parent) {
  assert(std::find(parents_.begin(), parents_.end(), parent) == parents_.end());
  parents_.push_back(parent);
}

void DecisionStage::remove_parent(BgpStage* parent) { replace_parent(parent, nullptr); }

std::optional<DecisionStage::Explanation> DecisionStage::Explain(const IpPrefix& prefix) const {
  const Candidates cands = candidates(prefix, nullptr, nullptr);
  std::vector<DecisionReason> lost_at;
  Selection sel = SelectBest(cands, &lost_at);
  if (!sel.best) return std::nullopt;
  std::vector<bool> multipath(cands.size(), false);
  for (const BgpRouteRef& m : SelectMultipath(cands, sel.best, multipath_)) {
    for (size_t i = 0; i < cands.size(); ++i) multipath[i] = multipath[i] || cands[i] == m;
  }
  return Explanation{Decided{std::move(sel.best), sel.reason},
                     {cands.begin(), cands.end()},
                     std::move(lost_at),
                     std::move(multipath)};
}

}  // namespace strata::bgp
