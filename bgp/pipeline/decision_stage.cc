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

void DecisionStage::decide(const IpPrefix& prefix, BgpStage* caller,
                           const BgpRouteRef& caller_route) {
  const Candidates cands = candidates(prefix, caller, caller_route);
  Selection sel = SelectBest(cands);
  if (table_) {
    const BgpRouteRef old = table_->lookup_route(prefix);
    KeepIfEqual(old, sel.best);
    if (!old && sel.best) ++count_;
    if (old && !sel.best) --count_;
    send_change(old, sel.best);
    return;
  }
  Decided* held = winners_.find_mutable(prefix);
  const BgpRouteRef old = held ? held->route : nullptr;
  KeepIfEqual(old, sel.best);
  if (!sel.best) {
    if (held) winners_.erase(prefix);
  } else if (held) {
    *held = Decided{sel.best, sel.reason};
  } else {
    winners_.insert(prefix, Decided{sel.best, sel.reason});
  }
  send_change(old, sel.best);
}

void DecisionStage::KeepIfEqual(const BgpRouteRef& old, BgpRouteRef& best) {
  if (old && best && old != best && SameRoute(*old, *best) && old->resolvable == best->resolvable &&
      old->igp_metric == best->igp_metric) {
    best = old;
  }
}

void DecisionStage::add_route(const BgpRouteRef& route, BgpStage* caller) {
  decide(route->prefix, caller, route);
}

void DecisionStage::replace_route(const BgpRouteRef& /*old_route*/, const BgpRouteRef& new_route,
                                  BgpStage* caller) {
  decide(new_route->prefix, caller, new_route);
}

void DecisionStage::delete_route(const BgpRouteRef& route, BgpStage* caller) {
  decide(route->prefix, caller, nullptr);
}

void DecisionStage::prefetch(std::span<const IpPrefix> prefixes) {
  if (!table_) winners_.warm(prefixes);
  BgpStage::prefetch(prefixes);  // the fanout (table_) warms its own
}

BgpRouteRef DecisionStage::lookup_route(const IpPrefix& prefix) const {
  if (table_) return table_->lookup_route(prefix);
  const Decided* d = winners_.find(prefix);
  return d ? d->route : nullptr;
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
  if (table_) {
    BgpRouteRef winner = table_->lookup_route(prefix);
    if (!winner) return std::nullopt;
    const Candidates cands = candidates(prefix, nullptr, nullptr);
    const Selection sel = SelectBest(cands);
    return Explanation{Decided{std::move(winner), sel.reason}, {cands.begin(), cands.end()}};
  }
  const Decided* d = winners_.find(prefix);
  if (!d) return std::nullopt;
  const Candidates cands = candidates(prefix, nullptr, nullptr);
  return Explanation{*d, {cands.begin(), cands.end()}};
}

}  // namespace strata::bgp
