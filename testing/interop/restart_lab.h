// RestartLab: a whole Strata router fed a table by BIRD, with a watch on the kernel table it
// installs: what the restart tests (tests/interop/restart_test.cc) and strata-restart-bench
// (bench/restart) inject faults into (docs/restart.md).
//
//   namespace "b": BIRD, AS 65010, 10.200.1.1 --- link 1 --- 10.200.1.2 namespace "r": Strata
//
// BIRD originates the table as static routes through 40 gateways of the link (10.200.1.10 to
// .49, prefix i through gateway i % 40) and exports them with their next hop kept, with graceful
// restart on and its session states logged. Strata is strata-rtrmgr with VR "lab" on kernel
// table 100 (protocol 201) and one eBGP peer; its run directory, logs and state are in the lab's
// directory. A RouteMonitor (fea/netlink/route_monitor.h) follows table 100 from the start.
// Withdraw() takes prefixes out of BIRD's table (birdc configure), as a peer withdrawing routes
// while Strata is in trouble. Compare() says how the kernel differs from BIRD's table (each route
// through its gateway).
// Not thread-safe (one test or benchmark thread); needs root, BIRD 2 and iproute2.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "common/json.h"
#include "common/status.h"
#include "fea/netlink/route_monitor.h"
#include "testing/interop/command.h"
#include "testing/interop/net_ns.h"
#include "testing/interop/veth_link.h"

namespace strata::interop {

class RestartLab {
 public:
  struct Options {
    std::vector<IpPrefix> table;  // IPv4, no duplicates
    std::string dir;              // logs, configurations, the router's run directory
    std::string bin_dir;          // strata-* binaries
    // Added to every strata-rtrmgr start (e.g. "--liveness-timeout-ms", "3000").
    std::vector<std::string> rtrmgr_args;
    bool keep_events = true;  // the monitor keeps every event (not only tallies)
  };
  static constexpr uint32_t kTable = 100;
  static constexpr uint8_t kProtocol = 201;
  static constexpr const char* kVr = "lab";

  static StatusOr<std::unique_ptr<RestartLab>> Create(Options options);
  ~RestartLab();

  Status StartBird();
  // strata-rtrmgr with the lab's configuration (and `extra` arguments this time only).
  Status StartRouter(const std::vector<std::string>& extra = {});
  // Signals the rtrmgr; Waits for it to exit (true) within `limit`.
  bool SignalRouter(int sig, std::chrono::milliseconds limit);
  pid_t RouterPid() const { return rtrmgr_.pid(); }

  // strata-call --json XRL in the router's namespace (null on failure).
  nlohmann::json Call(const std::string& xrl) const;
  // The rtrmgr's view of a process (null if unknown).
  nlohmann::json Process(const std::string& instance) const;
  // The pid of a process as the rtrmgr reports it (0: not running or unknown).
  pid_t Pid(const std::string& instance) const;
  // Every Strata process of the router (by /proc: the rtrmgr's too), instance order undefined.
  std::vector<pid_t> RouterProcesses() const;
  bool Established() const;
  // BIRD's session with Strata went down this many times since StartBird (its state log).
  int SessionDowns() const;

  // Takes the first `n` prefixes still announced out of BIRD's table; returns them.
  StatusOr<std::vector<IpPrefix>> Withdraw(size_t n);
  const std::set<IpPrefix>& announced() const { return announced_; }
  // The gateway BIRD gives prefix `p` (REQUIRES: in the table).
  const IpAddr& GatewayOf(const IpPrefix& p) const { return gateways_.at(p); }

  // A fault begins: remembers the Strata routes in table 100 now (the routes whose disturbance
  // counts) and resets the monitor.
  void FaultBegins();
  // The prefixes in table 100 at FaultBegins, not in `withdrawn`, that saw a route message since
  // (deleted, replaced or added again), with what they saw. A prefix that appears only later (a
  // link-local route once the address passed DAD) disturbs nothing.
  std::vector<std::pair<IpPrefix, fea::netlink::RouteMonitor::Tally>> Touched(
      const std::set<IpPrefix>& withdrawn) const;

  struct Diff {
    size_t missing = 0;  // announced, not in the kernel
    size_t extra = 0;    // Strata routes with a gateway in the kernel that BIRD does not announce
    size_t wrong = 0;    // in the kernel through another gateway
    std::string first;   // an example, for messages
    bool exact() const { return missing == 0 && extra == 0 && wrong == 0; }
    std::string ToString() const;
  };
  Diff Compare() const;
  // Polls Compare() until exact or `limit`.
  bool WaitExact(std::chrono::milliseconds limit) const;
  // Strata routes and nexthop objects (protocol 201) in the router's namespace, by `ip`.
  size_t KernelRoutes() const;
  size_t NexthopObjects() const;

  fea::netlink::RouteMonitor& monitor() { return *monitor_; }
  const NetNs& router_ns() const { return *router_ns_; }
  const std::string& run_dir() const { return run_dir_; }
  // The tail of the router's logs (rtrmgr, fea, rib, bgp), for failure messages.
  std::string Logs() const;

 private:
  explicit RestartLab(Options options) : options_(std::move(options)) {}
  Status WriteBirdRoutes() const;
  std::string RouterConfig() const;

  Options options_;
  std::unique_ptr<NetNs> bird_ns_;
  std::unique_ptr<NetNs> router_ns_;
  std::unique_ptr<VethLink> link_;
  std::string run_dir_;
  std::set<IpPrefix> announced_;
  std::set<IpPrefix> before_fault_;
  absl::flat_hash_map<IpPrefix, IpAddr, std::hash<IpPrefix>> gateways_;
  Daemon bird_;
  Daemon rtrmgr_;
  std::unique_ptr<fea::netlink::RouteMonitor> monitor_;
};

}  // namespace strata::interop
