#include "libipc/profile/profile_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>

namespace strata::ipc {
namespace {

std::string Num(double v, const char* f = "%.3f") {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

}  // namespace

std::vector<std::string> DefaultProfileOrder() {
  return {std::string(kProfileBgpIn),        std::string(kProfileBgpRibQueued),
          std::string(kProfileBgpRibSent),   std::string(kProfileRibIn),
          std::string(kProfileRibFeaQueued), std::string(kProfileRibFeaSent),
          std::string(kProfileFeaIn),        std::string(kProfileFeaKernel)};
}

ProfileSummary SummarizeProfile(const std::vector<PointRecord>& records,
                                const std::vector<std::string>& order, std::string_view origin,
                                std::string_view match) {
  // Start times per detail, sorted.
  std::unordered_map<std::string, std::vector<int64_t>> starts;
  // Record times per (point, detail), sorted.
  std::map<std::pair<std::string, std::string>, std::vector<int64_t>> seen;
  ProfileSummary out;
  for (const PointRecord& r : records) {
    if (!match.empty() && r.record.detail.rfind(match, 0) != 0) continue;
    if (r.point == origin) {
      starts[r.record.detail].push_back(r.record.time_ns);
      ++out.events;
    } else {
      seen[{r.point, r.record.detail}].push_back(r.record.time_ns);
    }
  }
  for (auto& [d, v] : starts) std::sort(v.begin(), v.end());
  for (auto& [k, v] : seen) std::sort(v.begin(), v.end());

  for (const std::string& point : order) {
    PointDelay pd;
    pd.point = point;
    std::vector<double> delays;
    for (const auto& [detail, times] : starts) {
      for (size_t i = 0; i < times.size(); ++i) {
        if (point == origin) {
          delays.push_back(0);
          continue;
        }
        auto it = seen.find({point, detail});
        if (it == seen.end()) continue;
        const int64_t from = times[i];
        const int64_t until = i + 1 < times.size() ? times[i + 1] : INT64_MAX;
        auto t = std::lower_bound(it->second.begin(), it->second.end(), from);
        if (t != it->second.end() && *t < until) {
          delays.push_back(static_cast<double>(*t - from) / 1e6);
        }
      }
    }
    pd.events = delays.size();
    if (!delays.empty()) {
      double sum = 0;
      for (double d : delays) sum += d;
      pd.avg_ms = sum / static_cast<double>(delays.size());
      double var = 0;
      for (double d : delays) var += (d - pd.avg_ms) * (d - pd.avg_ms);
      pd.sd_ms = std::sqrt(var / static_cast<double>(delays.size()));
      pd.min_ms = *std::min_element(delays.begin(), delays.end());
      pd.max_ms = *std::max_element(delays.begin(), delays.end());
    }
    out.points.push_back(pd);
  }
  return out;
}

std::string ProfileMarkdown(const ProfileSummary& s) {
  std::string o =
      "| point | events | avg (ms) | sd (ms) | min (ms) | max (ms) |\n"
      "|---|---|---|---|---|---|\n";
  for (const PointDelay& p : s.points) {
    if (p.events == 0) {
      o += "| " + p.point + " | 0 | - | - | - | - |\n";
      continue;
    }
    o += "| " + p.point + " | " + std::to_string(p.events) + " | " + Num(p.avg_ms) + " | " +
         Num(p.sd_ms) + " | " + Num(p.min_ms) + " | " + Num(p.max_ms) + " |\n";
  }
  return o;
}

std::string ProfileJson(const ProfileSummary& s) {
  std::string o = "{\"events\": " + std::to_string(s.events) + ", \"points\": [";
  for (size_t i = 0; i < s.points.size(); ++i) {
    const PointDelay& p = s.points[i];
    o += std::string(i ? ", " : "") + "{\"point\": \"" + p.point +
         "\", \"events\": " + std::to_string(p.events);
    if (p.events > 0) {
      o += ", \"avg_ms\": " + Num(p.avg_ms, "%.6f") + ", \"sd_ms\": " + Num(p.sd_ms, "%.6f") +
           ", \"min_ms\": " + Num(p.min_ms, "%.6f") + ", \"max_ms\": " + Num(p.max_ms, "%.6f");
    }
    o += "}";
  }
  return o + "]}";
}

}  // namespace strata::ipc
