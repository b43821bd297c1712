#include "bgp/policy/vr_policy.h"

#include <algorithm>

namespace strata::bgp {

EffectivePolicy ResolvePolicy(const PolicyBinding& own, const PolicyBinding& vr) {
  if (!own.empty()) return {own.name, own.policy, false};
  if (!vr.empty()) return {vr.name, vr.policy, true};
  return {};
}

std::vector<std::string> ExportProtocols(const std::vector<PolicyRef>& export_policies) {
  std::vector<std::string> out;
  for (const PolicyRef& p : export_policies) {
    if (!p) continue;
    for (const PolicyTerm& t : p->terms) {
      for (const std::string& proto : t.protocols) {
        if (proto != "bgp" && !proto.empty()) out.push_back(proto);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace strata::bgp
