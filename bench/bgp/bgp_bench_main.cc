// strata-bgp-bench: full-table convergence, one-prefix latency and peer-down behaviour of BGP
// routers side by side (BIRD 2, FRR, GoBGP, Strata), each in network namespaces of its own with
// a tester speaker built on bgp/wire. See bench/bgp/README.md. Needs root.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bgp/bgp_netns.h"
#include "bench/bgp/bgp_report.h"
#include "bench/bgp/bgp_router_run.h"
#include "bench/bgp/bgp_table.h"

namespace {

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace strata::bench;
  CLI::App app{"strata-bgp-bench: BGP routers side by side on a real table"};
  std::string routers = "bird,frr,gobgp,strata,relay";
  std::string require;
  size_t n = 100000;
  bool smoke = false;
  RunOptions opt;
  std::string json;
  const char* env_data = std::getenv("STRATA_DATA");
  std::string data = env_data != nullptr ? env_data : "/work/shared/data";
  app.add_option("--routers", routers, "comma-separated: bird,frr,gobgp,strata,relay (the floor)")
      ->capture_default_str();
  app.add_option("--n", n, "prefixes in the table (up to 998042)")->capture_default_str();
  app.add_flag("--smoke", smoke, "N = 1000, 5 latency samples; fails if a --require router fails");
  app.add_flag("--kernel", opt.kernel, "let routers install into the kernel and time it");
  app.add_option("--json", json, "write the figures as JSON to this file");
  app.add_option("--data", data, "the shared data folder (STRATA_DATA)")->capture_default_str();
  app.add_option("--require", require, "routers that must be installed (smoke: bird,strata)");
  app.add_option("--latency-samples", opt.latency_samples, "phase (b) samples")
      ->capture_default_str();
  app.add_option("--timeout", opt.timeout_s, "seconds for the table to arrive")
      ->capture_default_str();
  app.add_option("--event-routes", opt.event_routes,
                 "phase (d): routes sent one at a time (0 skips it)")
      ->capture_default_str();
  app.add_option("--event-interval", opt.event_interval_ms, "phase (d): ms between them")
      ->capture_default_str();
  app.add_option("--profile-samples", opt.profile_samples,
                 "phase (e): routes per profile scenario, one every 2 s (0 skips it)")
      ->capture_default_str();
  app.add_flag("--tester-rt,!--no-tester-rt", opt.tester_rt,
               "from phase (b) on, the tester's timing threads run SCHED_FIFO")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (::geteuid() != 0) {
    std::fprintf(stderr, "strata-bgp-bench needs root (network namespaces); skipped\n");
    return 77;
  }
  if (smoke) {
    n = 1000;
    opt.latency_samples = 5;
    opt.timeout_s = 60;
    opt.event_routes = 5;
    opt.event_interval_ms = 100;
    opt.profile_samples = 2;
  }
  const char* env_bin = std::getenv("STRATA_BIN_DIR");
  opt.strata_bin =
      env_bin ? env_bin : std::filesystem::canonical("/proc/self/exe").parent_path().string();
  InstallCleanupHandlers();

  auto table = LoadBenchTable(data, n);
  if (!table.ok()) {
    std::fprintf(stderr, "%s\n", table.status().message().c_str());
    return 1;
  }
  std::fprintf(stderr, "table: %zu routes in %zu attribute groups; %s\n", table->routes,
               table->groups.size(), table->source.c_str());
  TableMessages messages(*table);
  const auto required = Split(require);
  std::vector<RouterResult> results;
  int rc = 0;
  for (const auto& name : Split(routers)) {
    auto driver = MakeDriver(name);
    if (!driver) {
      std::fprintf(stderr, "unknown router %s\n", name.c_str());
      return 2;
    }
    std::fprintf(stderr, "running %s ...\n", driver->name().c_str());
    RouterResult r = RunRouter(*driver, *table, messages, opt);
    const bool must = std::find(required.begin(), required.end(), name) != required.end();
    if (r.skipped) {
      std::fprintf(stderr, "%s skipped: %s\n", r.router.c_str(), r.error.c_str());
      if (must) rc = 1;
    } else if (!r.error.empty()) {
      std::fprintf(stderr, "%s failed: %s\n", r.router.c_str(), r.error.c_str());
      rc = 1;
    } else {
      std::fprintf(stderr, "%s: %zu routes in %.3f s\n", r.router.c_str(), r.received, r.full_s);
    }
    results.push_back(std::move(r));
  }
  std::string command;
  for (int i = 0; i < argc; ++i) command += std::string(i ? " " : "") + argv[i];
  const ReportContext ctx{command, table->source, table->routes, opt.kernel};
  std::fputs(MarkdownReport(ctx, results).c_str(), stdout);
  if (!json.empty()) {
    std::ofstream f(json);
    f << JsonReport(ctx, results);
  }
  return rc;
}
