#include "bgp/pipeline/input_filter_stage.h"

#include <algorithm>

namespace strata::bgp {

InputFilterStage::InputFilterStage(PeerId peer, uint32_t local_as, IpAddr router_id,
                                   uint32_t cluster_id, BgpStage* parent, RoutePolicy import_policy,
                                   Confederation confed, AsPathOptions as_path)
    : PassThroughStage(parent),
      peer_(peer),
      local_as_(local_as),
      router_id_(router_id),
      cluster_id_(cluster_id),
      confed_(std::move(confed)),
      as_path_(as_path),
      refilter_(std::move(import_policy),
                [this](const IpPrefix& p, const RoutePolicy& before, const RoutePolicy& after) {
                  refilter_one(p, before, after);
                }) {}

BgpRouteRef InputFilterStage::filter(const BgpRouteRef& route, Verdict* verdict) const {
  return filter_with(route, refilter_.For(route->prefix), verdict);
}

BgpRouteRef InputFilterStage::filter_with(const BgpRouteRef& route, const RoutePolicy& policy,
                                          Verdict* verdict) const {
  const PathAttributes& a = route->path();
  if (a.as_path && is_loop(*a.as_path)) {
    *verdict = Verdict::kAsLoop;
    return nullptr;
  }
  if (a.originator_id() && *a.originator_id() == router_id_) {
    *verdict = Verdict::kOriginatorId;
    return nullptr;
  }
  if (std::find(a.cluster_list().begin(), a.cluster_list().end(), cluster_id_) !=
      a.cluster_list().end()) {
    *verdict = Verdict::kClusterLoop;
    return nullptr;
  }
  const bool prepend = as_path_.local_as != 0 && !as_path_.local_as_no_prepend;
  BgpRouteRef in = prepend ? prepend_local_as(route) : route;
  BgpRouteRef out = policy ? policy(in) : in;
  *verdict = out ? Verdict::kPass : Verdict::kPolicy;
  return out;
}

bool InputFilterStage::is_loop(const AsPath& path) const {
  if (IsAsLoop(path, local_as_, confed_, as_path_.allowas_in)) return true;
  return as_path_.local_as != 0 && path.Count(as_path_.local_as) > as_path_.allowas_in;
}

BgpRouteRef InputFilterStage::prepend_local_as(const BgpRouteRef& route) const {
  if (memo_in_ != route->attrs) {
    PathAttributes a = route->attrs->attrs();
    a.as_path = a.as_path.value_or(AsPath()).Prepend(as_path_.local_as);
    memo_in_ = route->attrs;
    memo_out_ = AttributeSet::Make(std::move(a));
  }
  return WithAttrs(*route, memo_out_);
}

void InputFilterStage::count_drop(Verdict v) {
  switch (v) {
    case Verdict::kAsLoop:
      ++counters_.as_loop;
      break;
    case Verdict::kOriginatorId:
      ++counters_.originator_id;
      break;
    case Verdict::kClusterLoop:
      ++counters_.cluster_loop;
      break;
    case Verdict::kPolicy:
      ++counters_.policy_rejected;
      break;
    case Verdict::kPass:
      break;
  }
}

void InputFilterStage::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  Verdict v;
  refilter_.Touch(route->prefix);  // nothing held for it: the new policy applies at once
  BgpRouteRef out = filter(route, &v);
  if (!out) {
    count_drop(v);
    return;
  }
  ++counters_.accepted;
  send_add(out);
}

void InputFilterStage::replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                                     BgpStage* /*caller*/) {
  Verdict v_old;
  Verdict v_new;
  BgpRouteRef old_out = filter(old_route, &v_old);
  refilter_.Touch(new_route->prefix);
  BgpRouteRef new_out = filter(new_route, &v_new);
  if (!new_out) count_drop(v_new);
  counters_.accepted += (new_out != nullptr);
  counters_.accepted -= (old_out != nullptr);
  send_change(old_out, new_out);
}

void InputFilterStage::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  Verdict v;
  BgpRouteRef out = filter(route, &v);
  refilter_.Touch(route->prefix);  // nothing held for it now: a later add uses the new policy
  if (!out) return;
  --counters_.accepted;
  send_delete(out);
}

void InputFilterStage::ChangePolicy(RoutePolicy policy, PolicyRefilter::NextFn next) {
  refilter_.Change(std::move(policy), std::move(next));
}

void InputFilterStage::refilter_one(const IpPrefix& prefix, const RoutePolicy& before,
                                    const RoutePolicy& after) {
  BgpRouteRef r = PassThroughStage::lookup_route(prefix);
  if (!r) return;
  Verdict v_old;
  Verdict v_new;
  BgpRouteRef old_out = filter_with(r, before, &v_old);
  BgpRouteRef new_out = filter_with(r, after, &v_new);
  if (!new_out && old_out) count_drop(v_new);
  counters_.accepted += (new_out != nullptr);
  counters_.accepted -= (old_out != nullptr);
  if (old_out && new_out && SameRoute(*old_out, *new_out)) return;
  send_change(old_out, new_out);
}

BgpRouteRef InputFilterStage::lookup_route(const IpPrefix& prefix) const {
  BgpRouteRef r = PassThroughStage::lookup_route(prefix);
  if (!r) return nullptr;
  Verdict v;
  return filter(r, &v);
}

}  // namespace strata::bgp
