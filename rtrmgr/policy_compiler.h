// PolicyCompiler: turns the `policy` subtree of a configuration into bgp/1.0/define_policy
// calls, and the policy part of a commit into PlanActions.
//
// A statement is sent whole (define_policy replaces a statement of the same name) to every BGP
// speaker (bgp.<vr>) that names it in import or export (the VR's bgp or its peers), and only to
// those. Mapping:
// term -> terms.N (name; from: prefix -> prefixes.M.prefix, route-filter P {ge; le} ->
// prefixes.M.prefix/ge/le, protocol, community, as-path -> as_path_regex, neighbor; then:
// action, local-preference -> set_local_pref, metric -> set_med, next-hop -> set_nexthop,
// community-add -> add_communities, as-path-prepend -> prepend_count); default-action.
// Plan(): a statement that a speaker newly needs, or whose text changed, is defined (undo: the
// old definition, or delete_policy); one a speaker no longer needs is deleted (undo: the old
// definition) unless the speaker itself goes away. Defines must run before the peers'
// set_peer_policy / set_default_policy and deletes after their clear_*_policy: Merge() places them
// so.
// Both trees must have passed ConfigValidator. Stateless.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "libipc/xrl.h"
#include "rtrmgr/config/config_node.h"
#include "rtrmgr/config/plan_action.h"

namespace strata::rtrmgr {

class PolicyCompiler {
 public:
  struct Plan {
    std::vector<PlanAction> defines;
    std::vector<PlanAction> deletes;
  };

  // The define_policy XRL of statement `name` for `target`; NOT_FOUND if it is not defined.
  static StatusOr<ipc::Xrl> Compile(const ConfigNode& root, const std::string& name,
                                    const std::string& target);
  // Statements `vr`'s bgp and its peers name, sorted, once each.
  static std::vector<std::string> Referenced(const ConfigNode& root, const std::string& vr);
  static StatusOr<Plan> Diff(const ConfigNode& running, const ConfigNode& candidate,
                             uint32_t bgp_rank);
  // Inserts the defines before the first bgp action that is not a delete (or at the end) and
  // appends the deletes.
  static std::vector<PlanAction> Merge(std::vector<PlanAction> plan, Plan policy);
};

}  // namespace strata::rtrmgr
