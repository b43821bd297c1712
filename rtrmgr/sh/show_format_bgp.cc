// ShowFormat's BGP views: the summary table, the neighbour blocks, the route tables (the
// decision's, a peer's received and advertised routes), the per-path detail of a prefix.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>

#include "rtrmgr/sh/show_format.h"

namespace strata::rtrmgr::sh {
namespace {

using F = ShowFormat;

std::string Str(const nlohmann::json& r, const char* key) { return F::Cell(F::At(r, key)); }
uint64_t Num(const nlohmann::json& r, const char* key) {
  const nlohmann::json v = F::At(r, key);
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer()) return static_cast<uint64_t>(std::max<int64_t>(0, v.get<int64_t>()));
  if (v.is_string()) return std::strtoull(v.get<std::string>().c_str(), nullptr, 10);
  return 0;
}
bool Bool(const nlohmann::json& r, const char* key) { return r.value(key, false); }

// The policy in force, "(vr)" when inherited from the VR's bgp import / export.
std::string Policy(const nlohmann::json& p, const std::string& dir) {
  std::string cell = Str(p, (dir + "_policy").c_str());
  if (p.value(dir + "_policy_inherited", false)) cell += " (vr)";
  return cell;
}

std::string List(const nlohmann::json& v) {
  std::string s;
  if (v.is_array()) {
    for (const auto& e : v) s += (s.empty() ? "" : ", ") + F::Cell(e);
  }
  return s.empty() ? "none" : s;
}

std::string Neighbor(const nlohmann::json& p) {
  std::string o;
  o += "Peer " + Str(p, "peer") + ", AS " + Str(p, "peer_as") + " (" + Str(p, "peer_type") + ")";
  if (!p.value("description", "").empty()) o += ", \"" + Str(p, "description") + "\"";
  o += "\n";
  o += "  State: " + Str(p, "state");
  if (p.contains("uptime_s")) o += " for " + F::Duration(Num(p, "uptime_s"));
  if (!Bool(p, "enabled")) o += " (administratively disabled)";
  o += ", " + std::to_string(Num(p, "established_transitions")) + " established transition(s)\n";
  if (!p.value("last_error", "").empty()) o += "  Last error: " + Str(p, "last_error") + "\n";
  o += "  Router id " + Str(p, "remote_router_id") + ", local address " + Str(p, "local_address") +
       ", hold time " + Str(p, "hold_time") + " s\n";
  if (p.contains("other_family_next_hop")) {
    o += "  Next hop for the other family's routes: " + Str(p, "other_family_next_hop") + "\n";
  }
  if (p.contains("bfd")) {
    o += "  BFD: " + Str(p, "bfd") + "\n";
  }
  o += "  Families: " + List(F::At(p, "families")) + "\n";
  o += "  Capabilities: " + List(F::At(p, "capabilities")) + "\n";
  o += "  Policies: import " + Policy(p, "import") + ", export " + Policy(p, "export") + "\n";
  if (!p.value("group", "").empty()) o += "  Group: " + Str(p, "group") + "\n";
  std::string as_path;
  if (Num(p, "local_as") != 0) as_path += ", local-as " + Str(p, "local_as");
  if (Num(p, "allowas_in") != 0) as_path += ", allowas-in " + Str(p, "allowas_in");
  if (!p.value("remove_private_as", "").empty()) {
    as_path += ", remove-private-as " + Str(p, "remove_private_as");
  }
  if (Bool(p, "default_originate")) as_path += ", default-originate";
  if (!as_path.empty()) o += "  Options: " + as_path.substr(2) + "\n";
  o += "  Prefixes: " + std::to_string(Num(p, "prefixes_received")) + " received, " +
       std::to_string(Num(p, "prefixes_accepted")) + " accepted, " +
       std::to_string(Num(p, "prefixes_advertised")) + " advertised\n";
  o += "  Messages: " + std::to_string(Num(p, "messages_in")) + " in (" +
       std::to_string(Num(p, "updates_in")) + " UPDATEs), " +
       std::to_string(Num(p, "messages_out")) + " out (" + std::to_string(Num(p, "updates_out")) +
       " UPDATEs)\n";
  o += "  Dropped: " + std::to_string(Num(p, "malformed_updates")) +
       " malformed UPDATEs (RFC 7606), " + std::to_string(Num(p, "first_as_violations")) +
       " first-AS violations, " + std::to_string(Num(p, "originator_id_loops")) +
       " ORIGINATOR_ID loops, " + std::to_string(Num(p, "cluster_list_loops")) +
       " CLUSTER_LIST loops, " + std::to_string(Num(p, "as_loops")) + " AS loops\n";
  if (Bool(p, "max_prefixes_exceeded")) {
    o += "  Maximum prefixes exceeded: session down until its restart timer, a reset or enable\n";
  }
  if (Bool(p, "route_reflector_client")) o += "  Route reflector client\n";
  o += "  Graceful restart: ";
  if (!Bool(p, "graceful_restart_configured")) {
    o += "off";
  } else {
    o += Bool(p, "graceful_restart") ? "negotiated" : "not negotiated";
    o += ", peer restart time " + Str(p, "peer_restart_time") + " s";
  }
  if (Bool(p, "peer_restarting")) o += "; peer restarting";
  if (Num(p, "stale_routes") != 0) o += "; " + std::to_string(Num(p, "stale_routes")) + " stale";
  o += "\n";
  if (Num(p, "long_lived_stale_time") != 0) {
    o += "  Long-lived graceful restart: " + Str(p, "long_lived_stale_time") + " s, " +
         (Bool(p, "long_lived_graceful_restart") ? "negotiated" : "not negotiated");
    if (Num(p, "llgr_stale_routes") != 0) {
      o += "; " + std::to_string(Num(p, "llgr_stale_routes")) + " LLGR-stale";
    }
    if (p.contains("llgr_time_left")) o += ", " + F::Duration(Num(p, "llgr_time_left")) + " left";
    o += "\n";
  }
  if (Bool(p, "output_deferred")) {
    o += "  Output deferred (our graceful restart): " + Str(p, "output_deferred_routes") +
         " routes held\n";
  }
  o += "  End-of-RIB received: " + List(F::At(p, "end_of_rib_received")) + "\n";
  return o;
}

// "ROUTE_FATE_NEXTHOP_UNRESOLVED" -> "nexthop-unresolved".
std::string FateName(const nlohmann::json& r) {
  std::string f = r.value("fate", "");
  if (f.rfind("ROUTE_FATE_", 0) == 0) f = f.substr(11);
  for (char& c : f) c = c == '_' ? '-' : static_cast<char>(std::tolower(c));
  return f.empty() ? "-" : f;
}

std::string AsPath(const nlohmann::json& r) {
  return r.value("as_path", "").empty() ? std::string("(empty)") : Str(r, "as_path");
}

// A route's attributes on one line: "AS path 65002, origin igp, next hop 10.0.0.2, local
// pref 100, MED 5, communities 65002:1".
std::string Attributes(const nlohmann::json& r) {
  std::string o = "AS path " + AsPath(r) + ", origin " + Str(r, "origin") + ", next hop " +
                  F::BgpNextHop(F::At(r, "nexthop"));
  if (r.contains("local_pref")) o += ", local pref " + Str(r, "local_pref");
  if (r.contains("med")) o += ", MED " + Str(r, "med");
  for (const char* key : {"communities", "large_communities", "ext_communities"}) {
    const nlohmann::json v = F::At(r, key);
    if (v.is_array() && !v.empty()) {
      std::string name = key;
      for (char& c : name) c = c == '_' ? ' ' : c;
      o += ", " + name + " " + List(v);
    }
  }
  if (r.contains("originator_id")) o += ", originator " + Str(r, "originator_id");
  if (r.contains("rpki")) o += ", RPKI " + Str(r, "rpki");
  return o;
}

}  // namespace

std::string ShowFormat::BgpNextHop(const nlohmann::json& v) {
  if (!v.is_string()) return Cell(v);
  const std::string s = v.get<std::string>();
  return s == "0.0.0.0" || s == "::" ? "self" : s;
}

std::string ShowFormat::BgpSummary(const nlohmann::json& reply) {
  const nlohmann::json rows = reply.contains("peers") ? reply["peers"] : nlohmann::json::array();
  return Table(rows, {Key("PEER", "peer"),
                      Key("AS", "peer_as"),
                      Key("GROUP", "group"),
                      Key("STATE", "state"),
                      {"UP/DOWN",
                       [](const nlohmann::json& r) {
                         return r.contains("uptime_s") ? Duration(Num(r, "uptime_s"))
                                                       : std::string("-");
                       }},
                      Key("RCVD", "prefixes_received"),
                      Key("ACCEPTED", "prefixes_accepted"),
                      Key("SENT", "prefixes_advertised"),
                      {"IMPORT", [](const nlohmann::json& r) { return Policy(r, "import"); }},
                      {"EXPORT", [](const nlohmann::json& r) { return Policy(r, "export"); }},
                      Key("DESCRIPTION", "description")});
}

std::string ShowFormat::BgpNeighbors(const nlohmann::json& reply) {
  if (!reply.contains("peers") || reply["peers"].empty()) return "no such neighbour\n";
  std::string out;
  for (const auto& p : reply["peers"]) out += (out.empty() ? "" : "\n") + Neighbor(p);
  return out;
}

std::string ShowFormat::BgpRoutes(const nlohmann::json& reply) {
  const nlohmann::json rows = reply.contains("routes") ? reply["routes"] : nlohmann::json::array();
  std::string out = Table(
      rows,
      {{"", [](const nlohmann::json& r) { return std::string(Bool(r, "best") ? "*>" : "*"); }},
       Key("PREFIX", "prefix"),
       {"PEER",
        [](const nlohmann::json& r) {
          return r.contains("peer") ? Str(r, "peer") : std::string("local");
        }},
       {"NEXT HOP", [](const nlohmann::json& r) { return BgpNextHop(At(r, "nexthop")); }},
       {"AS PATH",
        [](const nlohmann::json& r) {
          return r.value("as_path", "").empty() ? std::string("(empty)") : Str(r, "as_path");
        }},
       Key("ORIGIN", "origin"),
       Key("LOCAL PREF", "local_pref"),
       Key("MED", "med"),
       Key("RPKI", "rpki"),
       {"WHY BEST", [](const nlohmann::json& r) {
          return Bool(r, "best") ? Str(r, "reason") : std::string("");
        }}});
  if (reply.value("truncated", false)) out += "(truncated)\n";
  return out;
}

std::string ShowFormat::BgpRpki(const nlohmann::json& reply) {
  if (!reply.value("enabled", false)) return "RPKI origin validation is off (no cache)\n";
  auto n = [&](const char* key) {
    return reply.contains(key) ? Str(reply, key) : std::string("0");
  };
  std::string out = "VRPs: " + n("vrps_v4") + " IPv4, " + n("vrps_v6") + " IPv6; refresh " +
                    n("refresh_s") + " s, retry " + n("retry_s") + " s, expire " + n("expire_s") +
                    " s\nRe-validation: " + n("revalidation_walks") + " VRP prefixes walked, " +
                    n("revalidated_routes") + " routes changed state, " +
                    n("revalidation_pending") + " pending\n";
  const nlohmann::json rows = reply.contains("caches") ? reply["caches"] : nlohmann::json::array();
  return out +
         Table(rows, {Key("CACHE", "cache.address"), Key("PORT", "cache.port"),
                      Key("PREF", "cache.preference"), Key("STATE", "state"),
                      Key("IN USE", "group_active"), Key("VRPS", "vrps"), Key("UPDATES", "updates"),
                      Key("SERIAL", "serial"), Key("VERSION", "version")});
}

std::string ShowFormat::BgpPeerRoutes(const nlohmann::json& reply) {
  const nlohmann::json rows = reply.contains("routes") ? reply["routes"] : nlohmann::json::array();
  if (rows.empty()) return "no routes\n";
  return Table(
      rows,
      {Key("PREFIX", "route.prefix"),
       {"NEXT HOP", [](const nlohmann::json& r) { return BgpNextHop(At(r, "route.nexthop")); }},
       {"AS PATH", [](const nlohmann::json& r) { return AsPath(r["route"]); }},
       {"FATE",
        [](const nlohmann::json& r) { return FateName(r) + (Bool(r, "stale") ? " (stale)" : ""); }},
       Key("WHY", "reason")});
}

std::string ShowFormat::BgpAdvertisedRoutes(const nlohmann::json& reply) {
  const nlohmann::json rows = reply.contains("routes") ? reply["routes"] : nlohmann::json::array();
  if (rows.empty()) return "no routes\n";
  return Table(rows, {Key("PREFIX", "route.prefix"),
                      {"NEXT HOP",
                       [](const nlohmann::json& r) { return BgpNextHop(At(r, "route.nexthop")); }},
                      {"AS PATH", [](const nlohmann::json& r) { return AsPath(r["route"]); }},
                      Key("ORIGIN", "route.origin"),
                      Key("LOCAL PREF", "route.local_pref"),
                      Key("MED", "route.med"),
                      {"COMMUNITIES", [](const nlohmann::json& r) {
                         const nlohmann::json c = At(r, "route.communities");
                         return c.is_array() && !c.empty() ? List(c) : std::string("");
                       }}});
}

std::string ShowFormat::BgpDiscardedRoutes(const nlohmann::json& reply) {
  const nlohmann::json rows = reply.contains("routes") ? reply["routes"] : nlohmann::json::array();
  if (rows.empty()) return "no routes discarded\n";
  return Table(
      rows,
      {{"TIME",
        [](const nlohmann::json& r) { return LocalTime(static_cast<int64_t>(Num(r, "unix_ms"))); }},
       Key("PREFIX", "route.prefix"),
       {"FATE", [](const nlohmann::json& r) { return FateName(r); }},
       Key("WHY", "reason")});
}

std::string ShowFormat::BgpRouteDetail(const nlohmann::json& reply) {
  const nlohmann::json paths = reply.contains("paths") ? reply["paths"] : nlohmann::json::array();
  if (paths.empty()) return "no path for the prefix\n";
  const std::string prefix = Str(paths[0], "route.prefix");
  std::string o = prefix + ": " + std::to_string(paths.size()) + " path(s)";
  if (!reply.value("best_reason", "").empty()) o += ", best by " + Str(reply, "best_reason");
  o += "\n";
  for (const auto& p : paths) {
    const nlohmann::json& r = p["route"];
    const std::string from = r.contains("peer") ? "peer " + Str(r, "peer") : std::string("local");
    o += "  From " + from + ": " + FateName(p) + (Bool(p, "stale") ? " (stale)" : "") + "\n";
    o += "    Received: " + Attributes(r) + "\n";
    if (p.contains("accepted")) {
      const std::string after = Attributes(p["accepted"]);
      if (after != Attributes(r)) o += "    After import policy: " + after + "\n";
      if (p["accepted"].contains("igp_metric") && Num(p["accepted"], "igp_metric") != 0) {
        o += "    IGP metric to the next hop: " + Str(p["accepted"], "igp_metric") + "\n";
      }
    }
    o += "    Why: " + Str(p, "reason") + "\n";
  }
  return o;
}

std::string ShowFormat::MonitorBgp(const std::string& vr, const nlohmann::json& e) {
  const nlohmann::json r = e.value("route", nlohmann::json::object());
  const bool sent = e.value("direction", "") == "UPDATE_DIRECTION_SENT";
  const nlohmann::json ms = At(e, "unix_ms");
  std::string o =
      LocalTime(ms.is_number() ? ms.get<int64_t>() : std::strtoll(Cell(ms).c_str(), nullptr, 10)) +
      " vr " + vr + (sent ? " sent to " : " received from ") + Str(e, "peer") + ": ";
  if (e.value("withdraw", false)) return o + "withdraw " + Str(r, "prefix") + "\n";
  return o + "announce " + Str(r, "prefix") + ", " + Attributes(r) + "\n";
}

}  // namespace strata::rtrmgr::sh
