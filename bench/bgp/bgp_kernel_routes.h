// CountKernelRoutes: how many IPv4 routes a namespace's main table holds that a routing daemon
// put there (protocol other than kernel), by one RTM_GETROUTE netlink dump.
// Thread-safety: call from a thread that may change its network namespace (it enters `ns`);
// the benchmark uses a thread of its own.
#pragma once

#include <string>

namespace strata::bench {

// -1 on error. Moves the calling thread into `ns` for good.
long CountKernelRoutes(const std::string& ns);

}  // namespace strata::bench
