// SetThreadRealtime: moves one of the tester's threads to SCHED_FIFO (lowest real-time priority)
// or back to SCHED_OTHER, so that on a machine the router's processes keep busy the threads that
// time probes are not themselves left waiting for a CPU. Needs root (CAP_SYS_NICE).
#pragma once

#include <pthread.h>

namespace strata::bench {

// False if the kernel refused (no permission): the thread keeps its policy.
bool SetThreadRealtime(pthread_t thread, bool on);

}  // namespace strata::bench
