// strata-machine-jitter: how long this machine takes a CPU away from a thread that never gives
// it up, the floor under every worst-case latency the other benchmarks print.
//
// One thread per CPU, pinned, spins reading CLOCK_MONOTONIC. A gap between two reads longer
// than --min-us is time the thread did not run. If the thread's context-switch count
// (getrusage RUSAGE_THREAD) did not move across the gap, the guest kernel did not schedule
// anything else: the time went to an interrupt or, on a virtual machine, to the hypervisor
// running something other than this vCPU. Gaps with a switch are counted apart. Run it on an
// otherwise idle machine (it keeps every CPU busy while it runs).
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <time.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

int64_t NowNs() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

long Switches() {
  rusage u{};
  ::getrusage(RUSAGE_THREAD, &u);
  return u.ru_nvcsw + u.ru_nivcsw;
}

// Upper bounds of the histogram's buckets, in microseconds; the last is open.
constexpr std::array<int64_t, 6> kBoundsUs = {200, 500, 1000, 2000, 5000, 10000};

struct CpuResult {
  int cpu = 0;
  bool pinned = false;
  std::array<uint64_t, kBoundsUs.size() + 1> buckets{};  // gaps without a switch
  uint64_t switched = 0;                                 // gaps with one
  int64_t worst_ns = 0;
  int64_t lost_ns = 0;
  int64_t ran_ns = 0;
};

void Spin(CpuResult& r, int64_t seconds, int64_t min_ns) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(r.cpu, &set);
  r.pinned = ::pthread_setaffinity_np(::pthread_self(), sizeof set, &set) == 0;
  const int64_t start = NowNs();
  const int64_t end = start + seconds * 1'000'000'000;
  long switches = Switches();
  int64_t prev = NowNs();
  while (true) {
    const int64_t t = NowNs();
    const int64_t gap = t - prev;
    prev = t;
    if (t >= end) break;
    if (gap < min_ns) continue;
    const long now_switches = Switches();
    if (now_switches != switches) {
      switches = now_switches;
      ++r.switched;
    } else {
      size_t b = 0;
      while (b < kBoundsUs.size() && gap >= kBoundsUs[b] * 1000) ++b;
      ++r.buckets[b];
      r.worst_ns = std::max(r.worst_ns, gap);
      r.lost_ns += gap;
    }
    prev = NowNs();  // the getrusage call is not a gap
  }
  r.ran_ns = NowNs() - start;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"strata-machine-jitter: CPU time taken from a spinning thread, per CPU"};
  int64_t seconds = 60;
  int64_t min_us = 100;
  app.add_option("--seconds", seconds, "how long to spin")->check(CLI::Range(1, 3600));
  app.add_option("--min-us", min_us, "shortest gap counted (us)")->check(CLI::Range(10, 100000));
  CLI11_PARSE(app, argc, argv);

  const unsigned n = std::max(1u, std::thread::hardware_concurrency());
  std::vector<CpuResult> results(n);
  std::vector<std::thread> threads;
  for (unsigned c = 0; c < n; ++c) {
    results[c].cpu = static_cast<int>(c);
    threads.emplace_back([&, c] { Spin(results[c], seconds, min_us * 1000); });
  }
  for (auto& t : threads) t.join();

  std::printf("strata-machine-jitter: %u CPUs, %lld s, gaps of %lld us and more\n", n,
              static_cast<long long>(seconds), static_cast<long long>(min_us));
  std::printf("gaps without a context switch, by length (ms):\n");
  std::printf(
      "| CPU | <0.2 | 0.2-0.5 | 0.5-1 | 1-2 | 2-5 | 5-10 | >=10 | worst ms | lost ms/s |"
      " >=5 ms per min | with a switch |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const CpuResult& r : results) {
    const double minutes = static_cast<double>(r.ran_ns) / 60e9;
    const uint64_t over5 = r.buckets[5] + r.buckets[6];
    std::printf("| %d%s |", r.cpu, r.pinned ? "" : " (not pinned)");
    for (uint64_t b : r.buckets) std::printf(" %llu |", static_cast<unsigned long long>(b));
    std::printf(" %.2f | %.2f | %.1f | %llu |\n", static_cast<double>(r.worst_ns) / 1e6,
                static_cast<double>(r.lost_ns) / 1e6 / (static_cast<double>(r.ran_ns) / 1e9),
                minutes > 0 ? static_cast<double>(over5) / minutes : 0.0,
                static_cast<unsigned long long>(r.switched));
  }
  return 0;
}
