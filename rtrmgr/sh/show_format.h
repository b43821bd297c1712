// ShowFormat: the text form of operational replies: a table per listing, a block of labelled
// lines per record, durations as FRR prints them, next hops as "10.0.1.2 via veth0".
// Replies arrive as JSON (libipc/call/atoms_json.h), the same data `--json` prints, so the two
// forms cannot disagree; a field the reply lacks shows as "-". Stateless.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/json.h"
#include "rtrmgr/sh/op_commands.h"

namespace strata::rtrmgr::sh {

class ShowFormat {
 public:
  // The reply of `op` (one VR's, for per-VR commands).
  static std::string Format(Op op, const nlohmann::json& reply);

  struct Column {
    std::string header;
    std::function<std::string(const nlohmann::json& row)> cell;
  };
  static std::string Table(const nlohmann::json& rows, const std::vector<Column>& columns);
  // A column showing a key, or "a.b" into a nested object, as Cell does.
  static Column Key(std::string header, std::string key);
  // `show log`: one "TIME LEVEL [LOGGER] TEXT" line per log/1.0 line (local time, as the
  // processes write their logs).
  static std::string LogLines(const nlohmann::json& lines);
  // "2026-11-28T00:40:01.123", local time.
  static std::string LocalTime(int64_t unix_ms);
  // `monitor route`: one line per rib/1.0 watch_routes event ("TIME vr red add 10.9.0.0/24
  // static 192.0.2.1 via eth0, distance 1, metric 0").
  static std::string MonitorRoute(const std::string& vr, const nlohmann::json& event);
  // `monitor bgp updates`: one line per bgp/1.0 watch_updates event ("TIME vr red received
  // from 10.0.1.2: announce 10.20.0.0/24, AS path 65002, ..." / "sent to ...: withdraw ...").
  static std::string MonitorBgp(const std::string& vr, const nlohmann::json& event);
  // "vr red: 12 events lost (the monitor fell behind)".
  static std::string MonitorLost(const std::string& vr, uint64_t lost);
  // A value as one cell: strings bare, arrays joined by ',', objects compact, null "-".
  static std::string Cell(const nlohmann::json& value);
  // The value at `key` ("a.b" into nested objects), null if absent.
  static nlohmann::json At(const nlohmann::json& row, const std::string& key);

  // 42 -> "00:00:42", 90061 -> "1d01h01m", 694861 -> "1w1d01h" (FRR's forms).
  static std::string Duration(uint64_t seconds);
  // A RIB route's next hop: "10.0.1.2 via veth0", "via lo" (connected, or an interface route),
  // "10.9.9.9 (via 10.0.1.2) via veth0" (resolved recursively), "192.0.2.1 (weight 2),
  // 192.0.2.2" (multipath with weights), "blackhole", "unreachable", "prohibit".
  static std::string RibNextHop(const nlohmann::json& route);
  // A FIB route's (fea/1.0 Route, LookupReply) next hops: "10.0.1.2 via veth0, 10.0.2.2 via
  // veth1 (weight 2)"; "unreachable", "prohibit" by type; none: "blackhole".
  static std::string FibNextHops(const nlohmann::json& route);

  // `show route DEST detail` (ShSession::RouteDetail): a line per candidate, the winner first.
  static std::string RibRouteDetail(const nlohmann::json& detail);

  // BGP (show_format_bgp.cc).
  static std::string BgpSummary(const nlohmann::json& reply);
  static std::string BgpNeighbors(const nlohmann::json& reply);
  static std::string BgpRoutes(const nlohmann::json& reply);
  // list_rpki_caches: the totals, then one line per cache.
  static std::string BgpRpki(const nlohmann::json& reply);
  // bgp/1.0/list_peer_routes: received (with fate and reason) and advertised routes.
  static std::string BgpPeerRoutes(const nlohmann::json& reply);
  static std::string BgpAdvertisedRoutes(const nlohmann::json& reply);
  // The prefixes a peer sent that were not kept: when, which, what became of them and why.
  static std::string BgpDiscardedRoutes(const nlohmann::json& reply);
  // bgp/1.0/explain_prefix: a block per path.
  static std::string BgpRouteDetail(const nlohmann::json& reply);
  // bfd/1.0/list_sessions (show_format_bfd.cc): one line per session.
  static std::string BfdSessions(const nlohmann::json& reply);
  // A BGP next hop: the unspecified address (our own routes) as "self".
  static std::string BgpNextHop(const nlohmann::json& value);

 private:
  static std::string Record(const nlohmann::json& reply);
};

}  // namespace strata::rtrmgr::sh
