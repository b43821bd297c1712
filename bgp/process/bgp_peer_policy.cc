// BgpPeer's policy hooks and RFC 8212 ("Default External BGP Route Propagation Behavior without
// Policies"): an eBGP peer with no import policy accepts no route and one with no export policy
// is sent none, unless its ebgp_requires_policy is off. Like BIRD and FRR, on by default.
#include "bgp/process/bgp_peer.h"

namespace strata::bgp {

bool BgpPeer::default_deny(bool has_policy, bool& logged, const char* direction) {
  const PeerConfig& c = settings_.session;
  if (has_policy || !settings_.ebgp_requires_policy || c.peer_type() != PeerType::kExternal) {
    logged = false;
    return false;
  }
  if (!logged) {
    log_->warn(
        "{}: no {} policy: RFC 8212 default-deny; set one or `ebgp-requires-policy false` "
        "(ebgp_requires_policy)",
        c.Name(), direction);
    logged = true;
  }
  return true;
}

RoutePolicy BgpPeer::import_hook() {
  if (default_deny(import_policy_ != nullptr, import_deny_logged_, "import")) {
    return [](const BgpRouteRef&) -> BgpRouteRef { return nullptr; };
  }
  return MakeImportHook(import_policy_, settings_.session.local_as);
}

RoutePolicy BgpPeer::export_hook() {
  if (default_deny(export_policy_ != nullptr, export_deny_logged_, "export")) {
    return [](const BgpRouteRef&) -> BgpRouteRef { return nullptr; };
  }
  const PeerConfig& c = settings_.session;
  return MakeExportHook(export_policy_, c.open_as(), export_self());
}

void BgpPeer::SetEbgpRequiresPolicy(bool on) {
  if (settings_.ebgp_requires_policy == on) return;
  settings_.ebgp_requires_policy = on;
  (void)pipeline_.set_import_policy(id_, import_hook());
  (void)pipeline_.set_export_policy(id_, export_hook());
}

}  // namespace strata::bgp
