// VR-level (per strata-bgp instance) import and export policies and their inheritance by peers,
// Junos style: a peer's own policy for a direction replaces the VR's; a peer without one uses the
// VR's. Either counts as "a policy" for RFC 8212's eBGP default-deny.
// Also what export policies ask of the RIB (XORP semantics): the protocols their terms match on,
// other than "bgp", are redistributed into BGP without a `redistribute` statement.
// Value types and pure functions. Threading: any.
#pragma once

#include <string>
#include <vector>

#include "bgp/policy/policy.h"

namespace strata::bgp {

enum class PolicyDirection { kImport, kExport };

// A policy attached somewhere: its name ("" none) and the statement it named when attached.
struct PolicyBinding {
  std::string name;
  PolicyRef policy;
  bool empty() const { return name.empty(); }
};

// The VR's policies, one per direction.
struct VrPolicies {
  PolicyBinding import_policy;
  PolicyBinding export_policy;
  PolicyBinding& at(PolicyDirection d) {
    return d == PolicyDirection::kImport ? import_policy : export_policy;
  }
  const PolicyBinding& at(PolicyDirection d) const {
    return d == PolicyDirection::kImport ? import_policy : export_policy;
  }
};

// The policy a peer uses in one direction.
struct EffectivePolicy {
  std::string name;  // "" none
  PolicyRef policy;
  bool inherited = false;  // from the VR
};

// The peer's own binding when it has one, else the VR's (inherited), else none.
EffectivePolicy ResolvePolicy(const PolicyBinding& own, const PolicyBinding& vr);

// The protocols other than "bgp" that the terms of `export_policies` match on (null entries are
// skipped), sorted and without duplicates: those the RIB must redistribute into BGP.
std::vector<std::string> ExportProtocols(const std::vector<PolicyRef>& export_policies);

}  // namespace strata::bgp
