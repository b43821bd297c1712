#include "rtrmgr/sh/show_format.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace strata::rtrmgr::sh {
namespace {

// "2025-01-02T10:00:00Z" for seconds since the epoch.
std::string UtcTime(int64_t unix_seconds) {
  const auto t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

std::string ShowFormat::LogLines(const nlohmann::json& lines) {
  std::string out;
  for (const auto& l : lines) {
    const int64_t ns = l.value("unix_ns", int64_t{0});
    out += LocalTime(ns / 1000000) + " " + l.value("level", std::string("info")) + " [" +
           l.value("logger", std::string()) + "] " + l.value("text", std::string()) + "\n";
  }
  return out;
}

std::string ShowFormat::LocalTime(int64_t unix_ms) {
  const auto t = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  localtime_r(&t, &tm);
  char when[40];
  const size_t n = std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(when + n, sizeof when - n, ".%03d", static_cast<int>(unix_ms % 1000));
  return when;
}

namespace {

// A number the JSON form may give as a number or as a string (64-bit values).
int64_t Int(const nlohmann::json& v) {
  if (v.is_number()) return v.get<int64_t>();
  if (v.is_string()) return std::strtoll(v.get<std::string>().c_str(), nullptr, 10);
  return 0;
}

// "ROUTE_CHANGE_REPLACE" -> "replace".
std::string EnumWord(const nlohmann::json& v, const std::string& prefix) {
  std::string s = v.is_string() ? v.get<std::string>() : "";
  if (s.rfind(prefix, 0) == 0) s = s.substr(prefix.size());
  for (char& c : s) c = c == '_' ? '-' : static_cast<char>(std::tolower(c));
  return s.empty() ? "-" : s;
}

// A route that drops: "blackhole", "unreachable", "prohibit"; "" for unicast (or no type).
std::string DropWord(const nlohmann::json& route) {
  const nlohmann::json t = ShowFormat::At(route, "type");
  const std::string word = EnumWord(t, "ROUTE_TYPE_");
  return word == "-" || word == "unicast" || word == "unspecified" ? "" : word;
}

// The unspecified address stands for no gateway (an interface route).
bool NoAddress(const std::string& a) { return a.empty() || a == "0.0.0.0" || a == "::"; }

std::string Weight(const nlohmann::json& hop) {
  const uint64_t w = hop.value("weight", uint64_t{0});
  return w > 1 ? " (weight " + std::to_string(w) + ")" : "";
}

}  // namespace

std::string ShowFormat::MonitorRoute(const std::string& vr, const nlohmann::json& e) {
  const nlohmann::json r = e.value("route", nlohmann::json::object());
  const std::string change = EnumWord(At(e, "change"), "ROUTE_CHANGE_");
  std::string o = LocalTime(Int(At(e, "unix_ms"))) + " vr " + vr + " " + change + " " +
                  Cell(At(r, "prefix")) + " " + Cell(At(r, "protocol")) + " " + RibNextHop(r) +
                  ", distance " + Cell(At(r, "admin_distance")) + ", metric " +
                  Cell(At(r, "metric"));
  if (!r.value("not_installed", "").empty())
    o += ", NOT INSTALLED: " + Cell(At(r, "not_installed"));
  return o + "\n";
}

std::string ShowFormat::MonitorLost(const std::string& vr, uint64_t lost) {
  return "vr " + vr + ": " + std::to_string(lost) + " events lost (the monitor fell behind)\n";
}

std::string ShowFormat::Cell(const nlohmann::json& v) {
  if (v.is_null()) return "-";
  if (v.is_string()) return v.get<std::string>().empty() ? "-" : v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_array()) {
    std::string s;
    for (const auto& e : v) s += (s.empty() ? "" : ",") + Cell(e);
    return s.empty() ? "-" : s;
  }
  if (v.is_object() && v.size() == 1 && v.contains("address")) return Cell(v["address"]);
  // An interface address: ADDRESS/LEN.
  if (v.is_object() && v.size() == 2 && v.contains("address") && v.contains("prefix") &&
      v["prefix"].is_string()) {
    const std::string p = v["prefix"].get<std::string>();
    return Cell(v["address"]) + p.substr(p.find('/'));
  }
  return v.dump();
}

nlohmann::json ShowFormat::At(const nlohmann::json& row, const std::string& key) {
  const nlohmann::json* v = &row;
  size_t start = 0;
  while (true) {
    const auto dot = key.find('.', start);
    const std::string k = key.substr(start, dot == std::string::npos ? dot : dot - start);
    if (!v->is_object() || !v->contains(k)) return nullptr;
    v = &(*v)[k];
    if (dot == std::string::npos) return *v;
    start = dot + 1;
  }
}

ShowFormat::Column ShowFormat::Key(std::string header, std::string key) {
  return {std::move(header), [key](const nlohmann::json& row) { return Cell(At(row, key)); }};
}

std::string ShowFormat::Table(const nlohmann::json& rows, const std::vector<Column>& cols) {
  std::vector<std::vector<std::string>> cells(1);
  for (const Column& c : cols) cells[0].push_back(c.header);
  if (rows.is_array()) {
    for (const auto& r : rows) {
      std::vector<std::string> line;
      for (const Column& c : cols) line.push_back(c.cell(r));
      cells.push_back(std::move(line));
    }
  }
  std::vector<size_t> width(cols.size(), 0);
  for (const auto& l : cells) {
    for (size_t i = 0; i < l.size(); ++i) width[i] = std::max(width[i], l[i].size());
  }
  std::string out;
  for (const auto& l : cells) {
    std::string line;
    for (size_t i = 0; i < l.size(); ++i) {
      line += l[i];
      if (i + 1 < l.size()) line += std::string(width[i] - l[i].size() + 2, ' ');
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  return out;
}

std::string ShowFormat::Duration(uint64_t s) {
  char buf[32];
  const uint64_t d = s / 86400;
  const uint64_t h = s / 3600 % 24;
  const uint64_t m = s / 60 % 60;
  if (d == 0) {
    std::snprintf(buf, sizeof buf, "%02llu:%02llu:%02llu", static_cast<unsigned long long>(h),
                  static_cast<unsigned long long>(m), static_cast<unsigned long long>(s % 60));
  } else if (d < 7) {
    std::snprintf(buf, sizeof buf, "%llud%02lluh%02llum", static_cast<unsigned long long>(d),
                  static_cast<unsigned long long>(h), static_cast<unsigned long long>(m));
  } else {
    std::snprintf(buf, sizeof buf, "%lluw%llud%02lluh", static_cast<unsigned long long>(d / 7),
                  static_cast<unsigned long long>(d % 7), static_cast<unsigned long long>(h));
  }
  return buf;
}

std::string ShowFormat::RibNextHop(const nlohmann::json& r) {
  const std::string nh = r.value("nexthop", "");
  const std::string ifname = r.value("interface", "");
  const std::string resolved = r.value("resolved_nexthop", "");
  if (std::string drop = DropWord(r); !drop.empty()) return drop;
  std::string out;
  if (r.value("protocol", "") != "connected" && !NoAddress(nh)) out = nh;
  if (!resolved.empty() && resolved != nh) out += " (via " + resolved + ")";
  if (!ifname.empty()) out += (out.empty() ? "via " : " via ") + ifname;
  out += Weight(r);
  // Multipath: the other next hops, each as it resolved, with its weight.
  if (r.contains("multipath") && r["multipath"].is_array()) {
    for (const auto& m : r["multipath"]) {
      const std::string hop = m.value("nexthop", "");
      const std::string via = m.value("resolved_nexthop", "");
      out += ", " + hop;
      if (via.empty() && !resolved.empty()) {
        out += " (unresolved)";
      } else if (!via.empty() && via != hop) {
        out += " (via " + via + ")";
      }
      out += Weight(m);
    }
  }
  return out.empty() ? "-" : out;
}

std::string ShowFormat::FibNextHops(const nlohmann::json& route) {
  if (std::string drop = DropWord(route); !drop.empty()) return drop;
  const nlohmann::json hops = At(route, "nexthops");
  if (!hops.is_array() || hops.empty()) return "blackhole";
  std::string out;
  for (const auto& h : hops) {
    std::string one = h.value("address", "");
    const std::string ifname = h.value("interface", "");
    if (!ifname.empty()) one += (one.empty() ? "via " : " via ") + ifname;
    out += (out.empty() ? "" : ", ") + one + Weight(h);
  }
  return out;
}

std::string ShowFormat::Record(const nlohmann::json& rec) {
  std::string out;
  for (auto it = rec.begin(); it != rec.end(); ++it) out += it.key() + ": " + Cell(*it) + "\n";
  return out;
}

namespace {

nlohmann::json Rows(const nlohmann::json& reply, const char* key) {
  return reply.contains(key) ? reply[key] : nlohmann::json::array();
}

std::vector<ShowFormat::Column> RibColumns() {
  using F = ShowFormat;
  return {F::Key("PREFIX", "prefix"),
          F::Key("PROTOCOL", "protocol"),
          {"DIST/METRIC",
           [](const nlohmann::json& r) {
             return F::Cell(F::At(r, "admin_distance")) + "/" + F::Cell(F::At(r, "metric"));
           }},
          {"NEXT HOP", [](const nlohmann::json& r) { return F::RibNextHop(r); }},
          {"FLAGS", [](const nlohmann::json& r) {
             std::string flags = r.value("stale", false) ? "stale" : "";
             if (r.contains("multipath") && r["multipath"].is_array() && !r["multipath"].empty()) {
               flags += (flags.empty() ? "" : ", ") + std::string("multipath");
             }
             const std::string refused = r.value("not_installed", "");
             if (!refused.empty()) {
               flags += (flags.empty() ? "" : ", ") + std::string("NOT INSTALLED: ") + refused;
             }
             return flags;
           }}};
}

}  // namespace

std::string ShowFormat::Format(Op op, const nlohmann::json& reply) {
  switch (op) {
    case Op::kShowInterfaces:
      return Table(Rows(reply, "interfaces"),
                   {Key("NAME", "name"),
                    Key("INDEX", "ifindex"),
                    {"STATE",
                     [](const nlohmann::json& r) {
                       return std::string(r.value("up", false) ? "up" : "down");
                     }},
                    Key("MTU", "mtu"),
                    Key("VR", "vr"),
                    Key("ADDRESSES", "addresses")});
    case Op::kShowRoute:
      if (reply.contains("found")) {  // rib/1.0/lookup_route: the longest match
        if (!reply.value("found", false)) return "no route\n";
        return Table(nlohmann::json::array({reply["route"]}), RibColumns());
      }
      if (Rows(reply, "routes").empty()) return "no routes\n";  // not a bare header
      return Table(Rows(reply, "routes"), RibColumns());
    case Op::kShowBgpSummary:
      return BgpSummary(reply);
    case Op::kShowBgpNeighbor:
      return BgpNeighbors(reply);
    case Op::kShowBgpRoutes:  // explain_prefix (detail) or list_routes
      return reply.contains("best_reason") ? BgpRouteDetail(reply) : BgpRoutes(reply);
    case Op::kShowBgpReceivedRoutes:
    case Op::kShowBgpFilteredRoutes:
      return BgpPeerRoutes(reply);
    case Op::kShowBgpAdvertisedRoutes:
      return BgpAdvertisedRoutes(reply);
    case Op::kShowBgpDiscardedRoutes:
      return BgpDiscardedRoutes(reply);
    case Op::kShowBgpDampened:
      return Table(Rows(reply, "routes"),
                   {Key("PREFIX", "prefix"),
                    Key("PEER", "peer"),
                    Key("PENALTY", "penalty"),
                    Key("SUPPRESSED", "suppressed"),
                    {"REUSE IN",
                     [](const nlohmann::json& r) {
                       return r.value("suppressed", false)
                                  ? Duration(r.value("reuse_in_s", uint64_t{0}))
                                  : std::string("-");
                     }},
                    Key("FLAPS", "flaps"),
                    Key("WITHDRAWN", "withdrawn")});
    case Op::kShowBgpRpki:
      return BgpRpki(reply);
    case Op::kShowBfdSessions:
      return BfdSessions(reply);
    case Op::kShowFib:
      if (reply.contains("found")) {  // fea/1.0/lookup
        if (!reply.value("found", false)) return "no route\n";
        return Cell(reply["prefix"]) + " " + FibNextHops(reply) +
               (reply.value("protocol", "").empty() ? "" : " (" + Cell(reply["protocol"]) + ")") +
               "\n";
      } else {
        std::string head;
        if (reply.value("table_id", uint64_t{0}) != 0) {
          head = "kernel table " + Cell(reply["table_id"]) + "\n";
        }
        return head + Table(Rows(reply, "routes"),
                            {Key("PREFIX", "prefix"),
                             {"NEXT HOP", [](const nlohmann::json& r) { return FibNextHops(r); }},
                             Key("METRIC", "metric"),
                             Key("PROTOCOL", "protocol"),
                             Key("KERNEL", "in_kernel")});
      }
    case Op::kShowProcesses:
      return Table(Rows(reply, "processes"),
                   {Key("INSTANCE", "instance"),
                    Key("PID", "pid"),
                    Key("STATE", "state"),
                    Key("RESTARTS", "restarts"),
                    Key("LAST RESTART", "last_restart_reason"),
                    {"UPTIME",
                     [](const nlohmann::json& r) {
                       return r.value("state", "") == "running"
                                  ? Duration(r.value("uptime_s", uint64_t{0}))
                                  : std::string("-");
                     }},
                    Key("RSS KB", "rss_kb"),
                    Key("ADOPTED", "adopted")});
    case Op::kShowCommits: {
      std::string out =
          Table(Rows(reply, "commits"),
                {Key("INDEX", "index"), Key("REVISION", "revision"), Key("TIME", "time"),
                 Key("USER", "user"), Key("COMMENT", "comment")});
      if (reply.value("unconfirmed_revision", uint64_t{0}) != 0) {
        out += "revision " + std::to_string(reply.value("unconfirmed_revision", uint64_t{0})) +
               " is not confirmed: it rolls back to revision " +
               std::to_string(reply.value("rollback_revision", uint64_t{0})) + " at " +
               UtcTime(reply.value("rollback_at_unix", int64_t{0})) + " unless you commit\n";
      }
      return out;
    }
    case Op::kShowConfiguration:
      return reply.contains("config") ? reply["config"].get<std::string>() : "";
    case Op::kShowBgpStats:
      if (reply.contains("redistributed_routes")) {
        // [{protocol, routes}] as "static=2,connected=1".
        nlohmann::json rec = reply;
        std::string counts;
        for (const auto& c : reply["redistributed_routes"]) {
          counts +=
              (counts.empty() ? "" : ",") + Cell(At(c, "protocol")) + "=" + Cell(At(c, "routes"));
        }
        rec["redistributed_routes"] = counts;
        return Record(rec);
      }
      return Record(reply);
    default:
      return Record(reply);
  }
}

std::string ShowFormat::RibRouteDetail(const nlohmann::json& d) {
  if (d.value("prefix", "").empty()) return "no route\n";
  const nlohmann::json cands = d.value("candidates", nlohmann::json::array());
  if (cands.empty()) {
    return Cell(At(d, "prefix")) +
           ": in no origin table (a BGP route held back: show bgp route PREFIX detail)\n";
  }
  std::string o = Cell(At(d, "prefix")) + ": " + std::to_string(cands.size()) + " candidate(s)";
  if (d.contains("winner")) {
    const nlohmann::json& w = d["winner"];
    o += ", winner " + Cell(At(w, "protocol"));
    const std::string refused = w.value("not_installed", "");
    o += refused.empty() ? ", installed" : ", NOT INSTALLED: " + refused;
  } else {
    o += ", no winner";
  }
  o += "\n";
  auto line = [](const nlohmann::json& c) {
    return "  " + Cell(At(c, "protocol")) + ", distance " + Cell(At(c, "admin_distance")) +
           ", metric " + Cell(At(c, "metric")) + ", next hop " + RibNextHop(c) +
           (c.value("stale", false) ? " (stale)" : "") + "\n    " + Cell(At(c, "why")) + "\n";
  };
  for (const auto& c : cands) {
    if (c.value("why", "").starts_with("best")) o += line(c);
  }
  for (const auto& c : cands) {
    if (!c.value("why", "").starts_with("best")) o += line(c);
  }
  return o;
}

}  // namespace strata::rtrmgr::sh
