#include "bench/bgp/bgp_table.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace strata::bench {
namespace {

constexpr const char* kPch = "/pch_as3856_20151023/AS3856_206.220.231.55.v4.txt.gz";
constexpr const char* kRv = "/rv_pfx2as_20240406/rv2_20240406.v4.txt.gz";

struct Line {
  IpPrefix prefix;
  std::string next_hop;
  std::vector<bgp::AsSegment> segments;
};

// "65001 {1,2} 65003" -> segments.
std::vector<bgp::AsSegment> ParsePath(std::istringstream& in) {
  std::vector<bgp::AsSegment> segs;
  std::string tok;
  while (in >> tok) {
    if (tok.front() == '{') {
      bgp::AsSegment set{bgp::AsSegmentType::kSet, {}};
      std::string inner = tok.substr(1, tok.size() - 2);
      std::istringstream parts(inner);
      std::string a;
      while (std::getline(parts, a, ',')) set.asns.push_back(std::strtoul(a.c_str(), nullptr, 10));
      if (!set.asns.empty()) segs.push_back(std::move(set));
      continue;
    }
    const uint32_t asn = std::strtoul(tok.c_str(), nullptr, 10);
    if (segs.empty() || segs.back().type != bgp::AsSegmentType::kSequence) {
      segs.push_back({bgp::AsSegmentType::kSequence, {}});
    }
    segs.back().asns.push_back(asn);
  }
  return segs;
}

template <typename Fn>
bool ForEachLine(const std::string& path, Fn fn) {
  FILE* p = ::popen(("zcat '" + path + "' 2>/dev/null").c_str(), "r");
  if (!p) return false;
  char buf[8192];
  while (std::fgets(buf, sizeof buf, p)) {
    std::istringstream in(buf);
    std::string pfx;
    Line line;
    if (!(in >> pfx >> line.next_hop)) continue;
    auto prefix = IpPrefix::Parse(pfx, true);
    if (!prefix.ok() || !prefix->is_v4() || prefix->len() == 0) continue;
    line.prefix = *prefix;
    line.segments = ParsePath(in);
    if (!fn(std::move(line))) break;
  }
  ::pclose(p);
  return true;
}

uint32_t OriginOf(const std::vector<bgp::AsSegment>& segs) {
  if (segs.empty() || segs.back().type != bgp::AsSegmentType::kSequence) return 0;
  return segs.back().asns.back();
}

uint64_t Key(const IpPrefix& p) {
  return (static_cast<uint64_t>(p.addr().v4_host_order()) << 8) | static_cast<uint64_t>(p.len());
}

}  // namespace

StatusOr<BenchTable> LoadBenchTable(const std::string& data_dir, size_t n) {
  std::vector<Line> pch;
  std::unordered_set<uint64_t> seen;
  if (!ForEachLine(data_dir + kPch, [&](Line l) {
        if (l.segments.empty() || !seen.insert(Key(l.prefix)).second) return true;
        pch.push_back(std::move(l));
        return pch.size() < n;
      })) {
    return Status(StatusCode::kNotFound, "cannot read " + data_dir + kPch);
  }
  if (pch.empty()) return Status(StatusCode::kNotFound, "no routes in " + data_dir + kPch);
  BenchTable table;
  std::vector<Line> lines;
  if (n <= pch.size()) {
    lines = std::move(pch);
    table.source = "pch_as3856_20151023 (first " + std::to_string(lines.size()) +
                   " prefixes, real AS paths and next hops)";
  } else {
    std::unordered_map<uint32_t, std::vector<size_t>> by_origin;
    for (size_t i = 0; i < pch.size(); ++i) by_origin[OriginOf(pch[i].segments)].push_back(i);
    std::unordered_map<uint32_t, size_t> used;
    size_t rr = 0, matched = 0;
    seen.clear();
    if (!ForEachLine(data_dir + kRv, [&](Line l) {
          if (!seen.insert(Key(l.prefix)).second) return true;
          const uint32_t origin = OriginOf(l.segments);
          Line out{l.prefix, {}, {}};
          auto it = by_origin.find(origin);
          if (origin != 0 && it != by_origin.end()) {
            const Line& src = pch[it->second[used[origin]++ % it->second.size()]];
            out.next_hop = src.next_hop;
            out.segments = src.segments;
            ++matched;
          } else {
            const Line& src = pch[rr++ % pch.size()];
            out.next_hop = src.next_hop;
            out.segments = src.segments;
            // Replace the origin AS (the last of the last sequence) by this prefix's own.
            auto& last = out.segments.back();
            if (last.type == bgp::AsSegmentType::kSequence && last.asns.size() > 1) {
              last.asns.back() = origin;
            } else {
              out.segments.push_back({bgp::AsSegmentType::kSequence, {origin}});
            }
          }
          lines.push_back(std::move(out));
          return lines.size() < n;
        })) {
      return Status(StatusCode::kNotFound, "cannot read " + data_dir + kRv);
    }
    table.source = "rv_pfx2as_20240406 prefixes (" + std::to_string(lines.size()) +
                   "), AS paths and next hops of pch_as3856_20151023: " + std::to_string(matched) +
                   " by origin AS, the rest round-robin";
  }
  // Group by (path, next hop), in order of first appearance.
  std::map<std::string, uint32_t> link_nh;
  std::unordered_map<std::string, size_t> group_of;
  for (auto& l : lines) {
    auto [nh, fresh] = link_nh.try_emplace(l.next_hop, static_cast<uint32_t>(link_nh.size()));
    (void)fresh;
    const uint32_t i = nh->second;
    const IpAddr hop = IpAddr::V4(0x0A630000u + ((1 + i / 250) << 8) + 1 + i % 250);
    bgp::AsPath path(std::move(l.segments));
    std::string key = path.ToString() + "|" + hop.ToString();
    auto [g, added] = group_of.try_emplace(std::move(key), table.groups.size());
    if (added) table.groups.push_back({std::move(path), hop, {}});
    table.groups[g->second].prefixes.push_back(l.prefix);
  }
  table.routes = lines.size();
  return table;
}

}  // namespace strata::bench
