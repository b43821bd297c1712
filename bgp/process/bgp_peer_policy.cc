// BgpPeer's policy hooks and RFC 8212 ("Default External BGP Route Propagation Behavior without
// Policies"): an eBGP peer with no import policy accepts no route and one with no export policy
// is sent none, unless its ebgp_requires_policy is off. Like BIRD and FRR, on by default. The
// policy in force is the peer's own, else the VR's (vr_policy.h): either counts. The warning is
// logged when the first route is dropped, not when the deny hook is made: a commit adds a peer
// before its policies (set_peer_policy follows add_peer), so a peer with policies passes
// through a moment without any, during which no route flows.
#include "bgp/process/bgp_peer.h"

namespace strata::bgp {

bool BgpPeer::default_deny(bool has_policy, bool& logged) const {
  const PeerConfig& c = settings_.session;
  if (has_policy || !settings_.ebgp_requires_policy || c.peer_type() != PeerType::kExternal) {
    logged = false;  // a later loss of the policy is logged again
    return false;
  }
  return true;
}

RoutePolicy BgpPeer::deny_hook(std::shared_ptr<bool> logged, const char* direction) const {
  return [log = log_, name = settings_.session.Name(), logged = std::move(logged),
          direction](const BgpRouteRef& route) -> BgpRouteRef {
    if (route != nullptr && !*logged) {
      *logged = true;
      log->warn(
          "{}: no {} policy: RFC 8212 default-deny drops its routes; set one or "
          "`ebgp-requires-policy false` (ebgp_requires_policy)",
          name, direction);
    }
    return nullptr;
  };
}

RoutePolicy BgpPeer::import_hook() {
  const EffectivePolicy in = effective_policy(PolicyDirection::kImport);
  if (default_deny(in.policy != nullptr, *import_deny_logged_)) {
    return deny_hook(import_deny_logged_, "import");
  }
  return MakeImportHook(in.policy, settings_.session.local_as);
}

RoutePolicy BgpPeer::export_hook() {
  const EffectivePolicy out = effective_policy(PolicyDirection::kExport);
  if (default_deny(out.policy != nullptr, *export_deny_logged_)) {
    return deny_hook(export_deny_logged_, "export");
  }
  const PeerConfig& c = settings_.session;
  return MakeExportHook(out.policy, c.open_as(), export_self());
}

std::string BgpPeer::ExplainImport(const BgpRouteRef& received) const {
  const EffectivePolicy in = effective_policy(PolicyDirection::kImport);
  if (!in.policy) {
    const bool deny =
        settings_.ebgp_requires_policy && settings_.session.peer_type() == PeerType::kExternal;
    return deny ? "RFC 8212: eBGP peer without an import policy" : "no import policy";
  }
  return ExplainPolicy(*in.policy, settings_.session.local_as, received);
}

EffectivePolicy BgpPeer::effective_policy(PolicyDirection direction) const {
  const bool in = direction == PolicyDirection::kImport;
  return ResolvePolicy({in ? settings_.import_policy : settings_.export_policy,
                        in ? import_policy_ : export_policy_},
                       vr_policies_.at(direction));
}

void BgpPeer::SetVrPolicy(PolicyDirection direction, PolicyBinding binding) {
  vr_policies_.at(direction) = std::move(binding);
  if (direction == PolicyDirection::kImport) {
    if (settings_.import_policy.empty()) (void)pipeline_.set_import_policy(id_, import_hook());
  } else if (settings_.export_policy.empty()) {
    (void)pipeline_.set_export_policy(id_, export_hook());
  }
}

void BgpPeer::SetEbgpRequiresPolicy(bool on) {
  if (settings_.ebgp_requires_policy == on) return;
  settings_.ebgp_requires_policy = on;
  (void)pipeline_.set_import_policy(id_, import_hook());
  (void)pipeline_.set_export_policy(id_, export_hook());
}

}  // namespace strata::bgp
