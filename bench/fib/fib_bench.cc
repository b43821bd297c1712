// strata-fib-bench: memory, lookup time, build time and update rate of the multi-VR FIB.
//
// Loads real IPv4 tables from /work/shared/data (STRATA_DATA overrides), builds K = 1..50 VRs
// from them twice: "dissimilar" (each VR another date or vantage point; beyond the 20 tables,
// variants that drop 10% of prefixes) and "similar" (one table, per-VR next hops chosen among 4
// shared upstreams by the route's original next hop / neighbor AS). For each K it compares the
// paper's single shared group, per-VR LC-tries built by the same code, and the adaptive policy,
// and prints Markdown. Lookups go round-robin over VRs; traces are uniform random addresses and
// a Zipf(1.0)-skewed pick of table prefixes (random host bits). "tput" runs independent lookups,
// "lat" makes each address depend on the previous answer. --smoke: small tables, seconds.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "fea/fib/multi_vr_fib.h"

// Under valgrind --tool=callgrind --instr-atstart=no, the timed update loops (and only they) are
// instrumented and dumped apart ("single", "batched"), so instruction counts per update can be
// compared between versions on a loaded machine. Without valgrind the requests are no-ops.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define STRATA_CG_START() CALLGRIND_START_INSTRUMENTATION
#define STRATA_CG_STOP(name)        \
  do {                              \
    CALLGRIND_DUMP_STATS_AT(name);  \
    CALLGRIND_STOP_INSTRUMENTATION; \
  } while (0)
#else
#define STRATA_CG_START() ((void)0)
#define STRATA_CG_STOP(name) ((void)0)
#endif

namespace {

using strata::fib::Fib4;
using strata::fib::FibOptions;
using strata::fib::GroupingPolicy;
using strata::fib::NextHop;
using strata::fib::VrId;

struct Route {
  uint32_t key;
  uint8_t len;
  uint32_t cls;  // hash of the source's next hop (or first AS when it had none)
};
using Table = std::vector<Route>;

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// This thread's CPU time: on a machine shared with builds, wall time also counts the time the
// thread waited for a core. Timings below use CPU time; --wall switches back.
bool g_wall = false;
double Clock() {
  if (g_wall) return Now();
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

uint32_t Hash32(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return static_cast<uint32_t>(x ^ (x >> 33));
}

Table Load(const std::string& path, size_t limit) {
  Table t;
  std::string cmd = "zcat '" + path + "'";
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) return t;
  char line[4096];
  while (t.size() < limit && fgets(line, sizeof line, f) != nullptr) {
    unsigned a, b, c, d, len;
    char nh[64], as[64] = "";
    if (sscanf(line, "%u.%u.%u.%u/%u %63s %63s", &a, &b, &c, &d, &len, nh, as) < 6) continue;
    if (len > 32 || a > 255 || b > 255 || c > 255 || d > 255) continue;
    uint32_t key = strata::fib::MaskKey((a << 24) | (b << 16) | (c << 8) | d, int(len));
    const char* basis = std::strcmp(nh, "0") == 0 ? as : nh;
    uint64_t h = 1469598103934665603ULL;
    for (const char* p = basis; *p != 0; ++p) h = (h ^ uint8_t(*p)) * 1099511628211ULL;
    t.push_back({key, uint8_t(len), Hash32(h)});
  }
  pclose(f);
  return t;
}

struct Set {
  std::string name;
  std::vector<Table> vr_tables;  // one per VR (K max)
  std::vector<int> upstreams;    // per VR: number of distinct next hops to map classes onto
};

Set MakeDissimilar(const std::vector<Table>& tables, int kmax) {
  Set s{"dissimilar", {}, {}};
  for (int v = 0; v < kmax; ++v) {
    const Table& base = tables[v % tables.size()];
    int round = v / int(tables.size());
    Table t;
    for (const Route& r : base) {
      if (round == 0 || Hash32(uint64_t(r.key) * 64 + r.len + uint64_t(round) * 977) % 10 != 0) {
        t.push_back(r);
      }
    }
    s.vr_tables.push_back(std::move(t));
    s.upstreams.push_back(32);
  }
  return s;
}

Set MakeSimilar(const Table& table, int kmax) {
  Set s{"similar", {}, {}};
  for (int v = 0; v < kmax; ++v) {
    s.vr_tables.push_back(table);
    s.upstreams.push_back(4);
  }
  return s;
}

NextHop Hop(uint32_t n) { return NextHop{strata::IpAddr::V4(0x0a000000 + n), n}; }

uint32_t HopOf(const Set& s, int v, const Route& r) {
  return 1 + Hash32(uint64_t(r.cls) * 131 + uint64_t(v)) % uint32_t(s.upstreams[v]);
}

struct Trace {
  std::vector<uint32_t> addrs;
};

Trace Uniform(size_t n, std::mt19937_64& rng) {
  Trace t;
  for (size_t i = 0; i < n; ++i) t.addrs.push_back(static_cast<uint32_t>(rng()));
  return t;
}

Trace Skewed(const Table& table, size_t n, std::mt19937_64& rng) {
  std::vector<uint32_t> order(table.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = uint32_t(i);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<double> cdf(order.size());
  double sum = 0;
  for (size_t i = 0; i < cdf.size(); ++i) cdf[i] = sum += 1.0 / double(i + 1);
  std::uniform_real_distribution<double> u(0, sum);
  Trace t;
  for (size_t i = 0; i < n; ++i) {
    size_t rank = std::lower_bound(cdf.begin(), cdf.end(), u(rng)) - cdf.begin();
    const Route& r = table[order[std::min(rank, order.size() - 1)]];
    uint32_t host = r.len == 32 ? 0 : static_cast<uint32_t>(rng()) >> r.len;
    t.addrs.push_back(r.key | host);
  }
  return t;
}

// Nanoseconds per lookup, VRs round-robin.
double Measure(const Fib4& fib, int k, const Trace& trace, bool dependent, uint64_t* sink) {
  Fib4::ReaderSlot slot(fib);
  const size_t n = trace.addrs.size();
  uint64_t acc = 0;
  double t0 = Clock();
  for (int rep = 0; rep < 2; ++rep) {
    uint32_t prev = 0;
    for (size_t base = 0; base < n; base += 256) {
      Fib4::ReadSection rs(fib, slot);
      size_t end = std::min(n, base + 256);
      for (size_t i = base; i < end; ++i) {
        uint32_t a = trace.addrs[i];
        if (dependent) a ^= (prev == 0xFFFFu) ? 1u : 0u;
        prev = rs.Lookup(static_cast<VrId>(i % size_t(k)), a);
        acc += prev;
      }
    }
  }
  *sink += acc;
  return (Clock() - t0) * 1e9 / double(2 * n);
}

// Nanoseconds per lookup through ReadSection::LookupBatch, 256 addresses per section and call
// (a packet batch), VRs round-robin: throughput with the walks interleaved.
double MeasureBatch(const Fib4& fib, int k, const Trace& trace, uint64_t* sink) {
  Fib4::ReaderSlot slot(fib);
  const size_t n = trace.addrs.size();
  std::vector<VrId> vrs(n);
  for (size_t i = 0; i < n; ++i) vrs[i] = static_cast<VrId>(i % size_t(k));
  std::vector<strata::fib::NextHopId> out(256);
  uint64_t acc = 0;
  double t0 = Clock();
  for (int rep = 0; rep < 2; ++rep) {
    for (size_t base = 0; base < n; base += 256) {
      Fib4::ReadSection rs(fib, slot);
      size_t m = std::min(n, base + 256) - base;
      rs.LookupBatch(std::span(vrs.data() + base, m), std::span(trace.addrs.data() + base, m),
                     std::span(out.data(), m));
      for (size_t i = 0; i < m; ++i) acc += out[i];
    }
  }
  *sink += acc;
  return (Clock() - t0) * 1e9 / double(2 * n);
}

struct Built {
  std::unique_ptr<Fib4> fib;
  double build_s;
};

bool g_auto_rebuild = true;

double g_fill = 0;       // --fill: TrieOptions::fill when > 0
double g_fill_root = 0;  // --fill-below-root: TrieOptions::fill_below_root when > 0

Built Build(const Set& s, int k, GroupingPolicy policy, int root_bits) {
  FibOptions o;
  o.policy = policy;
  o.auto_rebuild = g_auto_rebuild;
  o.trie.root_bits = root_bits;
  if (g_fill > 0) o.trie.fill = g_fill;
  if (g_fill_root > 0) o.trie.fill_below_root = g_fill_root;
  auto fib = std::make_unique<Fib4>(o);
  for (int v = 0; v < k; ++v) (void)fib->AddVr(static_cast<VrId>(v));
  fib->BeginBulkLoad();
  for (int v = 0; v < k; ++v) {
    for (const Route& r : s.vr_tables[v]) {
      (void)fib->AddRoute(static_cast<VrId>(v), r.key, r.len, Hop(HopOf(s, v, r)));
    }
  }
  double t0 = Clock();
  fib->EndBulkLoad();
  return {std::move(fib), Clock() - t0};
}

// The largest lookup memory seen during an update loop, sampled every 100,000 route changes
// (Stats() walks the trie: the sampling is kept out of the timed part).
struct MemWatch {
  double max_mb = 0;
  size_t next = 100000;
  double paused = 0;  // seconds spent sampling
  void Sample(const Fib4& fib, size_t done) {
    if (done < next) return;
    next += 100000;
    double t0 = Clock();
    max_mb = std::max(max_mb, double(fib.Stats().lookup_bytes) / 1e6);
    paused += Clock() - t0;
  }
};

// Random next-hop changes, and withdraw + re-announce, of prefixes /8 and longer over all VRs.
// With g_flap, every change is undone right away (a detour to a random next hop, or a withdraw,
// then the route's original next hop again): the tables stay the loaded ones, so whatever the
// FIB grows by is garbage of incremental updates, not new table content. The operations are
// drawn before the clock starts.
bool g_flap = false;
double UpdateRate(Fib4& fib, const Set& s, int k, size_t ops, size_t batch, std::mt19937_64& rng) {
  struct Op {
    VrId vr;
    uint8_t len;
    bool withdraw;
    uint32_t key;
    NextHop nh;
    NextHop detour;  // g_flap: announced before nh (unless withdraw)
  };
  std::vector<Op> plan;
  for (size_t i = 0; i < ops; ++i) {
    int v = int(rng() % uint64_t(k));
    const Table& t = s.vr_tables[v];
    const Route& r = t[rng() % t.size()];
    uint32_t nh = 1 + uint32_t(rng() % uint64_t(s.upstreams[v]));
    if (r.len < 8) continue;
    if (g_flap) {
      plan.push_back(
          {static_cast<VrId>(v), r.len, i % 4 == 3, r.key, Hop(HopOf(s, v, r)), Hop(nh)});
    } else {
      plan.push_back({static_cast<VrId>(v), r.len, i % 4 == 3, r.key, Hop(nh), {}});
    }
  }
  if (batch > 0) {  // MultiVrFib::ApplyBatch, `batch` route changes per call
    std::vector<strata::fib::RouteUpdate<uint32_t>> ups;
    for (const Op& op : plan) {
      if (op.withdraw) {
        ups.push_back({op.vr, op.key, op.len, true, {}});
      } else if (g_flap) {
        ups.push_back({op.vr, op.key, op.len, false, op.detour});
      }
      ups.push_back({op.vr, op.key, op.len, false, op.nh});
    }
    MemWatch mem;
    STRATA_CG_START();
    double t0 = Clock();
    for (size_t i = 0; i < ups.size(); i += batch) {
      size_t n = std::min(batch, ups.size() - i);
      (void)fib.ApplyBatch(std::span(ups.data() + i, n));
      mem.Sample(fib, i + n);
    }
    double t1 = Clock();
    STRATA_CG_STOP("batched");
    std::fprintf(stderr, "batched: %zu route changes, max %.1f MB\n", ups.size(), mem.max_mb);
    return double(ups.size()) / (t1 - t0 - mem.paused);
  }
  MemWatch mem;
  STRATA_CG_START();
  double t0 = Clock();
  size_t done = 0;
  for (const Op& op : plan) {
    if (op.withdraw) {  // withdraw, then announce again
      if (fib.DeleteRoute(op.vr, op.key, op.len).ok()) ++done;
    } else if (g_flap) {
      if (fib.AddRoute(op.vr, op.key, op.len, op.detour).ok()) ++done;
    }
    if (fib.AddRoute(op.vr, op.key, op.len, op.nh).ok()) ++done;
    mem.Sample(fib, done);
  }
  double t1 = Clock();
  STRATA_CG_STOP("single");
  std::fprintf(stderr, "single: %zu route changes, max %.1f MB\n", done, mem.max_mb);
  return double(done) / (t1 - t0 - mem.paused);
}

const char* PolicyName(GroupingPolicy p) {
  switch (p) {
    case GroupingPolicy::kShared:
      return "shared";
    case GroupingPolicy::kPerVr:
      return "per-VR";
    case GroupingPolicy::kAdaptive:
      return "adaptive";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  bool smoke = false;
  int root_bits = 16;
  std::vector<int> ks = {1, 2, 5, 10, 20, 50};
  std::string only;
  std::string only_policy;
  size_t update_ops = 0;
  std::string profile;  // --profile TRACE: only that trace's scalar lookups, repeated (for perf)
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--smoke") {
      smoke = true;
    } else if (a == "--root-bits" && i + 1 < argc) {
      root_bits = std::atoi(argv[++i]);
    } else if (a == "--set" && i + 1 < argc) {
      only = argv[++i];
    } else if (a == "--policy" && i + 1 < argc) {
      only_policy = argv[++i];
    } else if (a == "--flap") {
      g_flap = true;
    } else if (a == "--no-auto-rebuild") {
      g_auto_rebuild = false;
    } else if (a == "--wall") {
      g_wall = true;
    } else if (a == "--update-ops" && i + 1 < argc) {
      update_ops = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--fill" && i + 1 < argc) {
      g_fill = std::atof(argv[++i]);
    } else if (a == "--fill-below-root" && i + 1 < argc) {
      g_fill_root = std::atof(argv[++i]);
    } else if (a == "--profile" && i + 1 < argc) {
      profile = argv[++i];
    } else if (a == "--k" && i + 1 < argc) {
      ks = {std::atoi(argv[++i])};
    } else {
      std::fprintf(stderr,
                   "usage: %s [--smoke] [--root-bits N] [--set similar|dissimilar] [--k K]\n"
                   "          [--policy shared|per-VR|adaptive] [--update-ops N] [--wall]\n"
                   "          [--no-auto-rebuild] [--flap] [--profile uniform|skewed] [--fill F]\n"
                   "          [--fill-below-root F]\n",
                   argv[0]);
      return 2;
    }
  }
  const char* env = std::getenv("STRATA_DATA");
  std::string data = env != nullptr ? env : "/work/shared/data";
  std::vector<std::string> files = {
      "pch_as3856_20151023/AS3856_206.220.231.55.v4.txt.gz",
      "rv_pfx2as_20240406/rv2_20240406.v4.txt.gz",
      "bart_tier1_prefixes/tier1.v4.txt.gz",
      "rv_pfx2as_202002/rv2_202002.v4.txt.gz",
      "rv_pfx2as_20160202/rv2_20160202.v4.txt.gz",
      "rv_ipasn_20151101/ipasn_20151101.v4.txt.gz",
      "rv_pfx2as_20141202/rv2_20141202.v4.txt.gz",
      "rv_ipasn_20140513/ipasn_20140513.v4.txt.gz",
      "ris_rrc06_20100701/AS2497_202.249.2.169.v4.txt.gz",
      "ris_rrc06_20100701/AS4777_202.249.2.20.v4.txt.gz",
      "rv_ipasn_20080501/ipasn_20080501.v4.txt.gz",
      "ris_rrc05_20020722/AS1853_193.203.0.1.v4.txt.gz",
      "ris_rrc00_20000111/AS3333_193.0.0.56.v4.txt.gz",
      "ris_rrc00_20000111/AS3549_204.152.166.29.v4.txt.gz",
      "ris_rrc00_20000111/AS5409_195.211.222.11.v4.txt.gz",
      "ris_rrc00_20000111/AS8259_195.8.100.22.v4.txt.gz",
      "rv_chicago_20190824/AS23367.v4.txt.gz",
      "rv_chicago_20190824/fib5.v4.txt.gz",
      "linx_partial_2017/linx_20170101_0000.v4.txt.gz",
      "linx_partial_2017/linx_20170112_0800.v4.txt.gz",
  };
  size_t limit = smoke ? 5000 : ~size_t{0};
  if (smoke) {
    files.resize(3);
    ks = {1, 5};
  }
  if (only == "similar") files.resize(1);  // the similar set is made of the first table
  if (update_ops == 0) update_ops = smoke ? 20000 : 300000;
  const int kmax = *std::max_element(ks.begin(), ks.end());
  std::vector<Table> tables;
  double t0 = Now();
  for (const std::string& f : files) {
    Table t = Load(data + "/" + f, limit);
    if (!t.empty()) tables.push_back(std::move(t));
  }
  if (tables.empty()) {
    std::fprintf(stderr, "no tables under %s\n", data.c_str());
    return 1;
  }
  std::printf("loaded %zu tables in %.1f s; root_bits %d; timings in %s\n\n", tables.size(),
              Now() - t0, root_bits, g_wall ? "wall time" : "thread CPU time");
  std::vector<Set> sets;
  if (only.empty() || only == "similar") sets.push_back(MakeSimilar(tables[0], kmax));
  if (only.empty() || only == "dissimilar") sets.push_back(MakeDissimilar(tables, kmax));
  std::mt19937_64 rng(42);
  const size_t n_lookups = smoke ? 20000 : 2000000;
  Trace uniform = Uniform(n_lookups, rng);
  uint64_t sink = 0;
  std::printf(
      "| set | K | policy | groups | rows | trie nodes | MB | uniform tput ns | uniform lat ns | "
      "skewed tput ns | skewed lat ns | uniform batch ns | skewed batch ns | build s | "
      "updates/s single / batched |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Set& s : sets) {
    Trace skewed = Skewed(s.vr_tables[0], n_lookups, rng);
    for (int k : ks) {
      for (GroupingPolicy p :
           {GroupingPolicy::kShared, GroupingPolicy::kPerVr, GroupingPolicy::kAdaptive}) {
        if (k == 1 && p != GroupingPolicy::kShared) continue;  // all three are one LC-trie
        if (!only_policy.empty() && only_policy != PolicyName(p)) continue;
        Built b = Build(s, k, p, root_bits);
        strata::fib::FibStats st = b.fib->Stats();
        if (!profile.empty()) {  // nothing else runs: perf stat/record see these lookups only
          const Trace& t = profile == "skewed" ? skewed : uniform;
          std::fprintf(stderr, "%s K=%d %s: %.1f MB; lookups; leaves by depth:", s.name.c_str(), k,
                       PolicyName(p), double(st.lookup_bytes) / 1e6);
          for (uint64_t d : st.depth_histogram)
            std::fprintf(stderr, " %llu", (unsigned long long)d);
          std::fprintf(stderr, "\n");
          for (int rep = 0; rep < 10; ++rep) {
            std::printf("%s tput %.1f ns\n", profile.c_str(), Measure(*b.fib, k, t, false, &sink));
          }
          continue;
        }
        double ut = Measure(*b.fib, k, uniform, false, &sink);
        double ul = Measure(*b.fib, k, uniform, true, &sink);
        double st_ = Measure(*b.fib, k, skewed, false, &sink);
        double sl = Measure(*b.fib, k, skewed, true, &sink);
        double ub = MeasureBatch(*b.fib, k, uniform, &sink);
        double sb = MeasureBatch(*b.fib, k, skewed, &sink);
        std::string ups = "";
        if (k == kmax) {
          char buf[64];
          // Progress on stderr, so that a profiler can be attached for the update phase only.
          std::fprintf(stderr, "%s K=%d %s: updates\n", s.name.c_str(), k, PolicyName(p));
          double single = UpdateRate(*b.fib, s, k, update_ops, 0, rng);
          double batched = UpdateRate(*b.fib, s, k, update_ops, 256, rng);
          b.fib->WaitForBackgroundRebuild();
          strata::fib::FibStats after = b.fib->Stats();  // growth by incremental updates
          std::fprintf(stderr,
                       "after updates: %.1f MB, %zu trie nodes, %zu rows, %.1f MB dead; "
                       "%llu rebuilds (%llu background, %llu abandoned)\n",
                       double(after.lookup_bytes) / 1e6, after.trie_nodes, after.shared_rows,
                       double(after.dead_bytes) / 1e6,
                       static_cast<unsigned long long>(after.rebuilds),
                       static_cast<unsigned long long>(after.background_rebuilds),
                       static_cast<unsigned long long>(after.abandoned_rebuilds));
          b.fib->Rebuild();  // what the same tables cost when compact
          strata::fib::FibStats compact = b.fib->Stats();
          std::fprintf(stderr, "after a rebuild: %.1f MB, %zu trie nodes, %zu rows\n",
                       double(compact.lookup_bytes) / 1e6, compact.trie_nodes, compact.shared_rows);
          std::snprintf(buf, sizeof buf, "%.2fM / %.2fM", single / 1e6, batched / 1e6);
          ups = buf;
        }
        std::printf(
            "| %s | %d | %s | %zu | %zu | %zu | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | "
            "%.2f | %s |\n",
            s.name.c_str(), k, k == 1 ? "single" : PolicyName(p), st.groups.size(), st.shared_rows,
            st.trie_nodes, double(st.lookup_bytes) / 1e6, ut, ul, st_, sl, ub, sb, b.build_s,
            ups.c_str());
        std::fflush(stdout);
      }
    }
  }
  std::printf("\n(checksum %llu)\n", static_cast<unsigned long long>(sink));
  return 0;
}
