#include "bgp/policy/policy_hook.h"

namespace strata::bgp {

namespace {

std::optional<IpAddr> NeighborOf(const BgpRoute& r) {
  if (!r.peer || r.peer->address.is_zero()) return std::nullopt;
  return r.peer->address;
}

}  // namespace

std::string_view RouteProtocol(const BgpRoute& route) {
  const std::string& p = route.path().local_protocol();
  return p.empty() ? std::string_view("bgp") : std::string_view(p);
}

namespace {

PolicySubject SubjectOf(const BgpRoute& route, uint32_t local_as) {
  PolicySubject subject;
  subject.prefix = route.prefix;
  subject.protocol = RouteProtocol(route);
  subject.neighbor = NeighborOf(route);
  subject.local_as = local_as;
  subject.rpki = route.rov_state();
  return subject;
}

}  // namespace

std::string ExplainPolicy(const Policy& policy, uint32_t local_as, const BgpRouteRef& route) {
  std::optional<PathAttributes> changed;
  const PolicyTerm* term = nullptr;
  EvaluatePolicy(policy, SubjectOf(*route, local_as), route->path(), changed, &term);
  return "policy " + policy.name + (term ? " term " + term->name : " default action");
}

BgpRouteRef ApplyPolicy(const Policy& policy, uint32_t local_as, const BgpRouteRef& route) {
  const PolicySubject subject = SubjectOf(*route, local_as);
  std::optional<PathAttributes> changed;  // a copy only if a matching term changes something
  if (!EvaluatePolicy(policy, subject, route->path(), changed)) return nullptr;
  if (!changed || *changed == route->path()) return route;
  return WithAttrs(*route, AttributeSet::Make(std::move(*changed)));
}

RoutePolicy MakeImportHook(PolicyRef policy, uint32_t local_as) {
  if (!policy) return nullptr;
  return [policy = std::move(policy), local_as](const BgpRouteRef& r) {
    return ApplyPolicy(*policy, local_as, r);
  };
}

RoutePolicy MakeExportHook(PolicyRef policy, uint32_t local_as, ExportSelf self) {
  return [policy = std::move(policy), local_as, self](const BgpRouteRef& r) -> BgpRouteRef {
    if (!(r->prefix.is_v4() ? self.ipv4 : self.ipv6)) return nullptr;
    BgpRouteRef out = r;
    const auto& nh = r->path().next_hop;
    if (nh && nh->is_zero()) {
      const std::optional<IpAddr>& mine = r->prefix.is_v4() ? self.v4 : self.v6;
      if (!mine) return nullptr;  // no address of the family to advertise as next hop
      PathAttributes a = r->path();
      a.next_hop = *mine;
      out = WithAttrs(*r, AttributeSet::Make(std::move(a)));
    }
    return policy ? ApplyPolicy(*policy, local_as, out) : out;
  };
}

}  // namespace strata::bgp
