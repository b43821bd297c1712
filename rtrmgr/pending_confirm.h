// PendingConfirm: a `commit confirmed` not yet confirmed, kept in the state directory
// (`confirm-pending`) so that a router restarted inside the window still rolls back: the
// change might have cut the operator off, and a power cycle is the last way back (Junos
// rolls back too). Written atomically, 0600. Value type; Load/Save/Clear are stateless.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/status.h"

namespace strata::rtrmgr {

struct PendingConfirm {
  uint64_t revision = 0;      // the commit waiting for its confirmation
  uint64_t rollback_to = 0;   // the last confirmed revision, restored when time runs out
  int64_t deadline_unix = 0;  // seconds since the epoch

  // Nothing pending (missing file) is nullopt; a file that does not parse is DATA_LOSS.
  static StatusOr<std::optional<PendingConfirm>> Load(const std::string& state_dir);
  Status Save(const std::string& state_dir) const;
  static void Clear(const std::string& state_dir);
};

}  // namespace strata::rtrmgr
