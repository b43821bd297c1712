// PipelineClock: time for the pipeline's time-driven stages (route flap damping): the common
// Clock interface (common/clock.h), on the io_context in the process (common/asio_clock.h) and
// FakeClock in tests.
#pragma once

#include "common/clock.h"

namespace strata::bgp {

using PipelineTimer = strata::Timer;
using PipelineClock = strata::Clock;

}  // namespace strata::bgp
