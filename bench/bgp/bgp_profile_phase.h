// Phase (e) of strata-bgp-bench: the route propagation profile of the XORP paper's section 8.2
// (figures 10 to 12), for routers with profiling points (Strata: strata-profile).
//
// The router's points are turned on; then, `samples` times, the feeder announces one probe
// route, withdraws it 1 s later, and the next sample starts 2 s after the last; then the points
// are turned off and their records taken (strata-profile dump). Each announcement is followed
// from "entering BGP" (bgp_in) through every point to "entering the kernel" (fea_kernel, with
// kernel install on): events, average, standard deviation, minimum and maximum delay per point.
// Run three times: with an empty table, with the full table on the same peering (feeder A) and
// with the full table on another peering (feeder B).
#pragma once

#include <string>

#include "bench/bgp/bgp_route_counter.h"
#include "bench/bgp/bgp_router.h"
#include "bench/bgp/bgp_tester_session.h"
#include "libipc/profile/profile_report.h"

namespace strata::bench {

struct ProfileScenario {
  std::string name;  // "empty table", ...
  ipc::ProfileSummary summary;
  int lost = 0;       // probes the counter never saw
  std::string error;  // empty: ran
};

// `watch`: the counter's index of `probe`. The feeder's AS and address give the attributes.
ProfileScenario RunProfileScenario(RouterDriver& driver, const std::string& name,
                                   TesterSession& feeder, uint32_t feeder_as,
                                   const char* feeder_addr, RouteCounter& counter,
                                   const IpPrefix& probe, size_t watch, int samples);

// Parses strata-profile dump output ("TIME_NS POINT DETAIL..." per line).
std::vector<ipc::PointRecord> ParseProfileDump(const std::string& text);

}  // namespace strata::bench
