// ShSession's views of what became of BGP routes: a peer's received, filtered, advertised and
// discarded routes (bgp/1.0/list_peer_routes, fetched a page at a time) and `show bgp route PREFIX
// detail` (bgp/1.0/explain_prefix).
#include "rtrmgr/sh/sh_session.h"
#include "rtrmgr/sh/show_format.h"

namespace strata::rtrmgr::sh {
namespace {

std::string Family(const std::string& s) { return s.find(':') != std::string::npos ? "6" : "4"; }

std::string ViewOf(Op op) {
  switch (op) {
    case Op::kShowBgpFilteredRoutes:
      return "PEER_ROUTE_VIEW_REJECTED";
    case Op::kShowBgpAdvertisedRoutes:
      return "PEER_ROUTE_VIEW_ADVERTISED";
    case Op::kShowBgpDiscardedRoutes:
      return "PEER_ROUTE_VIEW_DISCARDED";
    default:
      return "PEER_ROUTE_VIEW_RECEIVED";
  }
}

}  // namespace

int ShSession::ShowPeerRoutes(const CommandMatch& m, Op op, bool json) {
  const std::string addr = m.get("address");
  const std::string prefix = m.get("prefix");
  auto vrs = VrsWithPeer(m.get("vr"), addr);
  if (!vrs.ok()) return Fail(vrs.status());
  nlohmann::json all = nlohmann::json::object();
  for (const std::string& v : *vrs) {
    nlohmann::json routes = nlohmann::json::array();
    std::string next;
    do {
      std::string t = "finder://bgp." + v + "/bgp/1.0/list_peer_routes?peer:ipv" + Family(addr) +
                      "=" + addr + "&view:txt=" + ViewOf(op);
      if (!prefix.empty()) t += "&prefix:ipv" + Family(prefix) + "net=" + prefix;
      if (!next.empty()) t += "&start_after:ipv" + Family(next) + "net=" + next;
      auto j = CallJson(t);
      if (interrupted_) return 1;
      if (!j.ok()) return Fail(Status(j.status().code(), "vr " + v + ": " + j.status().message()));
      for (auto& r : j->value("routes", nlohmann::json::array())) routes.push_back(std::move(r));
      next = j->value("next", "");
    } while (!next.empty());
    all[v] = {{"routes", std::move(routes)}};
  }
  const bool one = vrs->size() == 1;
  if (json) {
    Print((one ? all.begin().value() : all).dump(2) + "\n");
    return 0;
  }
  for (const auto& [v, reply] : all.items()) {
    Print((one ? "" : "vr " + v + ":\n") + ShowFormat::Format(op, reply));
  }
  return 0;
}

int ShSession::ShowBgpRoutes(const CommandMatch& m, bool json) {
  const std::string prefix = m.get("prefix");
  if (m.has("detail") && prefix.empty()) {
    return Fail(InvalidArgument("`detail` needs a PREFIX: show bgp route PREFIX detail"));
  }
  const std::string net = "?prefix:ipv" + Family(prefix) + "net=" + prefix;
  return ForEachVr("bgp", m.get("vr"), json, Op::kShowBgpRoutes, [&](const std::string& v) {
    std::string t =
        "finder://bgp." + v + "/bgp/1.0/" + (m.has("detail") ? "explain_prefix" : "list_routes");
    if (!prefix.empty()) t += net;
    return ipc::Xrl::Parse(t);
  });
}

}  // namespace strata::rtrmgr::sh
