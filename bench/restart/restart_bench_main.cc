// strata-restart-bench: what each fault costs forwarding (docs/restart.md, README.md here).
//
// One lab (testing/interop/restart_lab.h): BIRD announces N real prefixes to a whole Strata
// router (strata-rtrmgr, VR "lab" on kernel table 100) over one eBGP session; a netlink monitor
// follows table 100. Then, one after the other on the same router: SIGKILL of strata-finder,
// -fea, -rib, -bgp, of strata-rtrmgr (and a new one started), a SIGSTOPped strata-rib, a graceful
// stop and start, and a clean stop. During each outage BIRD withdraws --withdraw prefixes. Per
// fault: time until the process (or router) is back, the fewest kernel routes during the outage,
// the valid routes deleted or replaced (goal 0), the time until the kernel table is exact, BGP
// session flaps (BIRD's view), and stale routes left (Strata routes BIRD does not announce, at
// the end). Markdown on stdout; --json FILE writes the same figures.
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "common/json.h"
#include "testing/interop/restart_lab.h"

namespace {

using namespace std::chrono_literals;
using strata::IpPrefix;
using strata::interop::PollUntil;
using strata::interop::RestartLab;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

// The first n distinct IPv4 prefixes (no default route) of a gzipped "prefix ..." file.
std::vector<IpPrefix> LoadPrefixes(const std::string& path, size_t n) {
  std::vector<IpPrefix> out;
  std::set<IpPrefix> seen;
  FILE* p = ::popen(("zcat '" + path + "' 2>/dev/null").c_str(), "r");
  if (p == nullptr) return out;
  char line[4096];
  while (out.size() < n && std::fgets(line, sizeof line, p) != nullptr) {
    std::string s(line);
    s = s.substr(0, s.find_first_of(" \t\n"));
    auto prefix = IpPrefix::Parse(s);
    if (!prefix.ok() || !prefix->is_v4() || prefix->len() == 0) continue;
    if (seen.insert(*prefix).second) out.push_back(*prefix);
  }
  ::pclose(p);
  return out;
}

// Synthetic prefixes when the shared data is not there (--smoke on a CI machine).
std::vector<IpPrefix> Synthetic(size_t n) {
  std::vector<IpPrefix> t;
  for (uint32_t i = 0; t.size() < n; ++i) {
    t.push_back(*IpPrefix::Make(strata::IpAddr::V4(0x10000000u + i * 256u), 24));
  }
  return t;
}

struct Figures {
  std::string fault;
  double back_s = -1;  // until the process (the router) runs again
  size_t min_routes = 0;
  size_t valid_touched = 0;  // valid routes deleted, replaced or added again
  double exact_s = -1;       // until the kernel table is exact (-1: not within the bound)
  int flaps = 0;
  size_t stale_left = 0;
  size_t missing_left = 0;
};

class Bench {
 public:
  Bench(RestartLab& lab, size_t withdraw, std::chrono::seconds bound)
      : lab_(lab), withdraw_(withdraw), bound_(bound) {}

  // Runs one fault: `inject` breaks something, `back` says when it is repaired.
  Figures Run(const std::string& name, const std::function<bool()>& inject,
              const std::function<bool()>& back) {
    Figures f;
    f.fault = name;
    lab_.FaultBegins();
    const int downs = lab_.SessionDowns();
    const auto t0 = Clock::now();
    std::set<IpPrefix> withdrawn;
    if (!inject()) {
      std::cerr << name << ": the fault could not be injected\n";
      return f;
    }
    if (withdraw_ > 0) {
      auto gone = lab_.Withdraw(withdraw_);
      if (gone.ok()) withdrawn.insert(gone->begin(), gone->end());
    }
    if (PollUntil(back, bound_)) f.back_s = Seconds(Clock::now() - t0);
    if (lab_.WaitExact(bound_ -
                       std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - t0))) {
      f.exact_s = Seconds(Clock::now() - t0);
    }
    f.min_routes = lab_.monitor().min_count();
    f.valid_touched = lab_.Touched(withdrawn).size();
    f.flaps = lab_.SessionDowns() - downs;
    const auto diff = lab_.Compare();
    f.stale_left = diff.extra;
    f.missing_left = diff.missing + diff.wrong;
    std::cerr << name << ": back " << f.back_s << " s, exact " << f.exact_s << " s, "
              << diff.ToString() << "\n";
    return f;
  }

 private:
  static double Seconds(Clock::duration d) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(d).count() / 1000.0;
  }
  RestartLab& lab_;
  size_t withdraw_;
  std::chrono::seconds bound_;
};

std::string Secs(double s) {
  if (s < 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

std::string Row(const Figures& f) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "| %s | %s | %zu | %zu | %s | %d | %zu |", f.fault.c_str(),
                Secs(f.back_s).c_str(), f.min_routes, f.valid_touched,
                f.exact_s < 0 ? "not exact" : Secs(f.exact_s).c_str(), f.flaps, f.stale_left);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"strata-restart-bench: what a crash or restart of each process costs forwarding"};
  size_t n = 100000;
  size_t withdraw = 100;
  unsigned bound_s = 600;
  bool smoke = false;
  std::string json_path;
  const char* env_data = std::getenv("STRATA_DATA");
  std::string data = env_data != nullptr ? env_data : "/work/shared/data";
  const char* env_bin = std::getenv("STRATA_BIN_DIR");
  std::string bin_dir = env_bin != nullptr ? env_bin : STRATA_BIN_DIR_DEFAULT;
  std::string dir;
  app.add_option("--n", n, "routes BIRD announces")->capture_default_str();
  app.add_option("--withdraw", withdraw, "routes BIRD withdraws during each outage")
      ->capture_default_str();
  app.add_option("--bound", bound_s, "seconds a fault has to be repaired and exact")
      ->capture_default_str();
  app.add_option("--data", data, "the shared data folder (STRATA_DATA)")->capture_default_str();
  app.add_option("--bin-dir", bin_dir, "strata-* binaries (STRATA_BIN_DIR)")->capture_default_str();
  app.add_option("--dir", dir, "keep the lab's files here (default: a temporary folder, removed)");
  app.add_option("--json", json_path, "also write the figures to FILE");
  app.add_flag("--smoke", smoke, "2,000 routes, 20 withdrawn, for ctest");
  CLI11_PARSE(app, argc, argv);
  if (::geteuid() != 0 || !strata::interop::NetNs::Available()) {
    std::fprintf(stderr, "strata-restart-bench: needs root and ip netns\n");
    return 77;
  }
  if (::access("/usr/sbin/bird", X_OK) != 0) {
    std::fprintf(stderr, "strata-restart-bench: needs BIRD (/usr/sbin/bird)\n");
    return 77;
  }
  if (smoke) {
    n = 2000;
    withdraw = 20;
    bound_s = 120;
  }
  // Up to 577,703 routes: one full feed of 2015 (PCH, AS3856); more: RouteViews 2024.
  const std::string source = n <= 577000
                                 ? data + "/pch_as3856_20151023/AS3856_206.220.231.55.v4.txt.gz"
                                 : data + "/rv_pfx2as_20240406/rv2_20240406.v4.txt.gz";
  std::vector<IpPrefix> table = LoadPrefixes(source, n);
  std::string table_from = source;
  if (table.size() < n) {
    if (!smoke) {
      std::fprintf(stderr, "strata-restart-bench: %s holds %zu prefixes, %zu wanted\n",
                   source.c_str(), table.size(), n);
      return 1;
    }
    table = Synthetic(n);
    table_from = "synthetic /24s";
  }
  const bool temp = dir.empty();
  if (temp) {
    char tmpl[] = "/tmp/strata-restart-bench-XXXXXX";
    dir = ::mkdtemp(tmpl);
  }
  RestartLab::Options o;
  o.table = table;
  o.dir = dir;
  o.bin_dir = bin_dir;
  o.keep_events = false;  // tallies are enough; a million events are not
  o.rtrmgr_args = {"--liveness-interval-ms", "1000", "--liveness-timeout-ms",
                   smoke ? "3000" : "20000"};
  auto lab_or = RestartLab::Create(o);
  if (!lab_or.ok()) {
    std::fprintf(stderr, "strata-restart-bench: %s\n", lab_or.status().ToString().c_str());
    return 1;
  }
  RestartLab& lab = **lab_or;
  const auto bound = std::chrono::seconds(bound_s);
  if (!lab.StartBird().ok() || !lab.StartRouter({"--graceful-stop"}).ok()) return 1;
  const auto t0 = Clock::now();
  if (!lab.WaitExact(bound)) {
    std::fprintf(stderr, "not converged: %s\n%s", lab.Compare().ToString().c_str(),
                 lab.Logs().c_str());
    return 1;
  }
  const double converge_s =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count() / 1000.0;

  Bench bench(lab, withdraw, bound);
  std::vector<Figures> results;
  auto restarted = [&lab](const std::string& instance, pid_t old) {
    return [&lab, instance, old] {
      const pid_t p = lab.Pid(instance);
      const nlohmann::json j = lab.Process(instance);  // null while the rtrmgr does not answer
      return p > 0 && p != old && j.is_object() && j.value("state", "") == "running";
    };
  };
  for (const std::string instance : {"finder", "fea", "rib.lab", "bgp.lab"}) {
    const pid_t pid = lab.Pid(instance);
    results.push_back(bench.Run(
        "SIGKILL strata-" + instance.substr(0, instance.find('.')),
        [pid] { return pid > 0 && ::kill(pid, SIGKILL) == 0; }, restarted(instance, pid)));
  }
  {
    const pid_t rib = lab.Pid("rib.lab");
    results.push_back(bench.Run(
        "SIGSTOP strata-rib (hung)", [rib] { return rib > 0 && ::kill(rib, SIGSTOP) == 0; },
        restarted("rib.lab", rib)));
  }
  results.push_back(bench.Run(
      "SIGKILL strata-rtrmgr, new rtrmgr",
      [&] { return lab.SignalRouter(SIGKILL, 10s) && lab.StartRouter({"--graceful-stop"}).ok(); },
      [&] {
        const nlohmann::json j = lab.Process("bgp.lab");  // null until the new rtrmgr answers
        return j.is_object() && j.value("adopted", false);
      }));
  results.push_back(bench.Run(
      "graceful stop and start",
      [&] {
        return lab.SignalRouter(SIGTERM, bound) &&
               PollUntil([&] { return lab.RouterProcesses().empty(); }, 30s) &&
               lab.StartRouter().ok();  // without --graceful-stop: the last stop is clean
      },
      [&] {
        return lab.Established() &&
               lab.Call("finder://rib.lab/rib/1.0/get_stats").value("table_complete", false);
      }));
  // A clean stop: how long until no Strata route and nexthop object is left.
  const size_t before_stop = lab.KernelRoutes();
  const auto s0 = Clock::now();
  const bool stopped = lab.SignalRouter(SIGTERM, bound);
  const double stop_s =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - s0).count() / 1000.0;
  const size_t left_routes = lab.KernelRoutes();
  const size_t left_objects = lab.NexthopObjects();

  std::printf("## strata-restart-bench: %zu routes from %s, %zu withdrawn per outage\n\n",
              table.size(), table_from.c_str(), withdraw);
  std::printf("Converged (kernel exact) %.1f s after the start.\n\n", converge_s);
  std::printf(
      "| fault | back after | fewest kernel routes | valid routes deleted or replaced | exact "
      "after | BGP session flaps | stale routes left |\n|---|---|---|---|---|---|---|\n");
  for (const Figures& f : results) std::printf("%s\n", Row(f).c_str());
  std::printf(
      "\nClean stop: %s in %.1f s; %zu of %zu Strata routes and %zu nexthop objects left.\n",
      stopped ? "done" : "NOT DONE", stop_s, left_routes, before_stop, left_objects);
  if (!json_path.empty()) {
    json j;
    j["routes"] = table.size();
    j["source"] = table_from;
    j["withdrawn_per_outage"] = withdraw;
    j["converge_s"] = converge_s;
    for (const Figures& f : results) {
      j["faults"].push_back({{"fault", f.fault},
                             {"back_s", f.back_s},
                             {"min_kernel_routes", f.min_routes},
                             {"valid_routes_touched", f.valid_touched},
                             {"exact_s", f.exact_s},
                             {"session_flaps", f.flaps},
                             {"stale_left", f.stale_left},
                             {"missing_left", f.missing_left}});
    }
    j["clean_stop"] = {
        {"seconds", stop_s}, {"routes_left", left_routes}, {"objects_left", left_objects}};
    std::ofstream(json_path) << j.dump(1) << "\n";
  }
  bool ok = stopped && left_routes == 0 && left_objects == 0;
  for (const Figures& f : results) {
    ok = ok && f.valid_touched == 0 && f.exact_s >= 0 && f.stale_left == 0;
  }
  lab_or->reset();
  if (temp) std::filesystem::remove_all(dir);
  return ok ? 0 : 1;
}
