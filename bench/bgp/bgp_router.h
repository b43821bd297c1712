// RouterDriver: starts, configures and stops one BGP implementation under test inside the
// router namespace, for strata-bgp-bench.
//
// Every router gets the same setup: AS kRouterAs at 10.99.0.1, three passive eBGP peers (feeder
// A, the counter, feeder B; bench/bgp/bgp_netns.h has the addresses) that it imports everything
// from; it exports everything to the counter and nothing back to the feeders. With `kernel` it
// also installs its best routes into the namespace's main table, where it can (BIRD's kernel
// protocol, FRR's zebra); installs_kernel() says whether it does. Drivers run the daemons in
// the foreground with their own config, pid, socket and log files in `dir`.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace strata::bench {

inline constexpr uint32_t kRouterAs = 4200000000u;
inline constexpr uint32_t kFeederAAs = 4200000001u;
inline constexpr uint32_t kCounterAs = 4200000002u;
inline constexpr uint32_t kFeederBAs = 4200000003u;

struct RouterSetup {
  std::string ns;          // the router namespace
  std::string dir;         // a fresh directory for its files
  bool kernel = false;     // install routes into the kernel
  std::string strata_bin;  // where the strata-* binaries are
};

class RouterDriver {
 public:
  virtual ~RouterDriver() = default;
  virtual std::string name() const = 0;
  // Empty when the router can run here, else what is missing.
  virtual std::string Missing(const RouterSetup& setup) const = 0;
  // Starts the daemons and configures them; the sessions come up when the tester connects.
  virtual Status Start(const RouterSetup& setup) = 0;
  virtual void Stop() = 0;
  // The router's processes, for RSS and CPU.
  virtual std::vector<pid_t> pids() const = 0;
  virtual bool installs_kernel() const = 0;
  // Runs the router's profiler (strata-profile ARGS against its processes) and returns what it
  // printed. Routers without profiling points: Unimplemented.
  virtual StatusOr<std::string> Profile(const std::vector<std::string>& /*args*/) {
    return Status(StatusCode::kUnimplemented, name() + " has no profiling points");
  }
};

std::unique_ptr<RouterDriver> MakeBirdDriver();
std::unique_ptr<RouterDriver> MakeFrrDriver();
std::unique_ptr<RouterDriver> MakeGobgpDriver();
std::unique_ptr<RouterDriver> MakeStrataDriver();
// The floor: strata-bgp-relay, which copies UPDATEs without processing them.
std::unique_ptr<RouterDriver> MakeRelayDriver();
// By name: "bird", "frr", "gobgp", "strata", "relay"; nullptr for others.
std::unique_ptr<RouterDriver> MakeDriver(const std::string& name);

// Writes `text` to `path`; false on failure.
bool WriteFile(const std::string& path, const std::string& text);

}  // namespace strata::bench
