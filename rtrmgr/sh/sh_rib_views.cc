// ShSession's `show route DEST detail`: every candidate any origin table holds for the prefix
// (DEST, or an address's longest match), with its admin distance and why it won or lost, and
// whether the winner is installed. Composed of rib/1.0 calls: get_stats (the tables),
// list_routes per table within the prefix, lookup_prefix (the winner, installed or not).
// The RIB prefers the lower admin distance, then the lower metric, then the protocol name
// (rib/merge_stage.h); a candidate that would win by that order but is not the winner is an
// EGP route whose next hop does not resolve.
#include <tuple>

#include "rtrmgr/sh/sh_session.h"
#include "rtrmgr/sh/show_format.h"

namespace strata::rtrmgr::sh {
namespace {

std::string Family(const std::string& s) { return s.find(':') != std::string::npos ? "6" : "4"; }

uint64_t U(const nlohmann::json& r, const char* key) {
  const nlohmann::json v = ShowFormat::At(r, key);
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_string()) return std::strtoull(v.get<std::string>().c_str(), nullptr, 10);
  return 0;
}

auto Rank(const nlohmann::json& r) {
  return std::make_tuple(U(r, "admin_distance"), U(r, "metric"), r.value("protocol", ""));
}

// Why candidate `c` won or lost against `winner` (null: the prefix has none).
std::string Why(const nlohmann::json& c, const nlohmann::json& winner) {
  if (winner.is_null()) return "not usable: its next hop does not resolve";
  if (c.value("protocol", "") == winner.value("protocol", "")) {
    return "best: lowest admin distance, then metric";
  }
  if (Rank(c) < Rank(winner)) return "not usable: its next hop does not resolve";
  const std::string w = " (" + winner.value("protocol", "") + ")";
  if (U(c, "admin_distance") != U(winner, "admin_distance")) {
    return "lost: admin distance " + std::to_string(U(c, "admin_distance")) + " > " +
           std::to_string(U(winner, "admin_distance")) + w;
  }
  if (U(c, "metric") != U(winner, "metric")) {
    return "lost: metric " + std::to_string(U(c, "metric")) + " > " +
           std::to_string(U(winner, "metric")) + w;
  }
  return "lost: equal distance and metric, protocol name" + w;
}

}  // namespace

StatusOr<nlohmann::json> ShSession::RouteDetail(const std::string& vr, const std::string& dest) {
  const std::string rib = "finder://rib." + vr + "/rib/1.0/";
  std::string prefix = dest;
  if (dest.find('/') == std::string::npos) {  // an address: its longest match
    auto m = CallJson(rib + "lookup_route?addr:ipv" + Family(dest) + "=" + dest);
    if (!m.ok()) return m.status();
    if (!m->value("found", false)) return nlohmann::json{{"prefix", ""}};
    prefix = ShowFormat::Cell(ShowFormat::At(*m, "route.prefix"));
  }
  const std::string net = "ipv" + Family(prefix) + "net=" + prefix;
  auto stats = CallJson(rib + "get_stats");
  if (!stats.ok()) return stats.status();
  auto best = CallJson(rib + "lookup_prefix?prefix:" + net);
  if (!best.ok()) return best.status();
  nlohmann::json winner = best->value("found", false) ? (*best)["route"] : nlohmann::json(nullptr);
  nlohmann::json out = {{"prefix", prefix}, {"candidates", nlohmann::json::array()}};
  if (!winner.is_null()) out["winner"] = winner;
  for (const auto& t : stats->value("tables", nlohmann::json::array())) {
    const std::string protocol = t.value("protocol", "");
    auto routes = CallJson(rib + "list_routes?protocol:txt=" + protocol + "&within:" + net);
    if (interrupted_) return Status(StatusCode::kCancelled, "interrupted");
    if (!routes.ok()) return routes.status();
    for (auto r : routes->value("routes", nlohmann::json::array())) {
      if (r.value("prefix", "") != prefix) continue;  // a more specific one within it
      r["why"] = Why(r, winner);
      out["candidates"].push_back(std::move(r));
    }
  }
  return out;
}

int ShSession::ShowRouteDetail(const CommandMatch& m, bool json) {
  const std::string dest = m.get("dest");
  if (dest.empty()) return Fail(InvalidArgument("`detail` needs a prefix or an address"));
  std::vector<std::string> vrs = {m.get("vr")};
  if (vrs.front().empty()) {
    auto found = InstancesOf("rib");
    if (!found.ok()) return Fail(found.status());
    vrs = *found;
  }
  nlohmann::json all = nlohmann::json::object();
  int rc = 0;
  for (const std::string& v : vrs) {
    auto d = RouteDetail(v, dest);
    if (interrupted_) return 1;
    if (!d.ok()) {
      rc = Fail(Status(d.status().code(), "vr " + v + ": " + d.status().message()));
      continue;
    }
    if (json) {
      all[v] = std::move(*d);
    } else {
      Print((vrs.size() > 1 ? "vr " + v + ":\n" : "") + ShowFormat::RibRouteDetail(*d));
    }
  }
  if (json)
    Print((vrs.size() == 1 && all.contains(vrs.front()) ? all[vrs.front()] : all).dump(2) + "\n");
  return rc;
}

}  // namespace strata::rtrmgr::sh
