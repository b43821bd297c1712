#include "bench/bgp/bgp_report.h"

#include <cstdio>
#include <functional>

namespace strata::bench {
namespace {

std::string Fmt(double v, const char* f = "%.3f") {
  if (v < 0) return "-";
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string JsonStr(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    o += c;
  }
  return o + "\"";
}

std::string JsonNum(double v) {
  if (v < 0) return "null";
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

bool Ran(const RouterResult& r) { return !r.skipped && r.full_s >= 0; }

}  // namespace

std::string MarkdownReport(const ReportContext& ctx, const std::vector<RouterResult>& results) {
  std::string o = "## strata-bgp-bench: N = " + std::to_string(ctx.n) +
                  (ctx.kernel ? ", kernel install on" : ", kernel install off") + "\n\n`" +
                  ctx.command + "`  \nTable: " + ctx.table_source + "\n\n";
  o += "### (a) full table: feeder A's first UPDATE until the counter peer holds all N\n\n";
  o +=
      "| router | received | to counter (s) | to kernel (s) | peak RSS (MB) | CPU in (a) (s) | "
      "CPU total (s) | tester CPU in (a) (s) | ext. msg |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : results) {
    if (r.skipped) {
      o += "| " + r.router + " | skipped: " + r.error + " | | | | | | | |\n";
      continue;
    }
    o += "| " + r.router + " | " + std::to_string(r.received) + " | " + Fmt(r.full_s) + " | " +
         Fmt(r.kernel_s) + " | " + Fmt(static_cast<double>(r.rss_kb) / 1024.0, "%.1f") + " | " +
         Fmt(r.cpu_full_s, "%.2f") + " | " + Fmt(r.cpu_total_s, "%.2f") + " | " +
         Fmt(r.tester_cpu_full_s, "%.2f") + " | " + (r.extended_messages ? "yes" : "no") + " |\n";
  }
  bool any_processes = false;
  for (const auto& r : results) any_processes |= !r.processes.empty();
  if (any_processes) {
    o += "\n(a) per process: peak RSS over the whole run, CPU in (a) and in all\n\n"
         "| router | process | peak RSS (MB) | CPU in (a) (s) | CPU total (s) |\n"
         "|---|---|---|---|---|\n";
    for (const auto& r : results) {
      for (const auto& p : r.processes) {
        o += "| " + r.router + " | " + p.name + " | " +
             Fmt(static_cast<double>(p.rss_kb) / 1024.0, "%.1f") + " | " +
             Fmt(p.cpu_full_s, "%.2f") + " | " + Fmt(p.cpu_total_s, "%.2f") + " |\n";
      }
    }
  }
  o += "\n### (b) one new prefix crossing the router with the table loaded (ms)\n\n";
  std::string rt, other;
  for (const auto& r : results) {
    if (!Ran(r)) continue;
    std::string& list = r.tester_rt ? rt : other;
    list += list.empty() ? r.router : ", " + r.router;
  }
  o += "Tester timing threads (counter reader, (c) prober) from here on: " +
       (rt.empty() ? std::string() : "SCHED_FIFO for " + rt) +
       (!rt.empty() && !other.empty() ? "; " : "") +
       (other.empty() ? std::string() : "normal scheduling for " + other) + "\n\n";
  o += "| router | announce median | announce p99 | withdraw median | withdraw p99 | lost |\n"
       "|---|---|---|---|---|---|\n";
  for (const auto& r : results) {
    if (!Ran(r)) continue;
    o += "| " + r.router + " | " + Fmt(r.lat_median_ms) + " | " + Fmt(r.lat_p99_ms) + " | " +
         Fmt(r.wd_median_ms) + " | " + Fmt(r.wd_p99_ms) + " | " + std::to_string(r.lat_lost) +
         " |\n";
  }
  o += "\n### (c) feeder A (N routes) goes down: feeder B's updates every 10 ms\n\n";
  o += "| router | all N withdrawn (s) | worst delay (ms) | median delay (ms) | probes | lost | "
       "worst before (ms) |\n|---|---|---|---|---|---|---|\n";
  for (const auto& r : results) {
    if (!Ran(r)) continue;
    o += "| " + r.router + " | " + Fmt(r.down_withdraw_s) + " | " + Fmt(r.down_worst_ms) + " | " +
         Fmt(r.down_median_ms) + " | " + std::to_string(r.down_probes) + " | " +
         std::to_string(r.down_lost) + " | " + Fmt(r.idle_worst_ms) + " |\n";
  }
  bool any_events = false;
  for (const auto& r : results) any_events = any_events || !r.event_ms.empty();
  if (any_events) {
    o += "\n### (d) event-driven, not scanning (XORP figure 13): feeder B's new routes one at a "
         "time, delay until each reaches the counter (ms)\n\n";
    o += "| router | routes | median | p99 | max | lost |\n|---|---|---|---|---|---|\n";
    for (const auto& r : results) {
      if (!Ran(r) || r.event_ms.empty()) continue;
      o += "| " + r.router + " | " + std::to_string(r.event_ms.size()) + " | " +
           Fmt(r.ev_median_ms) + " | " + Fmt(r.ev_p99_ms) + " | " + Fmt(r.ev_max_ms) + " | " +
           std::to_string(r.ev_lost) + " |\n";
    }
  }
  for (const auto& r : results) {
    for (const auto& sc : r.profile) {
      o += "\n### (e) " + r.router + ": route propagation profile, " + sc.name +
           " (ms from entering BGP; one route every 2 s, withdrawn after 1 s)\n\n";
      if (!sc.error.empty()) {
        o += "failed: " + sc.error + "\n";
        continue;
      }
      o += ipc::ProfileMarkdown(sc.summary);
      if (sc.lost > 0) o += "\n" + std::to_string(sc.lost) + " probes never reached the counter\n";
    }
  }
  const RouterResult* strata = nullptr;
  for (const auto& r : results) {
    if (r.router == "Strata" && Ran(r)) strata = &r;
  }
  std::vector<const RouterResult*> others;
  for (const auto& r : results) {
    if (Ran(r) && &r != strata) others.push_back(&r);
  }
  if (strata != nullptr && !others.empty()) {
    o += "\n### Strata / other (below 1: Strata is faster or smaller)\n\n| figure |";
    for (const auto* r : others) o += " Strata/" + r->router + " |";
    o += "\n|---|";
    for (size_t i = 0; i < others.size(); ++i) o += "---|";
    o += "\n";
    const std::pair<const char*, std::function<double(const RouterResult&)>> rows[] = {
        {"to counter", [](const RouterResult& r) { return r.full_s; }},
        {"to kernel", [](const RouterResult& r) { return r.kernel_s; }},
        {"peak RSS", [](const RouterResult& r) { return static_cast<double>(r.rss_kb); }},
        {"CPU total", [](const RouterResult& r) { return r.cpu_total_s; }},
        {"announce median", [](const RouterResult& r) { return r.lat_median_ms; }},
        {"peer-down worst delay", [](const RouterResult& r) { return r.down_worst_ms; }},
        {"all N withdrawn", [](const RouterResult& r) { return r.down_withdraw_s; }},
        {"one-at-a-time median", [](const RouterResult& r) { return r.ev_median_ms; }},
    };
    for (const auto& [name, get] : rows) {
      o += std::string("| ") + name + " |";
      for (const auto* r : others) {
        const double a = get(*strata), b = get(*r);
        o += " " + (a >= 0 && b > 0 ? Fmt(a / b, "%.2f") : std::string("-")) + " |";
      }
      o += "\n";
    }
  }
  for (const auto& r : results) {
    if (!r.skipped && !r.error.empty()) o += "\n" + r.router + ": " + r.error + "\n";
  }
  return o;
}

static std::string ProcessesJson(const RouterResult& r) {
  std::string o;
  for (size_t i = 0; i < r.processes.size(); ++i) {
    const auto& p = r.processes[i];
    o += std::string(i ? ", " : "") + "{\"name\": " + JsonStr(p.name) +
         ", \"peak_rss_kb\": " + std::to_string(p.rss_kb) +
         ", \"cpu_full_table_s\": " + JsonNum(p.cpu_full_s) +
         ", \"cpu_total_s\": " + JsonNum(p.cpu_total_s) + "}";
  }
  return o;
}

std::string JsonReport(const ReportContext& ctx, const std::vector<RouterResult>& results) {
  std::string o = "{\n  \"command\": " + JsonStr(ctx.command) +
                  ",\n  \"table\": " + JsonStr(ctx.table_source) +
                  ",\n  \"n\": " + std::to_string(ctx.n) +
                  ",\n  \"kernel\": " + (ctx.kernel ? "true" : "false") + ",\n  \"routers\": [";
  for (size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    o += std::string(i ? "," : "") + "\n    {\"router\": " + JsonStr(r.router) +
         ", \"skipped\": " + (r.skipped ? "true" : "false") + ", \"error\": " + JsonStr(r.error) +
         ", \"received\": " + std::to_string(r.received) +
         ", \"extended_messages\": " + (r.extended_messages ? "true" : "false") +
         ",\n     \"full_table_s\": " + JsonNum(r.full_s) +
         ", \"kernel_s\": " + JsonNum(r.kernel_s) +
         ", \"peak_rss_kb\": " + std::to_string(r.rss_kb) +
         ", \"cpu_full_table_s\": " + JsonNum(r.cpu_full_s) +
         ", \"cpu_total_s\": " + JsonNum(r.cpu_total_s) +
         ", \"tester_cpu_full_table_s\": " + JsonNum(r.tester_cpu_full_s) + ", \"processes\": [" +
         ProcessesJson(r) + "]" + ",\n     \"announce_median_ms\": " + JsonNum(r.lat_median_ms) +
         ", \"announce_p99_ms\": " + JsonNum(r.lat_p99_ms) +
         ", \"withdraw_median_ms\": " + JsonNum(r.wd_median_ms) +
         ", \"withdraw_p99_ms\": " + JsonNum(r.wd_p99_ms) +
         ", \"latency_lost\": " + std::to_string(r.lat_lost) +
         ", \"tester_rt\": " + (r.tester_rt ? "true" : "false") +
         ",\n     \"peer_down_all_withdrawn_s\": " + JsonNum(r.down_withdraw_s) +
         ", \"peer_down_worst_ms\": " + JsonNum(r.down_worst_ms) +
         ", \"peer_down_median_ms\": " + JsonNum(r.down_median_ms) +
         ", \"peer_down_probes\": " + std::to_string(r.down_probes) +
         ", \"peer_down_lost\": " + std::to_string(r.down_lost) +
         ", \"idle_worst_ms\": " + JsonNum(r.idle_worst_ms) +
         ",\n     \"event_median_ms\": " + JsonNum(r.ev_median_ms) +
         ", \"event_p99_ms\": " + JsonNum(r.ev_p99_ms) +
         ", \"event_max_ms\": " + JsonNum(r.ev_max_ms) +
         ", \"event_lost\": " + std::to_string(r.ev_lost) + ", \"event_delays_ms\": [";
    for (size_t k = 0; k < r.event_ms.size(); ++k)
      o += std::string(k ? ", " : "") + JsonNum(r.event_ms[k]);
    o += "], \"profile\": [";
    for (size_t k = 0; k < r.profile.size(); ++k) {
      const auto& sc = r.profile[k];
      o += std::string(k ? ", " : "") + "{\"scenario\": " + JsonStr(sc.name) +
           ", \"error\": " + JsonStr(sc.error) + ", \"lost\": " + std::to_string(sc.lost) +
           ", \"summary\": " + ipc::ProfileJson(sc.summary) + "}";
    }
    o += "]}";
  }
  return o + "\n  ]\n}\n";
}

}  // namespace strata::bench
