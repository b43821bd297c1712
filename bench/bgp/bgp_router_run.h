// RunRouter: the three phases of strata-bgp-bench against one router, in fresh namespaces.
//
//  (a) full table: the counter session and feeder B come up first, then feeder A sends the
//      whole table; timed from A's first UPDATE byte until the counter holds all N (and, where
//      the router installs routes, until the kernel's main table holds them).
//  (b) latency: with the table loaded, A announces one new prefix (198.18.0.0/24), the time until
//      the counter sees it is one sample; then A withdraws it and the withdrawal is timed too.
//  (c) peer down: feeder B announces a new /24 (from 100.64.0.0/10) every 10 ms; A's session is
//      closed; the worst delay of B's announcements sent until the counter has seen all N
//      withdrawn is reported, with the time that took.
//  (d) event-driven, not scanning (XORP paper, figure 13): before (c), with the table loaded,
//      feeder B announces `event_routes` new /24s (from 198.19.0.0), one every
//      `event_interval_ms`; the delay of each until the counter sees it. A router that scans
//      (a periodic walk of its tables) shows a sawtooth up to its scan interval; an
//      event-driven one a flat line.
//  (e) route propagation profile (bench/bgp/bgp_profile_phase.h), for routers with profiling
//      points: before (a) with an empty table, and after (b) from feeder A and from feeder B.
// Peak RSS (VmHWM summed over the router's processes) and CPU seconds (utime + stime summed)
// are read just before the router stops.
#pragma once

#include <cstdint>
#include <string>

#include "bench/bgp/bgp_profile_phase.h"
#include "bench/bgp/bgp_router.h"
#include "bench/bgp/bgp_table.h"

namespace strata::bench {

struct RunOptions {
  bool kernel = false;
  int latency_samples = 20;
  int timeout_s = 600;           // for the whole table to arrive
  int event_routes = 255;        // (d): 0 skips the phase
  int event_interval_ms = 1000;  // (d): one route every this many ms
  int profile_samples = 10;      // (e): per scenario; 0 skips the phase
  // From phase (b) on, the threads that time the probes (the counter's reader and phase (c)'s
  // prober) run SCHED_FIFO: the tester stands in for peers on machines of their own, so a
  // probe's delay should not include the tester waiting for a CPU the router's processes hold.
  bool tester_rt = true;
  std::string strata_bin;
};

struct RouterResult {
  std::string router;
  bool tester_rt = false;  // the timing threads got SCHED_FIFO (RunOptions::tester_rt)
  std::string error;       // empty: all phases ran
  bool skipped = false;
  size_t n = 0;
  bool extended_messages = false;
  // (a)
  size_t received = 0;
  double full_s = -1;
  double kernel_s = -1;  // -1: not installed / not measured
  long kernel_routes = -1;
  double cpu_full_s = 0;
  double tester_cpu_full_s = 0;  // the benchmark's own CPU in (a): is the tester the limit?
  // (b)
  double lat_median_ms = -1, lat_p99_ms = -1;
  double wd_median_ms = -1, wd_p99_ms = -1;
  int lat_lost = 0;
  // (c)
  double down_withdraw_s = -1;
  double down_worst_ms = -1, down_median_ms = -1, idle_worst_ms = -1;
  int down_probes = 0, down_lost = 0;
  // (d) per route, in the order sent: ms until the counter saw it (-1: lost)
  std::vector<double> event_ms;
  double ev_median_ms = -1, ev_p99_ms = -1, ev_max_ms = -1;
  int ev_lost = 0;
  // (e) routers with profiling points: empty table, full table same / other peering
  std::vector<ProfileScenario> profile;
  // whole run
  long rss_kb = 0;
  double cpu_total_s = 0;
  // The same per process (by command name, e.g. strata-bgp), for routers of several processes:
  // peak RSS over the whole run, CPU in (a) and over the whole run.
  struct ProcessUsage {
    std::string name;
    long rss_kb = 0;
    double cpu_full_s = 0;
    double cpu_total_s = 0;
  };
  std::vector<ProcessUsage> processes;
};

// Encoded UPDATEs of the whole table per message size limit, built once and shared.
class TableMessages {
 public:
  explicit TableMessages(const BenchTable& table) : table_(table) {}
  const std::vector<uint8_t>& Get(bool extended);

 private:
  const BenchTable& table_;
  std::vector<uint8_t> normal_, extended_;
};

RouterResult RunRouter(RouterDriver& driver, const BenchTable& table, TableMessages& messages,
                       const RunOptions& options);

}  // namespace strata::bench
