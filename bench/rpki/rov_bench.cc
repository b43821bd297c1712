// strata-rov-bench [ROUTES]: route origin validation (RFC 6811) at full-table scale.
//
// Routes: a real table with origin ASes (/work/shared/data/rv_pfx2as_20240406, 998k IPv4
// prefixes, or $STRATA_BENCH_TABLE), the first ROUTES of them (default: all). VRPs generated from
// the same table, about one per two routes as in today's RPKI (about half the routes covered):
// every second route's prefix with its origin AS; one in ten of those names another AS (the
// route becomes invalid), one in eight allows 4 more bits of length. Prints:
// - the VRP table: build time, resident memory it takes;
// - validation alone: VrpTable::Validate over every route (time, ns per route) and the states;
// - the pipeline: one eBGP peer sending the table to another through an import policy rejecting
//   invalid routes, with validation on: time until the other peer has it all;
// - a VRP change reaching the peer: one VRP replaced (its route turns invalid), then 10,000,
//   from vrps_changed() until the withdrawals are in the peer's session output (scheduler run to
//   idle; in strata-bgp the RTR transfer and one event-loop turn come before).
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bgp/pipeline/bgp_pipeline.h"
#include "bgp/rpki/origin_as.h"
#include "bgp/rpki/vrp_table.h"
#include "testing/bgp/counting_sinks.h"
#include "testing/bgp/fake_nexthop_oracle.h"

namespace strata::bgp {
namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// Resident set size in MB (/proc/self/statm).
double RssMb() {
  std::ifstream f("/proc/self/statm");
  long pages = 0;
  long resident = 0;
  f >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1e6;
}

struct OriginRoute {
  IpPrefix prefix;
  uint32_t origin = 0;
};

// "prefix nexthop as..." lines; the last AS is the origin (AS_SET tokens skipped).
std::vector<OriginRoute> LoadOrigins(const std::string& path, size_t limit) {
  std::vector<OriginRoute> out;
  FILE* p = ::popen(("zcat '" + path + "'").c_str(), "r");
  if (!p) return out;
  char line[4096];
  while (out.size() < limit && std::fgets(line, sizeof line, p)) {
    std::istringstream in(line);
    std::string prefix_text, nexthop_text, as_text;
    in >> prefix_text >> nexthop_text;
    auto prefix = IpPrefix::Parse(prefix_text, true);
    if (!prefix.ok()) continue;
    uint32_t origin = 0;
    while (in >> as_text) {
      if (as_text.front() != '{') origin = static_cast<uint32_t>(std::stoul(as_text));
    }
    if (origin == 0) continue;
    out.push_back({*prefix, origin});
  }
  ::pclose(p);
  return out;
}

std::vector<Vrp> MakeVrps(const std::vector<OriginRoute>& routes) {
  std::vector<Vrp> out;
  for (size_t i = 0; i < routes.size(); i += 2) {
    const OriginRoute& r = routes[i];
    Vrp v{r.prefix, static_cast<uint8_t>(r.prefix.len()), r.origin};
    if (out.size() % 10 == 9) v.asn = r.origin + 1;
    if (out.size() % 8 == 3)
      v.max_len = static_cast<uint8_t>(std::min(r.prefix.len() + 4, r.prefix.max_len()));
    out.push_back(v);
  }
  return out;
}

int Run(size_t limit) {
  const char* env = std::getenv("STRATA_BENCH_TABLE");
  const std::string path =
      env ? env : "/work/shared/data/rv_pfx2as_20240406/rv2_20240406.v4.txt.gz";
  const std::vector<OriginRoute> routes = LoadOrigins(path, limit);
  if (routes.empty()) {
    std::fprintf(stderr, "no routes in %s\n", path.c_str());
    return 1;
  }
  const std::vector<Vrp> vrps = MakeVrps(routes);
  std::printf("table %s: %zu routes, %zu VRPs generated\n", path.c_str(), routes.size(),
              vrps.size());

  const double rss0 = RssMb();
  VrpTable table;
  auto t0 = Clock::now();
  for (const Vrp& v : vrps) table.Add(v);
  const double build_ms = Ms(Clock::now() - t0);
  std::printf("vrp table: %zu VRPs at %zu prefixes, built in %.1f ms, %.1f MB resident\n",
              table.size(), table.prefixes(), build_ms, RssMb() - rss0);

  size_t states[4] = {};
  t0 = Clock::now();
  for (const OriginRoute& r : routes)
    ++states[static_cast<size_t>(table.Validate(r.prefix, r.origin))];
  const double validate_ms = Ms(Clock::now() - t0);
  std::printf(
      "validate: %zu routes in %.1f ms (%.0f ns/route): valid %zu, invalid %zu, "
      "not-found %zu\n",
      routes.size(), validate_ms, validate_ms * 1e6 / static_cast<double>(routes.size()),
      states[static_cast<size_t>(RovState::kValid)],
      states[static_cast<size_t>(RovState::kInvalid)],
      states[static_cast<size_t>(RovState::kNotFound)]);

  // The pipeline: peer 1 sends the table, peer 2 gets what is not invalid.
  FakeNexthopOracle oracle;
  oracle.set_route(*IpPrefix::Parse("192.0.2.0/24"), 1);
  test_util::CountingRibSink rib;
  TaskScheduler scheduler;
  PipelineConfig config;
  config.local_as = 65000;
  config.router_id = IpAddr::V4(0x09090909);
  BgpPipeline pipeline(config, oracle, rib, scheduler);
  pipeline.set_vrps(&table);
  PeerId ids[2];
  for (uint32_t i = 0; i < 2; ++i) {
    PipelinePeerConfig c;
    c.address = IpAddr::V4(0x0aff0101 + i);
    c.peer_as = 65001 + i;
    c.local_address = IpAddr::V4(0x0aff0001 + i);
    c.import_policy = [](const BgpRouteRef& r) {
      return r->rov_state() == RovState::kInvalid ? nullptr : r;
    };
    ids[i] = pipeline.add_peer(c).value();
  }
  test_util::CountingSessionSink up;
  test_util::CountingSessionSink down;
  if (!pipeline.peer_up(ids[0], IpAddr::V4(0x0aff0101), up).ok() ||
      !pipeline.peer_up(ids[1], IpAddr::V4(0x0aff0102), down).ok()) {
    return 1;
  }
  auto settle = [&] {
    while (oracle.answer_all() > 0 || scheduler.run_until_idle() > 0) {
    }
  };
  settle();
  const double rss1 = RssMb();
  t0 = Clock::now();
  for (size_t i = 0; i < routes.size(); ++i) {
    PathAttributes a;
    a.origin = Origin::kIgp;
    a.as_path = AsPath::Sequence({65001, routes[i].origin});
    a.next_hop = IpAddr::V4(0xC0000201);
    const IpPrefix p[] = {routes[i].prefix};
    if (!pipeline.receive_update(ids[0], AttributeSet::Make(std::move(a)), p, {}).ok()) return 1;
    if (i % 1000 == 999) settle();
  }
  settle();
  const double load_ms = Ms(Clock::now() - t0);
  const PipelinePeerCounters c = pipeline.counters(ids[0]).value();
  std::printf(
      "pipeline: %zu routes in %.0f ms (validation on, import rejects invalid): peer got "
      "%zu; valid %llu, invalid %llu, not-found %llu; %.0f MB resident for the routes\n",
      routes.size(), load_ms, down.announced, static_cast<unsigned long long>(c.rov_valid),
      static_cast<unsigned long long>(c.rov_invalid),
      static_cast<unsigned long long>(c.rov_not_found), RssMb() - rss1);

  // One VRP replaced by one naming another AS: its routes turn invalid and are withdrawn.
  auto change = [&](size_t n) {
    const size_t before = down.withdrawals;
    std::vector<IpPrefix> changed;
    size_t done = 0;
    for (size_t i = 0; i < vrps.size() && done < n; ++i) {
      const Vrp& v = vrps[i];
      if (v.asn != routes[2 * i].origin) continue;  // already invalid
      table.Remove(v);
      table.Add(Vrp{v.prefix, v.max_len, v.asn + 7});
      changed.push_back(v.prefix);
      ++done;
    }
    const uint64_t slices = scheduler.slices_run();
    const auto start = Clock::now();
    pipeline.vrps_changed(changed);
    settle();
    std::printf(
        "vrp change: %zu VRPs replaced, %zu withdrawals reached the peer in %.2f ms "
        "(%llu scheduler slices, %llu routes re-validated in all)\n",
        done, down.withdrawals - before, Ms(Clock::now() - start),
        static_cast<unsigned long long>(scheduler.slices_run() - slices),
        static_cast<unsigned long long>(pipeline.revalidator().stats().visited));
  };
  change(1);
  change(10000);
  return 0;
}

}  // namespace
}  // namespace strata::bgp

int main(int argc, char** argv) {
  const size_t limit = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : SIZE_MAX;
  return strata::bgp::Run(limit);
}
