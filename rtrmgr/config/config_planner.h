// ConfigPlanner: turns the difference between the running and the candidate configuration into
// the ordered XRL calls that apply it, each with its undo.
//
// Both trees are planned with BGP peer groups expanded (PeerGroups): a group's setting is each
// of its neighbors', so changing it changes them. Nodes are matched between the trees by
// TemplateNode::Identity. For a node only in the running tree, its subtree's %delete XRLs are
// emitted, children before parents; for a node only in the candidate, its subtree's %create XRLs,
// parents before children. A changed leaf with XRLs of its own is sent its %change (or %delete then
// %create); a changed leaf without XRLs marks its nearest ancestor that has XRLs as changed: that
// ancestor is sent its %change with the new values, or, if it has none, is deleted and re-created
// with its whole subtree. Order: every delete comes before every create or change; deletes run from
// the highest process rank down (bgp, rib, fea), creates and changes from the lowest up (fea, rib,
// bgp); within a rank the tree order above holds. Undo: a create's is the node's %delete, a
// delete's is its %create with the running values, a change's is the %change with the running
// values. Both trees must have passed ConfigValidator. Thread-compatible; the templates must
// outlive it.
#pragma once

#include <vector>

#include "common/status.h"
#include "rtrmgr/config/config_node.h"
#include "rtrmgr/config/plan_action.h"
#include "rtrmgr/config/template_tree.h"

namespace strata::rtrmgr {

class ConfigPlanner {
 public:
  explicit ConfigPlanner(const TemplateTree& templates) : templates_(templates) {}

  StatusOr<std::vector<PlanAction>> Plan(const ConfigNode& running,
                                         const ConfigNode& candidate) const;
  // Everything in `candidate` from scratch (a fresh start, or replaying a restarted process).
  StatusOr<std::vector<PlanAction>> PlanCreate(const ConfigNode& candidate) const;
  // The process instances the nodes of `tree` belong to, once each, by rank then instance name:
  // "fea" once, "rib.red" only if VR red configures something that rib serves.
  StatusOr<std::vector<ProcessInstance>> RequiredProcesses(const ConfigNode& tree) const;

 private:
  const TemplateTree& templates_;
};

}  // namespace strata::rtrmgr
