// PeerGroups: BGP peer groups (Junos `group`, FRR `peer-group`) as the rest of the configuration
// machinery sees them: gone, their settings copied into their neighbors.
//
//   bgp { group transit { as 64500; import in; peer 192.0.2.1 { description a; } }
//         peer 192.0.2.2 { group transit; hold-time 30; } }
//
// A neighbor belongs to a group by being written inside it (its `group` is then the group's
// name) or by naming it (`group NAME;` in a neighbor written at the bgp level). Expanded, every
// neighbor sits at the bgp level and has each setting of its group that it does not set itself
// (its own wins, as in Junos and FRR); the copies keep the group's positions, so a finding about
// an inherited value points at the group's line. A group change is then a change of each of its
// neighbors, which the planner sends as change_peer; the group itself does nothing.
// Stateless.
#pragma once

#include "rtrmgr/config/config_node.h"

namespace strata::rtrmgr {

class PeerGroups {
 public:
  // `root` with each VR's neighbors expanded. `keep_groups`: the group nodes stay (emptied of
  // neighbors) for the rules, which check references to them; else they are removed (for the
  // planner).
  static ConfigNode Expand(const ConfigNode& root, bool keep_groups);
};

}  // namespace strata::rtrmgr
