// BootConfig: which configuration a start of strata-rtrmgr applies, and what it tells the
// operator about the choice. Commits persist in the state directory, so a restart keeps what
// was committed (as Junos boots its committed configuration):
//
//   no commit yet            the file (-c), which becomes revision 1
//   a last commit, no -c     the last commit; its revision stays (nothing new is recorded)
//   -c equal to the commit   the same, said in one line
//   -c differing             the last commit, with a warning that names both, shows the
//                            difference and says how to choose: `--boot file` to start with the
//                            file (a new revision; the commit stays for rollback), or `save` to
//                            write the commit into the file
//   --boot file              the file, as a new revision
//   a `commit confirmed` not confirmed before the restart: the last confirmed revision, as a new
//                            revision (unless --boot file)
//
// The chosen text is checked by the full validator: its errors refuse the start (with their
// file:line:column, a commit file's own lines included) and name the way out. Stateless.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "rtrmgr/commit_history.h"
#include "rtrmgr/config/config_node.h"
#include "rtrmgr/config/template_tree.h"
#include "rtrmgr/pending_confirm.h"

namespace strata::rtrmgr {

enum class BootFrom { kAuto, kCommit, kFile };

struct BootPlan {
  ConfigNode config;
  bool record = true;   // false: it is the last commit, applied without a new revision
  std::string comment;  // of the new revision
  std::string source;   // "/etc/strata/strata.conf", "revision 7 (/var/lib/strata/commit-7.conf)"
  std::vector<std::string> notes;     // to log as info
  std::vector<std::string> warnings;  // to log as warnings (validator warnings included)
  bool rolled_back = false;           // an unconfirmed commit was undone
};

class BootConfig {
 public:
  // `file` "" when none was given. INVALID_ARGUMENT (one line per problem, then what to do)
  // when the chosen configuration does not parse or validate, or there is none at all.
  static StatusOr<BootPlan> Choose(const std::string& file, BootFrom from,
                                   const CommitHistory& history,
                                   const std::optional<PendingConfirm>& pending,
                                   const TemplateTree& templates);
};

}  // namespace strata::rtrmgr
