// Router::AuditIncomingCall: the log line a state-changing call from outside the rtrmgr leaves
// in the component it changes (docs/ipc.md, "Who may call what").
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

#include "libipc/read_only_methods.h"
#include "libipc/router.h"

namespace strata::ipc {
namespace {

// The parent of `pid` from /proc/PID/stat (0 if gone), and its command name.
pid_t ParentOf(pid_t pid, std::string* comm) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return 0;
  const auto open = line.find('(');
  const auto close = line.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close + 4 >= line.size()) {
    return 0;
  }
  if (comm != nullptr) *comm = line.substr(open + 1, close - open - 1);
  // ") S 1234 ..."
  return static_cast<pid_t>(std::atoi(line.c_str() + close + 4));
}

}  // namespace

void Router::AuditIncomingCall(const Channel& ch, std::string_view instance,
                               std::string_view path) {
  if (supervisor_pid_ == 0 || IsReadOnlyMethod(path)) return;
  std::string comm;
  const auto& cred = ch.credentials();
  if (cred) {
    // The rtrmgr itself, or a process it started (the router's components calling each other).
    if (cred->pid == supervisor_pid_ || cred->pid == ::getpid()) return;
    if (ParentOf(cred->pid, &comm) == supervisor_pid_) return;
  }
  auto& logged = audited_[&ch];
  const std::string method(path);
  if (std::find(logged.begin(), logged.end(), method) != logged.end()) return;
  logged.push_back(method);
  log_->warn("state-changing call {} on {} from outside the rtrmgr, by {}{}", method, instance,
             cred ? cred->ToString() : ch.peer(), comm.empty() ? "" : " (" + comm + ")");
}

}  // namespace strata::ipc
