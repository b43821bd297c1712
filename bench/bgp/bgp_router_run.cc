#include "bench/bgp/bgp_router_run.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>
#include <unordered_set>

#include "bench/bgp/bgp_kernel_routes.h"
#include "bench/bgp/bgp_netns.h"
#include "bench/bgp/bgp_probe.h"
#include "bench/bgp/bgp_process.h"
#include "bench/bgp/bgp_route_counter.h"
#include "bench/bgp/bgp_tester_session.h"
#include "bench/bgp/thread_priority.h"
#include "bgp/wire/update_packer.h"

namespace strata::bench {
namespace {

using namespace std::chrono_literals;
constexpr size_t kDownProbes = 16000;  // /24s from 100.64.0.0 up, skipping the table's
constexpr auto kProbeEvery = 10ms;

double Seconds(int64_t from_ns, int64_t to_ns) {
  return static_cast<double>(to_ns - from_ns) / 1e9;
}
double Ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  return v[i];
}

// Waits until pred() or the deadline; polls every `step`.
template <typename Pred>
bool WaitFor(Pred pred, std::chrono::nanoseconds timeout, std::chrono::nanoseconds step = 50us) {
  const auto end = Clock::now() + timeout;
  while (!pred()) {
    if (Clock::now() > end) return false;
    std::this_thread::sleep_for(step);
  }
  return true;
}

double SelfCpuSeconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// The command name of a process (/proc/PID/comm), "" if it is gone.
std::string CommandName(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(f, name);
  return name;
}

struct Usage {
  long rss_kb = 0;
  double cpu_s = 0;
  std::map<std::string, std::pair<long, double>> by_name;  // peak RSS (kB), CPU (s)
};
Usage Measure(const RouterDriver& d) {
  Usage u;
  for (pid_t p : d.pids()) {
    if (p <= 0) continue;
    const long rss = PeakRssKb(p);
    const double cpu = CpuSeconds(p);
    u.rss_kb += rss;
    u.cpu_s += cpu;
    auto& [name_rss, name_cpu] = u.by_name[CommandName(p)];
    name_rss += rss;
    name_cpu += cpu;
  }
  return u;
}

// Polls the kernel's route count in the router namespace from its own thread.
class KernelWatcher {
 public:
  KernelWatcher(std::string ns, long target) : ns_(std::move(ns)), target_(target) {
    thread_ = std::thread([this] { Run(); });
  }
  ~KernelWatcher() { Stop(); }
  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  int64_t done_ns() const { return done_ns_.load(); }
  long last() const { return last_.load(); }

 private:
  void Run() {
    while (!stop_) {
      const long n = CountKernelRoutes(ns_);
      last_ = n;
      if (n >= target_) {
        done_ns_ = RouteCounter::NowNs();
        return;
      }
      std::this_thread::sleep_for(200ms);
    }
  }
  std::string ns_;
  long target_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> done_ns_{0};
  std::atomic<long> last_{0};
  std::thread thread_;
};

}  // namespace

const std::vector<uint8_t>& TableMessages::Get(bool extended) {
  auto& out = extended ? extended_ : normal_;
  if (!out.empty()) return out;
  bgp::CodecOptions codec;
  codec.extended_message = extended;
  codec.peer_type = bgp::PeerType::kExternal;
  for (const auto& g : table_.groups) {
    bgp::PathAttributes a;
    a.origin = bgp::Origin::kIgp;
    a.as_path = g.path.Prepend(kFeederAAs);
    a.next_hop = g.next_hop;
    const auto msgs = bgp::PackAnnouncements(a, bgp::kIpv4Unicast, g.prefixes, codec);
    if (!msgs.ok()) continue;
    for (const auto& m : *msgs) out.insert(out.end(), m.begin(), m.end());
  }
  return out;
}

RouterResult RunRouter(RouterDriver& driver, const BenchTable& table, TableMessages& messages,
                       const RunOptions& opt) {
  RouterResult r;
  r.router = driver.name();
  r.n = table.routes;
  BenchNetwork net;
  if (!net.ok()) {
    r.error = "cannot create namespaces";
    return r;
  }
  char tmpl[] = "/tmp/bb-bgp-bench-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  RouterSetup setup{net.router_ns(), dir, opt.kernel, opt.strata_bin};
  if (const std::string m = driver.Missing(setup); !m.empty()) {
    r.skipped = true;
    r.error = "not installed: " + m;
    std::filesystem::remove_all(dir);
    return r;
  }
  // Table prefixes, the phase (b) probe at 0 and phase (c) probes from 1.
  std::vector<IpPrefix> prefixes;
  prefixes.reserve(table.routes);
  for (const auto& g : table.groups)
    prefixes.insert(prefixes.end(), g.prefixes.begin(), g.prefixes.end());
  // Probes are /24s the table does not hold (the 1M table has some of 100.64.0.0/10): the
  // counter could not tell a probe from a table route of the same prefix.
  const std::unordered_set<IpPrefix> in_table(prefixes.begin(), prefixes.end());
  std::vector<IpPrefix> watched;
  for (uint32_t a = 0xC6120000u; watched.empty(); a += 1u << 8) {  // 198.18.0.0/15
    if (!in_table.contains(IpPrefix(IpAddr::V4(a), 24)))
      watched.push_back(IpPrefix(IpAddr::V4(a), 24));
  }
  for (uint32_t a = 0x64400000u; watched.size() <= kDownProbes; a += 1u << 8) {  // 100.64.0.0/10 on
    if (!in_table.contains(IpPrefix(IpAddr::V4(a), 24)))
      watched.push_back(IpPrefix(IpAddr::V4(a), 24));
  }
  // (d)'s routes: /24s from 198.19.0.0 up.
  const size_t first_event = watched.size();
  for (uint32_t a = 0xC6130000u;
       watched.size() < first_event + static_cast<size_t>(std::max(0, opt.event_routes));
       a += 1u << 8) {
    if (!in_table.contains(IpPrefix(IpAddr::V4(a), 24)))
      watched.push_back(IpPrefix(IpAddr::V4(a), 24));
  }
  RouteCounter counter(prefixes, watched);
  if (!BenchNetwork::Enter(net.tester_ns())) {
    r.error = "cannot enter the tester namespace";
    return r;
  }
  if (Status s = driver.Start(setup); !s.ok()) {
    r.error = s.message();
    driver.Stop();
    return r;
  }
  std::string phase_errors;                    // set in (a), (d) and (e), reported at the end
  std::map<std::string, double> full_by_name;  // CPU in (a) per process name
  auto finish = [&](std::string error) {
    error = phase_errors + error;
    const Usage u = Measure(driver);
    r.rss_kb = u.rss_kb;
    r.cpu_total_s = u.cpu_s;
    if (u.by_name.size() > 1) {
      for (const auto& [name, usage] : u.by_name) {
        RouterResult::ProcessUsage pu;
        pu.name = name.empty() ? "?" : name;
        pu.rss_kb = usage.first;
        pu.cpu_total_s = usage.second;
        if (auto a = full_by_name.find(name); a != full_by_name.end()) pu.cpu_full_s = a->second;
        r.processes.push_back(std::move(pu));
      }
    }
    if (!error.empty()) {
      r.error = error + " (files in " + dir + ")";
    }
    driver.Stop();
    if (error.empty()) std::filesystem::remove_all(dir);
    return r;
  };
  TesterSession counter_session(kCounterAddr, kCounterAs, &counter);
  TesterSession feeder_b(kFeederBAddr, kFeederBAs, nullptr);
  auto feeder_a = std::make_unique<TesterSession>(kFeederAAddr, kFeederAAs, nullptr);
  if (Status s = counter_session.Connect(kRouterAddr, kRouterAs, 30); !s.ok()) {
    return finish("counter session: " + s.message());
  }
  if (Status s = feeder_b.Connect(kRouterAddr, kRouterAs, 30); !s.ok()) {
    return finish("feeder B session: " + s.message());
  }
  if (Status s = feeder_a->Connect(kRouterAddr, kRouterAs, 30); !s.ok()) {
    return finish("feeder A session: " + s.message());
  }
  r.extended_messages = feeder_a->codec().extended_message;
  const auto& bytes = messages.Get(r.extended_messages);

  // (e) with an empty table.
  auto profile = [&](const std::string& scenario, TesterSession& feeder, uint32_t as,
                     const char* addr) {
    if (opt.profile_samples <= 0) return;
    ProfileScenario sc = RunProfileScenario(driver, scenario, feeder, as, addr, counter, watched[0],
                                            0, opt.profile_samples);
    if (sc.error.find("no profiling points") != std::string::npos) return;
    if (!sc.error.empty()) phase_errors += "(e) " + scenario + ": " + sc.error + "; ";
    r.profile.push_back(std::move(sc));
  };
  profile("empty table", *feeder_a, kFeederAAs, kFeederAAddr);

  // (a) the whole table.
  const Usage start = Measure(driver);
  const double self_start = SelfCpuSeconds();
  std::unique_ptr<KernelWatcher> kernel;
  if (opt.kernel && driver.installs_kernel()) {
    kernel = std::make_unique<KernelWatcher>(net.router_ns(), static_cast<long>(table.routes));
  }
  const int64_t t0 = RouteCounter::NowNs();
  std::thread sender([&] { (void)feeder_a->Send(bytes); });
  size_t last = 0;
  auto last_change = Clock::now();
  const auto stall = table.routes > 200000 ? 60s : 20s;
  const auto deadline = Clock::now() + std::chrono::seconds(opt.timeout_s);
  while (counter.present() < table.routes) {
    const size_t now = counter.present();
    if (now != last) {
      last = now;
      last_change = Clock::now();
    }
    if (Clock::now() - last_change > stall || Clock::now() > deadline || !counter_session.up()) {
      break;
    }
    std::this_thread::sleep_for(200us);
  }
  r.received = counter.present();
  r.full_s = Seconds(t0, RouteCounter::NowNs());
  sender.join();
  r.tester_cpu_full_s = SelfCpuSeconds() - self_start;
  if (kernel) {
    long seen = -1;
    auto changed = Clock::now();
    while (kernel->done_ns() == 0 && Clock::now() - changed < stall && Clock::now() < deadline) {
      if (kernel->last() != seen) {
        seen = kernel->last();
        changed = Clock::now();
      }
      std::this_thread::sleep_for(10ms);
    }
    kernel->Stop();
    r.kernel_routes = kernel->last();
    if (kernel->done_ns() != 0) {
      r.kernel_s = Seconds(t0, kernel->done_ns());
    } else {
      phase_errors = "kernel table holds only " + std::to_string(r.kernel_routes) + " routes; ";
    }
  }
  const Usage after_full = Measure(driver);
  r.cpu_full_s = after_full.cpu_s - start.cpu_s;
  for (const auto& [name, usage] : after_full.by_name) {
    auto before = start.by_name.find(name);
    full_by_name[name] = usage.second - (before == start.by_name.end() ? 0 : before->second.second);
  }
  if (r.received < table.routes) {
    return finish("counter got " + std::to_string(r.received) + " of " +
                  std::to_string(table.routes) + " routes");
  }

  // (b) one new prefix with the table loaded. From here on the timing threads may run
  // real-time (RunOptions::tester_rt); (a) is timed as before, with the tester as it was.
  r.tester_rt = opt.tester_rt && counter_session.SetReaderRealtime(true);
  const auto probe_attrs = ProbeAttrs(kFeederAAs, kFeederAAddr);
  const auto announce = Concat(
      bgp::PackAnnouncements(probe_attrs, bgp::kIpv4Unicast, {&watched[0], 1}, feeder_a->codec()));
  const auto withdraw =
      Concat(bgp::PackWithdrawals(bgp::kIpv4Unicast, {&watched[0], 1}, feeder_a->codec()));
  std::vector<double> lat, wd;
  for (int i = 0; i < opt.latency_samples; ++i) {
    counter.ResetWatch(0);
    const int64_t s0 = RouteCounter::NowNs();
    (void)feeder_a->Send(announce);
    if (!WaitFor([&] { return counter.announced_at(0) != 0; }, 5s)) {
      ++r.lat_lost;
      continue;
    }
    lat.push_back(Ms(counter.announced_at(0) - s0));
    const int64_t s1 = RouteCounter::NowNs();
    (void)feeder_a->Send(withdraw);
    if (WaitFor([&] { return counter.withdrawn_at(0) != 0; }, 5s)) {
      wd.push_back(Ms(counter.withdrawn_at(0) - s1));
    }
    std::this_thread::sleep_for(20ms);
  }
  r.lat_median_ms = Percentile(lat, 0.5);
  r.lat_p99_ms = Percentile(lat, 0.99);
  r.wd_median_ms = Percentile(wd, 0.5);
  r.wd_p99_ms = Percentile(wd, 0.99);

  // (e) with the table loaded, on the same peering and on another.
  profile("full table, same peering", *feeder_a, kFeederAAs, kFeederAAddr);
  profile("full table, other peering", feeder_b, kFeederBAs, kFeederBAddr);

  // (d) one route every event_interval_ms from feeder B, with the table loaded.
  const auto b_attrs = ProbeAttrs(kFeederBAs, kFeederBAddr);
  if (opt.event_routes > 0) {
    const auto every = std::chrono::milliseconds(opt.event_interval_ms);
    std::vector<int64_t> ev_sent;
    auto next = Clock::now();
    for (size_t k = first_event; k < watched.size(); ++k) {
      const auto msg = Concat(
          bgp::PackAnnouncements(b_attrs, bgp::kIpv4Unicast, {&watched[k], 1}, feeder_b.codec()));
      ev_sent.push_back(RouteCounter::NowNs());
      (void)feeder_b.Send(msg);
      next += every;
      std::this_thread::sleep_until(next);
    }
    // Stragglers get 5 s more (a scanning router may still be between scans).
    WaitFor(
        [&] {
          for (size_t k = first_event; k < watched.size(); ++k) {
            if (counter.announced_at(k) == 0) return false;
          }
          return true;
        },
        5s, 1ms);
    std::vector<double> got;
    for (size_t k = first_event; k < watched.size(); ++k) {
      const int64_t at = counter.announced_at(k);
      if (at == 0) {
        ++r.ev_lost;
        r.event_ms.push_back(-1);
        continue;
      }
      r.event_ms.push_back(Ms(at - ev_sent[k - first_event]));
      got.push_back(r.event_ms.back());
    }
    r.ev_median_ms = Percentile(got, 0.5);
    r.ev_p99_ms = Percentile(got, 0.99);
    r.ev_max_ms = got.empty() ? -1 : *std::max_element(got.begin(), got.end());
    if (r.ev_lost > 0) {
      phase_errors += "(d): " + std::to_string(r.ev_lost) + " of " +
                      std::to_string(r.event_ms.size()) + " routes never arrived; ";
    }
  }

  // (c) feeder A goes down while B's updates must keep crossing.
  std::vector<int64_t> sent(kDownProbes + 1, 0);
  std::atomic<bool> stop_probes{false};
  std::atomic<size_t> probes_sent{0};
  std::thread prober([&] {
    if (r.tester_rt) (void)SetThreadRealtime(pthread_self(), true);
    auto next = Clock::now();
    for (size_t k = 1; k <= kDownProbes && !stop_probes; ++k) {
      const auto msg = Concat(
          bgp::PackAnnouncements(b_attrs, bgp::kIpv4Unicast, {&watched[k], 1}, feeder_b.codec()));
      sent[k] = RouteCounter::NowNs();
      (void)feeder_b.Send(msg);
      probes_sent = k;
      next += kProbeEvery;
      std::this_thread::sleep_until(next);
    }
  });
  std::this_thread::sleep_for(500ms);
  const size_t withdrawn0 = counter.withdrawn();
  const int64_t down_at = RouteCounter::NowNs();
  feeder_a->Close();
  const bool all = WaitFor([&] { return counter.withdrawn() - withdrawn0 >= table.routes; },
                           std::chrono::seconds(opt.timeout_s), 1ms);
  const int64_t all_at = RouteCounter::NowNs();
  std::this_thread::sleep_for(300ms);
  stop_probes = true;
  prober.join();
  const size_t n_sent = probes_sent;
  // Every probe gets its chance: a router that delays B's updates by seconds while it withdraws
  // A's table must not have those counted as lost merely because they are still queued.
  if (n_sent > 0) {
    WaitFor(
        [&] {
          for (size_t k = 1; k <= n_sent; ++k) {
            if (counter.announced_at(k) == 0) return false;
          }
          return true;
        },
        std::chrono::seconds(std::max(5, opt.timeout_s / 4)), 5ms);
  }
  std::vector<double> during;
  double idle_worst = -1;
  for (size_t k = 1; k <= n_sent; ++k) {
    const int64_t got = counter.announced_at(k);
    const double d = got == 0 ? 5000.0 : Ms(got - sent[k]);
    if (sent[k] < down_at) {
      idle_worst = std::max(idle_worst, d);
    } else if (sent[k] <= all_at) {
      during.push_back(d);
      if (got == 0) ++r.down_lost;
    }
  }
  r.down_withdraw_s = all ? Seconds(down_at, all_at) : -1;
  r.down_probes = static_cast<int>(during.size());
  r.down_worst_ms = during.empty() ? -1 : *std::max_element(during.begin(), during.end());
  r.down_median_ms = Percentile(during, 0.5);
  r.idle_worst_ms = idle_worst;
  return finish(all ? "" : "not all withdrawals arrived after feeder A went down");
}

}  // namespace strata::bench
