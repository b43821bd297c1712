// strata-policy-refilter-bench: the time a policy change keeps strata-bgp's event loop busy.
//
// Builds a BgpPipeline with two eBGP peers, feeds peer 1 the first N routes (default 200000) of
// a real table (/work/shared/data, AS paths kept, or $STRATA_BENCH_TABLE), lets everything reach
// peer 2, then changes peer 1's import policy (a MED on every route: every route is replaced in
// decision and towards peer 2) and peer 2's export policy (rejects every other /24), then takes
// peer 1 down (its routes withdrawn towards peer 2 and the RIB, as in strata-bgp-bench's phase
// (c); figures per withdrawal too). Each runs twice: with the deletion's slice size (200 prefixes,
// as strata-bgp does), and with one slice for the whole walk (the same work done at once).
// Between slices the process's io_context would serve other sessions and IPC calls, so the longest
// single scheduler slice is the longest time the process stays unresponsive. Prints, per run:
// slices, longest slice and total in thread CPU time (robust on a loaded machine), and the longest
// slice in wall time. Usage: strata-policy-refilter-bench [routes]
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bgp/pipeline/bgp_pipeline.h"
#include "testing/bgp/counting_sinks.h"
#include "testing/bgp/fake_nexthop_oracle.h"

namespace strata::bgp {
namespace {

using test_util::CountingRibSink;
using test_util::CountingSessionSink;
using Clock = std::chrono::steady_clock;

struct TableRoute {
  IpPrefix prefix;
  AttributeSetPtr attrs;
};

std::vector<TableRoute> LoadTable(const std::string& path, size_t limit) {
  std::vector<TableRoute> out;
  FILE* p = ::popen(("zcat '" + path + "'").c_str(), "r");
  if (!p) return out;
  char line[4096];
  while (out.size() < limit && std::fgets(line, sizeof line, p)) {
    std::istringstream in(line);
    std::string prefix_text, nexthop_text, as_text;
    in >> prefix_text >> nexthop_text;
    auto prefix = IpPrefix::Parse(prefix_text, true);
    if (!prefix.ok() || !prefix->addr().is_v4()) continue;
    std::vector<uint32_t> asns;
    while (in >> as_text) {
      if (as_text.front() != '{') asns.push_back(static_cast<uint32_t>(std::stoul(as_text)));
    }
    PathAttributes a;
    a.origin = Origin::kIgp;
    a.as_path = AsPath::Sequence(asns);
    a.next_hop = IpAddr::V4(0xC0000200u + 1 + static_cast<uint32_t>(out.size() % 250));
    out.push_back({*prefix, AttributeSet::Make(std::move(a))});
  }
  ::pclose(p);
  return out;
}

struct SliceStats {
  size_t slices = 0;
  double longest_ms = 0;  // CPU
  double total_ms = 0;    // CPU
  double longest_wall_ms = 0;
};

double CpuMs() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

SliceStats RunToIdle(TaskScheduler& scheduler) {
  SliceStats s;
  for (bool more = true; more;) {
    const auto t0 = Clock::now();
    const double c0 = CpuMs();
    more = scheduler.run_slice();
    const double ms = CpuMs() - c0;
    const double wall = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    ++s.slices;
    s.total_ms += ms;
    if (ms > s.longest_ms) s.longest_ms = ms;
    if (wall > s.longest_wall_ms) s.longest_wall_ms = wall;
  }
  return s;
}

RoutePolicy SetMed(uint32_t med) {
  return [med](const BgpRouteRef& r) {
    PathAttributes a = r->path();
    a.med = med;
    return WithAttrs(*r, AttributeSet::Make(std::move(a)));
  };
}

RoutePolicy RejectOddSlash24() {
  return [](const BgpRouteRef& r) -> BgpRouteRef {
    if (r->prefix.len() == 24 && ((r->prefix.addr().v4_host_order() >> 8) & 1)) return nullptr;
    return r;
  };
}

int Run(size_t limit) {
  const char* env = std::getenv("STRATA_BENCH_TABLE");
  const std::string path =
      env ? env : "/work/shared/data/ris_rrc06_20100701/AS2497_202.249.2.169.v4.txt.gz";
  const std::vector<TableRoute> table = LoadTable(path, limit);
  if (table.empty()) {
    std::fprintf(stderr, "no routes read from %s\n", path.c_str());
    return 1;
  }
  std::printf("table %s: %zu routes\n", path.c_str(), table.size());
  for (size_t slice : {size_t{200}, std::numeric_limits<size_t>::max()}) {
    FakeNexthopOracle oracle;
    oracle.set_auto_answer(true);
    oracle.set_route(IpPrefix::Parse("192.0.2.0/24").value(), 10);
    CountingRibSink rib;
    TaskScheduler scheduler;
    PipelineConfig config;
    config.local_as = 65000;
    config.router_id = IpAddr::Parse("9.9.9.9").value();
    config.deletion_slice = slice;
    BgpPipeline pipeline(config, oracle, rib, scheduler);
    PeerId ids[2];
    CountingSessionSink sinks[2];
    for (int i = 0; i < 2; ++i) {
      PipelinePeerConfig c;
      c.address = IpAddr::V4(0x0A000001u + static_cast<uint32_t>(i));
      c.peer_as = 65001 + static_cast<uint32_t>(i);
      c.local_address = IpAddr::Parse("10.255.0.1").value();
      ids[i] = pipeline.add_peer(c).value();
      if (!pipeline.peer_up(ids[i], c.address, sinks[i]).ok()) return 1;
    }
    for (const TableRoute& r : table) {
      const IpPrefix one[] = {r.prefix};
      if (!pipeline.receive_update(ids[0], r.attrs, one, {}).ok()) return 1;
    }
    RunToIdle(scheduler);
    const std::string mode = slice == 200 ? "sliced (200)" : "one slice (synchronous)";

    auto t0 = Clock::now();
    if (!pipeline.set_import_policy(ids[0], SetMed(5)).ok()) return 1;
    double call_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    SliceStats s = RunToIdle(scheduler);
    std::printf(
        "import %-24s call %.2f ms, %zu slices, longest %.2f ms CPU (%.2f ms wall), total %.1f ms "
        "CPU\n",
        mode.c_str(), call_ms, s.slices, s.longest_ms, s.longest_wall_ms, s.total_ms);

    const size_t before = sinks[1].withdrawals;
    t0 = Clock::now();
    if (!pipeline.set_export_policy(ids[1], RejectOddSlash24()).ok()) return 1;
    call_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    s = RunToIdle(scheduler);
    std::printf(
        "export %-24s call %.2f ms, %zu slices, longest %.2f ms CPU (%.2f ms wall), total %.1f ms "
        "CPU, %zu withdrawn\n",
        mode.c_str(), call_ms, s.slices, s.longest_ms, s.longest_wall_ms, s.total_ms,
        sinks[1].withdrawals - before);

    // Peer 1 goes down: its routes are withdrawn towards peer 2 (no export policy now) and the
    // RIB by a deletion stage, as in strata-bgp-bench's phase (c).
    if (!pipeline.set_export_policy(ids[1], nullptr).ok()) return 1;
    RunToIdle(scheduler);
    const size_t withdrawn_before = sinks[1].withdrawals;
    t0 = Clock::now();
    if (!pipeline.peer_down(ids[0]).ok()) return 1;
    call_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    s = RunToIdle(scheduler);
    const size_t withdrawn = sinks[1].withdrawals - withdrawn_before;
    std::printf(
        "down   %-24s call %.2f ms, %zu slices, longest %.2f ms CPU (%.2f ms wall), total %.1f ms "
        "CPU, %zu withdrawn (%.2f us CPU each)\n",
        mode.c_str(), call_ms, s.slices, s.longest_ms, s.longest_wall_ms, s.total_ms, withdrawn,
        withdrawn ? s.total_ms * 1e3 / static_cast<double>(withdrawn) : 0.0);
  }
  return 0;
}

}  // namespace
}  // namespace strata::bgp

int main(int argc, char** argv) {
  const size_t limit = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200000;
  return strata::bgp::Run(limit);
}
