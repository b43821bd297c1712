// strata-trie-bench: the cost of RouteTrie descents on a real full table.
//
// Loads a real IPv4 table (/work/shared/data, STRATA_DATA overrides; --table picks the file)
// into four RouteTries filled side by side (a route passing several per-prefix tables, whose
// nodes compete for the cache), and prints per-route figures for: inserting in table
// order (how a peer sends a table), finding in table order, finding in random order (cold
// paths), and finding in random order with the paths warmed 8 at a time (one UPDATE's
// prefixes, BgpStage::prefetch), and walking one trie with an iterator (a dump, a peer's
// routes going away in a DeletionStage). Round 1 includes the kernel's first touch of the memory;
// later rounds reuse it (the heap is kept, as strata-bgp keeps it: bgp/main.cc).
// --smoke: 50,000 prefixes, one round.
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "common/ip_prefix.h"
#include "common/route_trie.h"

namespace {

using Clock = std::chrono::steady_clock;

double NsPer(Clock::time_point a, Clock::time_point b, size_t n) {
  return std::chrono::duration<double, std::nano>(b - a).count() / static_cast<double>(n);
}

std::vector<strata::IpPrefix> Load(const std::string& path, size_t limit) {
  std::vector<strata::IpPrefix> out;
  const std::string cmd = "zcat '" + path + "'";
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) return out;
  char line[1024];
  while (out.size() < limit && fgets(line, sizeof line, f) != nullptr) {
    std::string s(line);
    s = s.substr(0, s.find_first_of(" \n"));
    auto p = strata::IpPrefix::Parse(s);
    if (p.ok() && p->is_v4()) out.push_back(*p);
  }
  pclose(f);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  mallopt(M_TRIM_THRESHOLD, 512 << 20);  // as strata-bgp: freed memory serves the next round
  bool smoke = false;
  std::string table = "rv_pfx2as_20240406/rv2_20240406.v4.txt.gz";
  int rounds = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--smoke") {
      smoke = true;
    } else if (a == "--table" && i + 1 < argc) {
      table = argv[++i];
    } else if (a == "--rounds" && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--smoke] [--table FILE-UNDER-DATA] [--rounds N]\n", argv[0]);
      return 2;
    }
  }
  const char* env = std::getenv("STRATA_DATA");
  const std::string data = env != nullptr ? env : "/work/shared/data";
  const std::vector<strata::IpPrefix> in_order =
      Load(data + "/" + table, smoke ? 50000 : ~size_t{0});
  if (in_order.empty()) {
    std::fprintf(stderr, "no prefixes read from %s/%s\n", data.c_str(), table.c_str());
    return 1;
  }
  if (smoke) rounds = 1;
  std::vector<strata::IpPrefix> shuffled = in_order;
  std::mt19937 rng(1);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  const size_t n = in_order.size();

  std::printf("## strata-trie-bench: %zu prefixes of %s, four tries\n\n", n, table.c_str());
  std::printf(
      "| round | insert, 4 tries (ns/route) | find in order (ns) | find random (ns) |"
      " warm 8 + find random (ns) | iterate (ns) | IPv4 jump table |\n"
      "|---|---|---|---|---|---|---|\n");
  uint64_t sum = 0;
  for (int round = 1; round <= rounds; ++round) {
    std::vector<strata::RouteTrie<uint64_t>> tries(4);
    const auto t0 = Clock::now();
    for (size_t i = 0; i < n; ++i) {
      for (auto& t : tries) t.insert(in_order[i], i);
    }
    const auto t1 = Clock::now();
    for (const auto& p : in_order) sum += *tries[0].find(p);
    const auto t2 = Clock::now();
    for (const auto& p : shuffled) sum += *tries[1].find(p);
    const auto t3 = Clock::now();
    for (size_t i = 0; i < n; i += 8) {
      const std::span<const strata::IpPrefix> batch(&shuffled[i], std::min<size_t>(8, n - i));
      tries[2].warm(batch);
      for (const auto& p : batch) sum += *tries[2].find(p);
    }
    const auto t4 = Clock::now();
    size_t walked = 0;
    for (auto it = tries[3].begin(); !it.at_end(); ++it, ++walked) sum += it.value();
    const auto t5 = Clock::now();
    std::printf("| %d | %.0f | %.0f | %.0f | %.0f | %.0f | %s |\n", round, NsPer(t0, t1, n),
                NsPer(t1, t2, n), NsPer(t2, t3, n), NsPer(t3, t4, n), NsPer(t4, t5, n),
                tries[0].ipv4_jumps() ? "yes" : "no");
    if (walked != n) {
      std::fprintf(stderr, "the walk met %zu prefixes, not %zu\n", walked, n);
      return 1;
    }
  }
  // Every find and the walk hit: the sum is fixed by the table (and keeps the loops).
  const uint64_t want = static_cast<uint64_t>(rounds) * 4 * (n * (n - 1) / 2);
  if (sum != want) {
    std::fprintf(stderr, "lookups disagree with the table\n");
    return 1;
  }
  return 0;
}
