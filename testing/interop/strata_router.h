// StrataRouter: a whole Strata router in a network namespace, as an operator runs it:
// strata-rtrmgr with a configuration file, starting strata-finder, -fea (kernel programming on),
// -rib and -bgp there. The run directory (STRATA_RUN_DIR), state and logs live in `dir`;
// Call() and Exec() reach the router's processes with the tools an operator uses (strata-call,
// strata-sh). Not thread-safe; needs root, iproute2 and the strata-* binaries in `bin_dir`.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "common/json.h"
#include "common/status.h"
#include "testing/interop/command.h"
#include "testing/interop/net_ns.h"

namespace strata::interop {

class StrataRouter {
 public:
  // REQUIRES: `dir` exists; `ns` outlives the router.
  StrataRouter(const NetNs& ns, std::string dir, std::string bin_dir)
      : ns_(ns), dir_(std::move(dir)), bin_dir_(std::move(bin_dir)) {}
  ~StrataRouter() { Stop(); }

  // Writes `config` to DIR/router.conf and starts strata-rtrmgr on it (debug logs), with
  // `extra` arguments.
  Status Start(const std::string& config, const std::vector<std::string>& extra = {});
  // Stops the rtrmgr, which stops its processes in order.
  void Stop() { rtrmgr_.Stop(std::chrono::seconds(10)); }

  // `argv` in the namespace with STRATA_RUN_DIR set (argv[0] relative to bin_dir when it has no
  // slash: "strata-sh").
  CommandResult Exec(std::vector<std::string> argv,
                     std::chrono::milliseconds limit = std::chrono::seconds(10)) const;
  // strata-call --json `xrl`; null when the call fails or its output is not JSON.
  nlohmann::json Call(const std::string& xrl) const;
  // The tail of the rtrmgr's log and those of VR `vr`'s processes and the FEA, for failures.
  std::string Logs(const std::string& vr) const;

  const std::string& dir() const { return dir_; }

 private:
  const NetNs& ns_;
  std::string dir_;
  std::string bin_dir_;
  Daemon rtrmgr_;
};

}  // namespace strata::interop
