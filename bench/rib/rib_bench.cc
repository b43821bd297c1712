// strata-rib-bench: a real strata-rib process fed a real IPv4 table over IPC.
//
// Starts strata-finder and strata-rib (from the directory of this binary, or $STRATA_BIN_DIR)
// in a temporary run directory. Protocol "bench_a" (admin distance 120) adds every route in
// batches, then "bench_b" (distance 100) adds the same prefixes and overrides them, then b's and
// a's routes are withdrawn. Prints routes/s per phase, strata-rib's peak RSS (VmHWM) in bytes
// per route, and the longest wait of a lookup_route sent every 2 ms by a second client (its own
// Router on its own thread) during each phase. --smoke uses the first 1000 routes.
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/ip_prefix.h"
#include "libipc/interfaces/rib.strata.h"
#include "libipc/router.h"

extern char** environ;

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
namespace rpb = strata::rib::v1;

struct Route {
  strata::IpPrefix prefix;
  strata::IpAddr nexthop;
};

std::vector<Route> LoadTable(const std::string& path, size_t limit) {
  std::vector<Route> out;
  FILE* p = ::popen(("zcat '" + path + "'").c_str(), "r");
  if (!p) return out;
  char line[4096];
  while (out.size() < limit && std::fgets(line, sizeof line, p)) {
    std::string s(line);
    const auto sp = s.find(' ');
    auto prefix = strata::IpPrefix::Parse(s.substr(0, sp), true);
    if (!prefix.ok() || !prefix->addr().is_v4()) continue;
    // The table has no real next hops: spread routes over 250 of them.
    const auto i = static_cast<uint32_t>(out.size());
    out.push_back({*prefix, strata::IpAddr::V4(0xC0000200u + 1 + i % 250)});
  }
  ::pclose(p);
  return out;
}

long StatusKb(pid_t pid, const std::string& key) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind(key + ":", 0) == 0) return std::stol(line.substr(key.size() + 1));
  }
  return -1;
}

void ToProto(const strata::IpPrefix& p, strata::common::v1::IpPrefix* out) {
  const auto b = p.addr().bytes();
  out->set_addr(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
  out->set_len(static_cast<uint32_t>(p.len()));
}
void ToProto(const strata::IpAddr& a, strata::common::v1::IpAddress* out) {
  const auto b = a.bytes();
  out->set_addr(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
}

// Runs the io_context until `done` (or 600 s).
template <typename Pred>
bool RunUntil(boost::asio::io_context& io, Pred done) {
  const auto end = Clock::now() + 600s;
  while (!done() && Clock::now() < end) io.run_one_for(10ms);
  return done();
}

// A lookup every 2 ms from its own Router and thread; the longest wait per phase.
class Prober {
 public:
  // The first lookup resolves rib.bench through the Finder and connects: not a wait behind work.
  static constexpr int kSetupPhase = 7;
  explicit Prober(strata::IpAddr addr) : addr_(addr) {}
  void Start() {
    thread_ = std::thread([this] { Run(); });
  }
  void Stop() {
    stop_ = true;
    thread_.join();
  }
  void set_phase(int p) { phase_ = p; }
  double max_ms(int p) const { return static_cast<double>(max_us_[p].load()) / 1000.0; }
  uint64_t probes() const { return probes_; }
  bool failed() const { return failed_; }

 private:
  void Run() {
    boost::asio::io_context io(1);
    strata::ipc::RouterOptions opts;
    opts.listen_families = {};
    strata::ipc::Router router(io, opts);
    bool started = false;
    router.Start([&](const strata::Status& s) {
      started = true;
      if (!s.ok()) failed_ = true;
    });
    RunUntil(io, [&] { return started; });
    rpb::RibClient rib(router, "rib.bench");
    rpb::LookupRouteRequest req;
    ToProto(addr_, req.mutable_addr());
    while (!stop_) {
      bool answered = false;
      const auto sent = Clock::now();
      const int phase = phase_;
      rib.LookupRoute(req, [&](const strata::Status& s, const rpb::LookupRouteReply&) {
        if (!s.ok()) failed_ = true;
        answered = true;
      });
      RunUntil(io, [&] { return answered || stop_.load(); });
      const auto us =
          std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent).count();
      if (us > max_us_[phase]) max_us_[phase] = us;
      ++probes_;
      const auto next = sent + 2ms;
      while (Clock::now() < next && !stop_) io.run_one_until(next);
    }
    router.Stop();
  }

  strata::IpAddr addr_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<int> phase_{kSetupPhase};
  std::atomic<int64_t> max_us_[8] = {};
  std::atomic<uint64_t> probes_{0};
  std::atomic<bool> failed_{false};
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"strata-rib-bench: a real table through a real strata-rib"};
  bool smoke = false;
  std::string data = "/work/shared/data/rv_pfx2as_20240406/rv2_20240406.v4.txt.gz";
  size_t limit = 1000000;
  size_t batch = 100;
  size_t in_flight = 4;
  app.add_flag("--smoke", smoke, "1000 routes, for ctest");
  app.add_option("--data", data, "gzip table: prefix/len nexthop aspath...")->capture_default_str();
  app.add_option("-n,--routes", limit, "routes to use at most")->capture_default_str();
  app.add_option("--batch", batch, "routes per add_routes call")->capture_default_str();
  app.add_option("--in-flight", in_flight, "calls outstanding")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (smoke) limit = 1000;
  if (batch == 0 || in_flight == 0) return 2;

  std::vector<Route> table = LoadTable(data, limit);
  if (table.empty()) {
    std::fprintf(stderr, "no routes in %s\n", data.c_str());
    return 1;
  }
  const char* env_bin = std::getenv("STRATA_BIN_DIR");
  const std::string bin =
      env_bin ? env_bin : std::filesystem::canonical("/proc/self/exe").parent_path().string();
  char tmpl[] = "/tmp/strata-rib-bench-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  ::setenv("STRATA_RUN_DIR", dir.c_str(), 1);
  ::unsetenv("STRATA_FINDER");
  std::vector<pid_t> pids;
  auto spawn = [&](const std::string& name, std::vector<std::string> args) {
    const std::string path = bin + "/" + name;
    std::vector<char*> argv2{const_cast<char*>(path.c_str())};
    for (auto& a : args) argv2.push_back(a.data());
    argv2.push_back(nullptr);
    pid_t pid = 0;
    if (::posix_spawn(&pid, path.c_str(), nullptr, nullptr, argv2.data(), environ) != 0) pid = -1;
    pids.push_back(pid);
    return pid;
  };
  int rc = 0;
  auto cleanup = [&] {
    for (auto it = pids.rbegin(); it != pids.rend(); ++it) {
      if (*it <= 0) continue;
      ::kill(*it, SIGTERM);
      ::waitpid(*it, nullptr, 0);
    }
    std::filesystem::remove_all(dir);
  };
  spawn("strata-finder", {});
  for (int i = 0; i < 250 && !std::filesystem::exists(dir + "/finder.sock"); ++i) {
    std::this_thread::sleep_for(20ms);
  }
  const pid_t rib_pid = spawn("strata-rib", {"--vr", "bench"});

  boost::asio::io_context io(1);
  strata::ipc::RouterOptions opts;
  opts.listen_families = {};
  strata::ipc::Router router(io, opts);
  bool started = false;
  router.Start([&](const strata::Status& s) { started = s.ok(); });
  RunUntil(io, [&] { return started; });
  rpb::RibClient rib(router, "rib.bench");
  // Wait for strata-rib to register.
  bool up = false;
  for (int i = 0; i < 250 && !up; ++i) {
    bool answered = false;
    rib.GetStats(rpb::GetStatsRequest(), [&](const strata::Status& s, const rpb::GetStatsReply&) {
      up = s.ok();
      answered = true;
    });
    RunUntil(io, [&] { return answered; });
    if (!up) std::this_thread::sleep_for(20ms);
  }
  if (!up || rib_pid <= 0) {
    std::fprintf(stderr, "strata-rib did not come up\n");
    cleanup();
    return 1;
  }
  for (const auto& [name, distance] : {std::pair{"bench_a", 120u}, std::pair{"bench_b", 100u}}) {
    rpb::AddOriginTableRequest req;
    req.set_protocol(name);
    req.set_kind(rpb::PROTOCOL_KIND_IGP);
    req.set_admin_distance(distance);
    bool answered = false;
    rib.AddOriginTable(req, [&](const strata::Status& s, const rpb::AddOriginTableReply&) {
      if (!s.ok()) rc = 1;
      answered = true;
    });
    RunUntil(io, [&] { return answered; });
  }
  const long base_kb = StatusKb(rib_pid, "VmRSS");

  Prober prober(table[table.size() / 2].prefix.addr());
  prober.Start();
  // Phases start once the prober is connected (its first answer is counted apart).
  for (int i = 0; i < 5000 && prober.probes() == 0 && !prober.failed(); ++i) {
    std::this_thread::sleep_for(1ms);
  }
  std::printf("first lookup (finder resolution and connection) %.2f ms\n",
              prober.max_ms(Prober::kSetupPhase));
  const char* names[] = {"add (bench_a)", "override (bench_b)", "withdraw (bench_b)",
                         "withdraw (bench_a)"};
  std::printf("routes %zu from %s, batch %zu, %zu calls in flight\n", table.size(), data.c_str(),
              batch, in_flight);
  for (int phase = 0; phase < 4; ++phase) {
    prober.set_phase(phase);
    const std::string protocol = phase == 0 || phase == 3 ? "bench_a" : "bench_b";
    const bool add = phase < 2;
    size_t next = 0, outstanding = 0, failed = 0;
    const auto t0 = Clock::now();
    auto send_one = [&] {
      const size_t end = std::min(next + batch, table.size());
      auto done = [&](const strata::Status& s) {
        --outstanding;
        if (!s.ok()) {
          if (++failed == 1) std::fprintf(stderr, "%s\n", s.ToString().c_str());
        }
      };
      if (add) {
        rpb::AddRoutesRequest req;
        req.set_protocol(protocol);
        for (size_t i = next; i < end; ++i) {
          rpb::RouteEntry* e = req.add_routes();
          ToProto(table[i].prefix, e->mutable_prefix());
          ToProto(table[i].nexthop, e->mutable_nexthop());
        }
        rib.AddRoutes(req,
                      [done](const strata::Status& s, const rpb::AddRoutesReply&) { done(s); });
      } else {
        rpb::DeleteRoutesRequest req;
        req.set_protocol(protocol);
        for (size_t i = next; i < end; ++i) ToProto(table[i].prefix, req.add_prefixes());
        rib.DeleteRoutes(
            req, [done](const strata::Status& s, const rpb::DeleteRoutesReply&) { done(s); });
      }
      ++outstanding;
      next = end;
    };
    while (next < table.size() || outstanding > 0) {
      while (next < table.size() && outstanding < in_flight) send_one();
      io.run_one_for(10ms);
    }
    const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    if (failed) rc = 1;
    std::printf("%-20s %9.0f routes/s  (%.2f s, %zu failed calls)  longest lookup wait %.2f ms\n",
                names[phase], static_cast<double>(table.size()) / secs, secs, failed,
                prober.max_ms(phase));
    std::fflush(stdout);
  }
  prober.Stop();
  const long hwm_kb = StatusKb(rib_pid, "VmHWM");
  std::printf(
      "strata-rib RSS before %ld kB, peak %ld kB: %.0f bytes per route (%zu prefixes, "
      "two protocols each at the peak: %.0f bytes per stored route)\n",
      base_kb, hwm_kb,
      static_cast<double>(hwm_kb - base_kb) * 1024.0 / static_cast<double>(table.size()),
      table.size(),
      static_cast<double>(hwm_kb - base_kb) * 1024.0 / static_cast<double>(2 * table.size()));
  std::printf("lookups probed: %llu%s\n", static_cast<unsigned long long>(prober.probes()),
              prober.failed() ? " (some failed)" : "");
  if (prober.failed()) rc = 1;
  router.Stop();
  cleanup();
  return rc;
}
