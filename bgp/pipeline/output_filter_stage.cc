#include "bgp/pipeline/output_filter_stage.h"

#include "bgp/pipeline/llgr_community.h"

namespace strata::bgp {
namespace {

// ORIGINATOR_ID and CLUSTER_LIST go (they are not sent outside the AS), without making the
// out-of-line part of attributes that have neither.
void StripReflection(PathAttributes& a) {
  if (!a.rare().originator_id && a.rare().cluster_list.empty()) return;
  a.originator_id().reset();
  a.cluster_list().clear();
}

}  // namespace

OutputFilterStage::OutputFilterStage(PeerId peer, uint32_t local_as, PipelinePeerConfig config,
                                     BgpStage* parent, ReflectionContext reflection,
                                     Confederation confed)
    : PassThroughStage(parent),
      peer_(peer),
      local_as_(local_as),
      config_(std::move(config)),
      reflection_(reflection),
      confed_(std::move(confed)),
      type_(ClassifyPeer(config_.peer_as, local_as_, confed_)),
      refilter_(config_.export_policy,
                [this](const IpPrefix& p, const RoutePolicy& before, const RoutePolicy& after) {
                  refilter_one(p, before, after);
                }) {
  config_.export_policy = nullptr;  // refilter_ holds it
}

std::optional<IpAddr> OutputFilterStage::local_nexthop(Family f) const {
  if (config_.local_address.family() == f && !config_.local_address.is_zero()) {
    return config_.local_address;
  }
  if (config_.other_family_local_address && config_.other_family_local_address->family() == f) {
    return config_.other_family_local_address;
  }
  return std::nullopt;
}

AttributeSetPtr OutputFilterStage::rewrite(const AttributeSetPtr& in, const IpAddr* self,
                                           const std::optional<IpAddr>& reflect_from) const {
  const std::optional<IpAddr> self_value = self ? std::optional<IpAddr>(*self) : std::nullopt;
  if (memo_in_ == in && memo_self_ == self_value && memo_reflect_from_ == reflect_from) {
    return memo_out_;
  }
  PathAttributes a = in->attrs();
  if (reflect_from) {
    if (!a.originator_id()) a.originator_id() = *reflect_from;
    a.cluster_list().insert(a.cluster_list().begin(), reflection_.cluster_id);
  }
  if (self) {
    a.next_hop = *self;
    if (a.rare().link_local_next_hop) a.link_local_next_hop().reset();
  }
  switch (type_) {
    case PeerType::kInternal:
      a.local_pref = a.local_pref.value_or(kDefaultLocalPref);
      break;
    case PeerType::kConfedExternal:
      a.as_path = a.as_path.value_or(AsPath()).PrependConfed(local_as_);
      a.local_pref = a.local_pref.value_or(kDefaultLocalPref);
      StripReflection(a);
      break;
    case PeerType::kExternal: {
      const uint32_t own = AsSeenBy(type_, local_as_, confed_);
      const AsPathOptions& o = config_.as_path;
      a.as_path = PrependOwnAs(
          RemovePrivateAses(a.as_path.value_or(AsPath()).WithoutConfed(), o.remove_private_as,
                            o.remove_private_replace_as, own, config_.peer_as),
          own, o);
      a.local_pref.reset();
      a.med.reset();
      StripReflection(a);
      break;
    }
  }
  memo_in_ = in;
  memo_self_ = self_value;
  memo_reflect_from_ = reflect_from;
  memo_out_ = AttributeSet::Make(std::move(a));
  return memo_out_;
}

BgpRouteRef OutputFilterStage::originated(const IpPrefix& prefix) const {
  if (!config_.default_originate || prefix.len() != 0) return nullptr;
  const std::optional<IpAddr> self = local_nexthop(prefix.family());
  if (!self) return nullptr;
  PathAttributes a;
  a.origin = Origin::kIgp;
  a.as_path = AsPath();
  a.next_hop = *self;
  // Our own route: no export policy (FRR's default-originate), the AS rules of the peer type.
  static const PeerRef kOwn = [] {
    PeerInfoPtr p = NewPeerInfo();
    p->local = true;
    return PeerRef(p);
  }();
  return transform_with(MakeRoute(prefix, AttributeSet::Make(std::move(a)), kOwn), nullptr, false);
}

void OutputFilterStage::OriginateDefaults() {
  for (Family f : {Family::kIpv4, Family::kIpv6}) {
    if (BgpRouteRef d = originated(IpPrefix::Default(f))) send_add(d);
  }
}

BgpRouteRef OutputFilterStage::Transform(const BgpRouteRef& route, bool count) const {
  if (config_.default_originate && route->prefix.len() == 0) {
    counters_.default_replaced += count;
    return nullptr;
  }
  return transform_with(route, refilter_.For(route->prefix), count);
}

std::optional<OutputFilterStage::Export> OutputFilterStage::verdict(const BgpRoute& route,
                                                                    bool count) const {
  if (route.peer->id == peer_) {
    counters_.to_source += count;
    return std::nullopt;
  }
  if (!config_.llgr && IsLlgrStale(route)) {
    counters_.llgr_stale += count;
    return std::nullopt;
  }
  // iBGP to iBGP only by reflection: from a client to all, from a non-client to clients.
  const bool reflect = ibgp() && route.peer->ibgp;
  if (reflect && !route.peer->rr_client && !config_.route_reflector_client) {
    counters_.ibgp_to_ibgp += count;
    return std::nullopt;
  }
  Export e;
  if (reflect) {
    e.reflect_from = route.peer->router_id;
    const IpAddr originator = route.path().originator_id().value_or(*e.reflect_from);
    if (!reflection_.peer_router_id.is_zero() && originator == reflection_.peer_router_id) {
      counters_.to_originator += count;
      return std::nullopt;
    }
  }
  if (type_ == PeerType::kExternal || config_.next_hop_self) {
    e.self = local_nexthop(route.prefix.family());
    if (!e.self) {
      counters_.no_nexthop += count;
      return std::nullopt;
    }
  }
  return e;
}

BgpRouteRef OutputFilterStage::transform_with(const BgpRouteRef& route, const RoutePolicy& policy,
                                              bool count) const {
  const std::optional<Export> e = verdict(*route, count);
  if (!e) return nullptr;
  BgpRouteRef out =
      WithAttrs(*route, rewrite(route->attrs, e->self ? &*e->self : nullptr, e->reflect_from));
  if (policy) {
    out = policy(out);
    if (!out) counters_.policy_rejected += count;
  }
  return out;
}

void OutputFilterStage::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  refilter_.Touch(route->prefix);  // nothing sent for it: the new policy applies at once
  if (BgpRouteRef out = Transform(route, true)) send_add(out);
}

void OutputFilterStage::replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                                      BgpStage* /*caller*/) {
  BgpRouteRef old_out = Transform(old_route, false);
  refilter_.Touch(new_route->prefix);
  BgpRouteRef new_out = Transform(new_route, true);
  // A new RPKI state that the export policy takes as it took the old one: the peer would get
  // the same UPDATE again.
  if (old_out && new_out && old_route->rov != new_route->rov && SameRoute(*old_out, *new_out)) {
    return;
  }
  send_change(old_out, new_out);
}

void OutputFilterStage::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  if (config_.default_originate && route->prefix.len() == 0) return;  // ours stays
  const RoutePolicy& policy = refilter_.For(route->prefix);
  BgpRouteRef out;
  if (withdraw_by_prefix_ && !policy) {
    if (verdict(*route, false)) out = route;  // the child needs the prefix only
  } else {
    out = transform_with(route, policy, false);
  }
  refilter_.Touch(route->prefix);  // nothing sent for it now: a later add uses the new policy
  if (out) send_delete(out);
}

void OutputFilterStage::ChangePolicy(RoutePolicy policy, PolicyRefilter::NextFn next) {
  if (!refilter_.walking()) refresh_.reset();  // an earlier refresh is over
  refilter_.Change(std::move(policy), std::move(next));
}

void OutputFilterStage::Refresh(std::optional<Family> family, PolicyRefilter::NextFn next) {
  if (refresh_ && refilter_.walking()) {
    if (refresh_->family != family) refresh_->family.reset();  // both: every family
  } else {
    refresh_ = RefreshState{family};
  }
  refilter_.Change(refilter_.current(), std::move(next));
  for (Family f : {Family::kIpv4, Family::kIpv6}) {
    if (family && *family != f) continue;
    if (BgpRouteRef d = originated(IpPrefix::Default(f))) send_replace(d, d);  // sent again
  }
}

void OutputFilterStage::refilter_one(const IpPrefix& prefix, const RoutePolicy& before,
                                     const RoutePolicy& after) {
  BgpRouteRef r = PassThroughStage::lookup_route(prefix);
  if (!r || (config_.default_originate && prefix.len() == 0)) return;
  BgpRouteRef old_out = transform_with(r, before, false);
  BgpRouteRef new_out = transform_with(r, after, true);
  if (old_out && new_out && SameRoute(*old_out, *new_out)) {
    if (refresh_ && (!refresh_->family || *refresh_->family == prefix.family())) {
      send_change(old_out, new_out);  // a replace: announced again
    }
    return;
  }
  send_change(old_out, new_out);
}

BgpRouteRef OutputFilterStage::lookup_route(const IpPrefix& prefix) const {
  if (BgpRouteRef d = originated(prefix)) return d;
  BgpRouteRef r = PassThroughStage::lookup_route(prefix);
  return r ? Transform(r, false) : nullptr;
}

}  // namespace strata::bgp
