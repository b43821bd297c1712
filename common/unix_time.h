// UnixMillisNow: the wall-clock time, in milliseconds since the Unix epoch, that an operator
// reads beside an event (monitor lines, discarded routes, FIB statistics). Never for timers or
// durations: those use steady clocks.
#pragma once

#include <chrono>
#include <cstdint>

namespace strata {

inline int64_t UnixMillisNow() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace strata
