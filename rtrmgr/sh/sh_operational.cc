// ShSession's operational commands: show, clear, enable / disable, configure, exit, help.
#include <sys/utsname.h>
#include <unistd.h>

#include <map>
#include <set>

#include "common/version.h"
#include "libipc/call/atoms_json.h"
#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/sh/sh_session.h"
#include "rtrmgr/sh/show_format.h"

namespace strata::rtrmgr::sh {
namespace {

std::string NetType(const std::string& s) {
  return s.find(':') != std::string::npos ? "ipv6net" : "ipv4net";
}
std::string AddrType(const std::string& s) {
  return s.find(':') != std::string::npos ? "ipv6" : "ipv4";
}
bool IsPrefix(const std::string& s) { return s.find('/') != std::string::npos; }

}  // namespace

int ShSession::ForEachVr(const std::string& cls, const std::string& vr, bool json, Op op,
                         const XrlFor& xrl_for) {
  std::vector<std::string> vrs = {vr};
  if (vr.empty()) {
    auto found = InstancesOf(cls);
    if (!found.ok()) return Fail(found.status());
    vrs = *found;
    if (vrs.empty()) return Fail(NotFound("no virtual router runs " + cls));
  }
  nlohmann::json all = nlohmann::json::object();
  int rc = 0;
  for (const auto& v : vrs) {
    auto xrl = xrl_for(v);
    if (!xrl.ok()) return Fail(xrl.status());
    auto r = CallXrl(*xrl);
    if (interrupted_) return 1;
    if (!r.status.ok()) {
      rc = Fail(Status(r.status.code(), "vr " + v + ": " + r.status.message()));
      continue;
    }
    nlohmann::json j = ipc::AtomsToJson(r.atoms);
    if (vr.empty()) {
      all[v] = j;
      if (!json) Print("vr " + v + ":\n" + ShowFormat::Format(op, j));
    } else if (json) {
      Print(j.dump(2) + "\n");
    } else {
      Print(ShowFormat::Format(op, j));
    }
  }
  if (json && vr.empty()) Print(all.dump(2) + "\n");
  return rc;
}

// One call, no VR.
int ShSession::Operational(const CommandMatch& m, bool json) {
  const Op op = static_cast<Op>(m.id);
  const std::string vr = m.get("vr");
  auto single = [&](const std::string& text) {
    auto j = CallJson(text);
    if (!j.ok()) return Fail(j.status());
    Print(json ? j->dump(2) + "\n" : ShowFormat::Format(op, *j));
    return 0;
  };
  switch (op) {
    case Op::kShowInterfaces:
      return single("finder://fea/fea/1.0/list_interfaces");
    case Op::kShowFibStats:
      return single("finder://fea/fea/1.0/get_stats");
    case Op::kShowBfdSessions:
      return single("finder://bfd/bfd/1.0/list_sessions");
    case Op::kShowProcesses:
      return single("finder://rtrmgr/rtrmgr/1.0/list_processes");
    case Op::kShowCommits:
      return single("finder://rtrmgr/rtrmgr/1.0/list_commits");
    case Op::kShowVersion:
      return ShowVersion(json);
    case Op::kShowLog:
      return ShowLog(m, json);
    case Op::kShowConfiguration: {
      if (!m.has("path")) return single("finder://rtrmgr/rtrmgr/1.0/get_config");
      auto words = ConfigEditor::SplitWords(m.get("path"));
      if (!words.ok()) return Fail(words.status());
      auto j = CallJson("finder://rtrmgr/rtrmgr/1.0/get_config");
      if (!j.ok()) return Fail(j.status());
      auto tree = ConfigParser::Parse(j->value("config", ""), "running");
      if (!tree.ok()) return Fail(tree.status());
      if (json) {
        Print(j->dump(2) + "\n");
        return 0;
      }
      return ShowConfig(*tree, *words, false);
    }
    case Op::kShowRoute: {
      if (m.has("detail")) return ShowRouteDetail(m, json);
      const std::string dest = m.get("dest");
      return ForEachVr("rib", vr, json, op, [&](const std::string& v) {
        if (dest.empty()) return ipc::Xrl::Parse("finder://rib." + v + "/rib/1.0/list_routes");
        if (IsPrefix(dest)) {
          return ipc::Xrl::Parse("finder://rib." + v +
                                 "/rib/1.0/list_routes?within:" + NetType(dest) + "=" + dest);
        }
        return ipc::Xrl::Parse("finder://rib." + v +
                               "/rib/1.0/lookup_route?addr:" + AddrType(dest) + "=" + dest);
      });
    }
    case Op::kShowFib: {
      const std::string addr = m.get("address");
      return ForEachVr("rib", vr, json, op, [&](const std::string& v) {
        if (addr.empty()) return ipc::Xrl::Parse("finder://fea/fea/1.0/list_routes?vr:txt=" + v);
        return ipc::Xrl::Parse("finder://fea/fea/1.0/lookup?vr:txt=" + v +
                               "&address:" + AddrType(addr) + "=" + addr);
      });
    }
    case Op::kShowBgpSummary:
      return ForEachVr("bgp", vr, json, op, [&](const std::string& v) {
        return ipc::Xrl::Parse("finder://bgp." + v + "/bgp/1.0/list_peers");
      });
    case Op::kShowBgpNeighbor: {
      const std::string addr = m.get("address");
      std::string only = vr;
      if (!addr.empty() && only.empty()) {
        // A peer lives in one VR: show it there rather than "no such neighbour" elsewhere.
        auto vrs = VrsWithPeer("", addr);
        if (!vrs.ok()) return Fail(vrs.status());
        if (vrs->size() == 1) only = vrs->front();
      }
      return ForEachVr("bgp", only, json, op, [&](const std::string& v) {
        std::string t = "finder://bgp." + v + "/bgp/1.0/list_peers";
        if (!addr.empty()) t += "?peer:" + AddrType(addr) + "=" + addr;
        return ipc::Xrl::Parse(t);
      });
    }
    case Op::kShowBgpRoutes:
      return ShowBgpRoutes(m, json);
    case Op::kShowBgpReceivedRoutes:
    case Op::kShowBgpFilteredRoutes:
    case Op::kShowBgpAdvertisedRoutes:
    case Op::kShowBgpDiscardedRoutes:
      return ShowPeerRoutes(m, op, json);
    case Op::kShowBgpDampened: {
      const std::string prefix = m.get("prefix");
      return ForEachVr("bgp", vr, json, op, [&](const std::string& v) {
        std::string t = "finder://bgp." + v + "/bgp/1.0/list_damped_routes";
        if (!prefix.empty()) t += "?prefix:" + NetType(prefix) + "=" + prefix;
        return ipc::Xrl::Parse(t);
      });
    }
    case Op::kShowBgpStats:
      return ForEachVr("bgp", vr, json, op, [&](const std::string& v) {
        return ipc::Xrl::Parse("finder://bgp." + v + "/bgp/1.0/get_stats");
      });
    case Op::kShowBgpRpki:
      return ForEachVr("bgp", vr, json, op, [&](const std::string& v) {
        return ipc::Xrl::Parse("finder://bgp." + v + "/bgp/1.0/list_rpki_caches");
      });
    case Op::kClearBgpNeighbor:
    case Op::kEnableBgpNeighbor:
    case Op::kDisableBgpNeighbor:
      return BgpPeerAction(m, op);
    case Op::kClearBgpDamping: {
      const std::string prefix = m.get("prefix");
      const std::string peer = m.get("address");
      std::string only = vr;
      if (!peer.empty()) {
        auto vrs = VrsWithPeer(vr, peer);
        if (!vrs.ok()) return Fail(vrs.status());
        if (vrs->size() == 1) only = vrs->front();
      }
      return ForEachVr("bgp", only, json, op, [&](const std::string& v) {
        std::string t = "finder://bgp." + v + "/bgp/1.0/clear_damping";
        std::string sep = "?";
        if (!prefix.empty()) {
          t += sep + "prefix:" + NetType(prefix) + "=" + prefix;
          sep = "&";
        }
        if (!peer.empty()) t += sep + "peer:" + AddrType(peer) + "=" + peer;
        return ipc::Xrl::Parse(t);
      });
    }
    case Op::kMonitorRoute:
    case Op::kMonitorBgpUpdates:
      return Monitor(m, op, json);
    case Op::kConfigure:
      return Configure();
    case Op::kExit:
      exit_ = true;
      return 0;
    case Op::kHelp:
      Print(
          "Operational mode. Commands (each word may be abbreviated, e.g. `sh bgp sum`):\n"
          "  show ...        the router's state (`show ?` lists what)\n"
          "  clear ...       reset BGP sessions, release damped routes\n"
          "  enable/disable bgp neighbor ADDRESS\n"
          "  monitor ...     watch route changes and BGP UPDATEs as they happen\n"
          "  configure       enter configuration mode\n"
          "  exit            leave the shell\n"
          "End a line with ? for what may follow; pipe output through `| match REGEX`,\n"
          "`| except REGEX`, `| count`, `| json` (or --json). Ctrl-C stops a command.\n");
      return 0;
    default:
      return Fail(Internal("command not handled in operational mode"));
  }
}

StatusOr<std::vector<std::string>> ShSession::VrsWithPeer(const std::string& vr,
                                                          const std::string& addr) {
  std::vector<std::string> vrs = {vr};
  if (vr.empty()) {
    auto found = InstancesOf("bgp");
    if (!found.ok()) return found.status();
    vrs = *found;
  }
  std::vector<std::string> out;
  for (const std::string& v : vrs) {
    auto j =
        CallJson("finder://bgp." + v + "/bgp/1.0/list_peers?peer:" + AddrType(addr) + "=" + addr);
    if (j.ok()) {
      out.push_back(v);
    } else if (j.status().code() != StatusCode::kNotFound || !vr.empty()) {
      return Status(j.status().code(), "vr " + v + ": " + j.status().message());
    }
  }
  if (out.empty()) return NotFound("no BGP peer " + addr + (vr.empty() ? "" : " in vr " + vr));
  return out;
}

int ShSession::BgpPeerAction(const CommandMatch& m, Op op) {
  const std::string vr = m.get("vr");
  // The (vr, peer) pairs to act on.
  std::vector<std::pair<std::string, std::string>> targets;
  if (m.has("address")) {
    auto vrs = VrsWithPeer(vr, m.get("address"));
    if (!vrs.ok()) return Fail(vrs.status());
    for (const std::string& v : *vrs) targets.emplace_back(v, m.get("address"));
  } else {
    std::vector<std::string> vrs = {vr};
    if (vr.empty()) {
      auto found = InstancesOf("bgp");
      if (!found.ok()) return Fail(found.status());
      vrs = *found;
    }
    for (const std::string& v : vrs) {
      auto j = CallJson("finder://bgp." + v + "/bgp/1.0/list_peers");
      if (!j.ok()) return Fail(j.status());
      for (const auto& p : j->value("peers", nlohmann::json::array())) {
        targets.emplace_back(v, p.value("peer", ""));
      }
    }
  }
  std::string method = op == Op::kEnableBgpNeighbor    ? "enable_peer"
                       : op == Op::kDisableBgpNeighbor ? "disable_peer"
                       : m.has("soft")                 ? "soft_reset_peer"
                                                       : "reset_peer";
  std::string done = op == Op::kEnableBgpNeighbor    ? "enabled"
                     : op == Op::kDisableBgpNeighbor ? "disabled"
                     : m.has("soft")                 ? "soft reset"
                                                     : "reset";
  std::string extra;
  if (m.has("soft")) {
    const std::string dir = m.get("soft").empty() ? "both" : m.get("soft");
    extra = "&direction:txt=" + dir;
    done += " (" + dir + ")";
  }
  int rc = 0;
  for (const auto& [v, peer] : targets) {
    auto j = CallJson("finder://bgp." + v + "/bgp/1.0/" + method + "?peer:" + AddrType(peer) + "=" +
                      peer + extra);
    if (interrupted_) return 1;
    if (!j.ok()) {
      rc = Fail(
          Status(j.status().code(), "vr " + v + " peer " + peer + ": " + j.status().message()));
      continue;
    }
    Print("vr " + v + " peer " + peer + ": " + done + "\n");
  }
  if (targets.empty()) Print("no BGP peers\n");
  return rc;
}

int ShSession::ShowVersion(bool json) {
  const BuildInfo& b = Build();
  nlohmann::json j = {{"version", b.version},
                      {"git", b.git},
                      {"build_type", b.build_type},
                      {"compiler", b.compiler},
                      {"built", b.date}};
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) j["hostname"] = host;
  struct utsname u {};
  if (::uname(&u) == 0) j["kernel"] = std::string(u.sysname) + " " + u.release;
  // The router's processes, as the rtrmgr supervises them.
  auto procs = CallJson("finder://rtrmgr/rtrmgr/1.0/list_processes");
  std::map<std::string, int> states;
  if (procs.ok()) {
    for (const auto& p : procs->value("processes", nlohmann::json::array())) {
      ++states[p.value("state", "")];
    }
    j["processes"] = states;
  }
  if (json) {
    Print(j.dump(2) + "\n");
    return 0;
  }
  std::string t = "Strata " + std::string(b.version) + " (git " + b.git + ")\n";
  t += "Built " + std::string(b.date) + ", " + b.compiler + ", " + b.build_type + "\n";
  if (j.contains("hostname")) t += "Host " + j["hostname"].get<std::string>();
  if (j.contains("kernel")) t += ", " + j["kernel"].get<std::string>();
  t += "\n";
  if (procs.ok()) {
    std::string counts;
    for (const auto& [state, n] : states) {
      counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + state;
    }
    t += "Processes: " + (counts.empty() ? std::string("none") : counts) + " (show processes)\n";
  } else {
    t += "Router: not reachable (" + procs.status().message() + ")\n";
  }
  Print(t);
  return 0;
}

}  // namespace strata::rtrmgr::sh
