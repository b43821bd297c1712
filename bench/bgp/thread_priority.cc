#include "bench/bgp/thread_priority.h"

#include <sched.h>

namespace strata::bench {

bool SetThreadRealtime(pthread_t thread, bool on) {
  sched_param p{};
  p.sched_priority = on ? sched_get_priority_min(SCHED_FIFO) : 0;
  return pthread_setschedparam(thread, on ? SCHED_FIFO : SCHED_OTHER, &p) == 0;
}

}  // namespace strata::bench
