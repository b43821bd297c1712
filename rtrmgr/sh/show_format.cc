#include "rtrmgr/sh/show_format.h"

#include <algorithm>

namespace strata::rtrmgr::sh {

std::string ShowFormat::Cell(const nlohmann::json& v) {
  if (v.is_null()) return "-";
  if (v.is_string()) return v.get<std::string>().empty() ? "-" : v.get<std::string>();
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

std::string ShowFormat::Table(const nlohmann::json& rows, const std::vector<std::string>& cols) {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> head;
  for (const auto& c : cols) {
    std::string h = c.substr(c.rfind('.') + 1);
    std::transform(h.begin(), h.end(), h.begin(), [](char ch) {
      return ch == '_' ? ' ' : static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    });
    head.push_back(h);
  }
  cells.push_back(head);
  if (rows.is_array()) {
    for (const auto& r : rows) {
      std::vector<std::string> line;
      for (const auto& c : cols) {
        const nlohmann::json* v = &r;
        size_t start = 0;
        while (v != nullptr && start <= c.size()) {
          const auto dot = c.find('.', start);
          const std::string key = c.substr(start, dot == std::string::npos ? dot : dot - start);
          v = v->is_object() && v->contains(key) ? &(*v)[key] : nullptr;
          if (dot == std::string::npos) break;
          start = dot + 1;
        }
        line.push_back(v != nullptr ? Cell(*v) : "-");
      }
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
    out += line + "\n";
  }
  return out;
}

std::string ShowFormat::Format(ShowRequest::Kind kind, const nlohmann::json& reply) {
  using K = ShowRequest::Kind;
  auto rows = [&](const char* key) {
    return reply.contains(key) ? reply[key] : nlohmann::json::array();
  };
  switch (kind) {
    case K::kInterfaces:
      return Table(rows("interfaces"), {"name", "ifindex", "up", "mtu", "vr", "addresses"});
    case K::kRoute:
      return Table(rows("routes"), {"prefix", "protocol", "nexthop", "metric", "admin_distance",
                                    "interface", "best"});
    case K::kBgpSummary: {
      // The policy in force, "(vr)" when inherited from the VR's bgp import / export.
      nlohmann::json peers = rows("peers");
      for (auto& p : peers) {
        for (const char* dir : {"import", "export"}) {
          const std::string key = std::string(dir) + "_policy";
          std::string cell = p.contains(key) ? p[key].get<std::string>() : "";
          if (p.value(key + "_inherited", false)) cell += " (vr)";
          p[dir] = cell;
        }
      }
      return Table(
          peers, {"peer", "peer_as", "state", "uptime_s", "prefixes_received", "prefixes_accepted",
                  "prefixes_advertised", "import", "export", "description"});
    }
    case K::kBgpRoutes:
      return Table(rows("routes"), {"prefix", "peer", "nexthop", "as_path", "local_pref", "med",
                                    "best", "accepted", "reason"});
    case K::kBgpDampened:
      return Table(rows("routes"),
                   {"prefix", "peer", "penalty", "suppressed", "reuse_in_s", "flaps", "withdrawn"});
    case K::kFib:
      return Table(rows("routes"), {"prefix", "nexthops", "metric"});
    case K::kProcesses:
      return Table(rows("processes"), {"instance", "pid", "state", "restarts",
                                       "last_restart_reason", "uptime_s", "rss_kb", "adopted"});
    case K::kCommits:
      return Table(rows("commits"), {"index", "revision", "time", "user", "comment"});
    case K::kConfiguration:
      return reply.contains("config") ? reply["config"].get<std::string>() : "";
    case K::kBgpNeighbor:
    case K::kBgpStats:
    case K::kFibLookup:
    case K::kFibStats:
      break;
  }
  // One record (or a reply with a single list of one): "key: value" lines.
  nlohmann::json rec = reply;
  if (kind == K::kBgpNeighbor) {
    rec = reply.contains("peers") && !reply["peers"].empty() ? reply["peers"][0]
                                                             : nlohmann::json::object();
    if (rec.empty()) return "no such neighbour\n";
  }
  if (kind == K::kBgpStats && rec.contains("redistributed_routes")) {
    // [{protocol, routes}] as "static=2,connected=1".
    std::string counts;
    for (const auto& c : rec["redistributed_routes"]) {
      counts += (counts.empty() ? "" : ",") + Cell(c.value("protocol", nlohmann::json())) + "=" +
                Cell(c.value("routes", nlohmann::json(0)));
    }
    rec["redistributed_routes"] = counts;
  }
  std::string out;
  for (auto it = rec.begin(); it != rec.end(); ++it) out += it.key() + ": " + Cell(*it) + "\n";
  return out;
}

}  // namespace strata::rtrmgr::sh
