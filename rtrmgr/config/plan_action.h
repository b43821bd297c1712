// PlanAction: one step of applying a configuration change: an XRL to call, the process instance
// it goes to, and the XRL that undoes it (for rollback when a later step fails). Produced by
// ConfigPlanner. Value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libipc/xrl.h"
#include "rtrmgr/config/config_node.h"

namespace strata::rtrmgr {

struct PlanAction {
  enum class Kind { kCreate, kChange, kDelete };

  Kind kind = Kind::kCreate;
  std::string path;      // the config node: "virtual-router red static route 192.0.2.0/24"
  SourcePos pos;         // where the operator wrote that node (line 0: nowhere known)
  std::string process;   // process class from the templates: "rib"
  std::string instance;  // process instance: "rib.red"
  uint32_t rank = 0;     // the process's rank (fea before rib before bgp)
  ipc::Xrl xrl;
  std::optional<ipc::Xrl> undo;  // none when the template names no inverse

  // "create rib.red virtual-router red static: finder://... undo finder://..."
  std::string ToString() const;
  static std::string_view KindName(Kind kind);
};

// A process the configuration needs running.
struct ProcessInstance {
  std::string process;   // "rib"
  std::string instance;  // "rib.red"
  uint32_t rank = 0;
  std::vector<std::string> args;  // from the process's `arg` lines, expanded from the config

  // One instance is one process: its arguments do not make it another.
  friend bool operator==(const ProcessInstance& a, const ProcessInstance& b) {
    return a.process == b.process && a.instance == b.instance && a.rank == b.rank;
  }
};

}  // namespace strata::rtrmgr
