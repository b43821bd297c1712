// BenchNetwork: the two network namespaces and the veth link the BGP benchmark runs over.
//
//   tester namespace "bb-t<pid>"  10.99.0.2 (feeder A), .3 (counter), .4 (feeder B)
//        | veth bb-<pid>t <-> bb-<pid>r, subnet 10.99.0.0/16
//   router namespace "bb-r<pid>"  10.99.0.1 (the router under test)
//
// The constructor creates them (removing leftovers of benchmark runs whose process is gone);
// Remove() and the destructor delete them. Cleanup on signals is InstallCleanupHandlers' job:
// it kills registered child processes and deletes the namespaces before the process exits.
// Not thread-safe; one per process at a time.
#pragma once

#include <sys/types.h>

#include <string>

namespace strata::bench {

inline constexpr const char* kRouterAddr = "10.99.0.1";
inline constexpr const char* kFeederAAddr = "10.99.0.2";
inline constexpr const char* kCounterAddr = "10.99.0.3";
inline constexpr const char* kFeederBAddr = "10.99.0.4";

class BenchNetwork {
 public:
  BenchNetwork();  // check ok() afterwards
  ~BenchNetwork();
  BenchNetwork(const BenchNetwork&) = delete;
  BenchNetwork& operator=(const BenchNetwork&) = delete;

  bool ok() const { return ok_; }
  const std::string& tester_ns() const { return tester_; }
  const std::string& router_ns() const { return router_; }
  // Moves the calling thread (and threads it starts later) into a namespace.
  static bool Enter(const std::string& ns);
  void Remove();

 private:
  std::string tester_, router_;
  bool ok_ = false;
};

// Runs `cmd` through /bin/sh; true on exit status 0.
bool Sh(const std::string& cmd);

// Children to SIGKILL and namespaces to delete if SIGINT/SIGTERM arrives.
void RegisterChild(pid_t pid);
void UnregisterChild(pid_t pid);
void InstallCleanupHandlers();

}  // namespace strata::bench
