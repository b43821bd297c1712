#include "testing/interop/frr_speaker.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/json.h"

namespace strata::interop {

namespace {

using namespace std::chrono_literals;
using nlohmann::json;

std::string MapName(const Route& r) {
  std::string s = "orig-" + r.prefix;
  for (char& c : s) {
    if (c == '/' || c == ':' || c == '.') c = '-';
  }
  return s;
}

std::string Afi(const Route& r) { return r.ipv6() ? "ipv6" : "ipv4"; }

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

}  // namespace

std::vector<std::string> FrrSpeaker::RouteMapLines(const Route& r) {
  std::vector<std::string> l = {"route-map " + MapName(r) + " permit 10"};
  if (r.med) l.push_back("set metric " + std::to_string(*r.med));
  if (r.local_pref) l.push_back("set local-preference " + std::to_string(*r.local_pref));
  if (!r.communities.empty()) l.push_back("set community " + Join(r.communities));
  if (!r.large_communities.empty()) l.push_back("set large-community " + Join(r.large_communities));
  return l;
}

std::string FrrSpeaker::NetworkLine(const Route& r) {
  return "network " + r.prefix + " route-map " + MapName(r);
}

std::string FrrSpeaker::ConfigText() const { return MakeConfig(config_, dir_); }

std::string FrrSpeaker::MakeConfig(const SpeakerConfig& config, const std::string& dir) {
  std::ostringstream c;
  c << "hostname " << config.name << "\n";
  c << "log file " << dir << "/bgpd.log debugging\n";
  for (const auto& r : config.routes) {
    for (const auto& l : RouteMapLines(r)) c << l << "\n";
    c << "exit\n";
  }
  c << "router bgp " << config.local_as << "\n";
  c << " bgp router-id " << config.router_id << "\n";
  c << " no bgp ebgp-requires-policy\n no bgp network import-check\n";
  c << " no bgp default ipv4-unicast\n";
  for (const auto& l : RouterLines(config)) c << " " << l << "\n";
  for (const auto& n : config.neighbors) {
    c << " neighbor " << n.address << " remote-as " << n.remote_as << "\n";
    c << " neighbor " << n.address << " update-source " << n.local_address << "\n";
    c << " neighbor " << n.address << " timers 3 9\n";
    c << " neighbor " << n.address << " timers connect 1\n";
    if (n.graceful_restart) c << " neighbor " << n.address << " graceful-restart\n";
    if (n.bfd_interval_ms)
      c << " neighbor " << n.address << " bfd profile " << BfdProfile(n) << "\n";
  }
  for (const bool v6 : {false, true}) {
    c << " address-family " << (v6 ? "ipv6" : "ipv4") << " unicast\n";
    for (const auto& n : config.neighbors) {
      if (v6 ? n.ipv6 : n.ipv4) c << "  neighbor " << n.address << " activate\n";
    }
    for (const auto& r : config.routes) {
      if (r.ipv6() == v6) c << "  " << NetworkLine(r) << "\n";
    }
    c << " exit-address-family\n";
  }
  return c.str();
}

std::string FrrSpeaker::BfdProfile(const Neighbor& n) {
  return "bfd" + std::to_string(n.bfd_interval_ms);
}

std::string FrrSpeaker::BfddConfig(const SpeakerConfig& config, const std::string& dir) {
  std::ostringstream c;
  c << "hostname " << config.name << "\nlog file " << dir << "/bfdd.log debugging\n";
  c << "debug bfd peer\n";
  c << "bfd\n";
  for (const auto& n : config.neighbors) {
    if (!n.bfd_interval_ms) continue;
    c << " profile " << BfdProfile(n) << "\n";
    c << "  transmit-interval " << n.bfd_interval_ms << "\n";
    c << "  receive-interval " << n.bfd_interval_ms << "\n";
    c << " exit\n";
  }
  c << "exit\n";
  return c.str();
}

bool FrrSpeaker::UsesBfd(const SpeakerConfig& config) {
  for (const auto& n : config.neighbors) {
    if (n.bfd_interval_ms) return true;
  }
  return false;
}

std::vector<std::string> FrrSpeaker::RouterLines(const SpeakerConfig& config) {
  std::vector<std::string> l;
  uint32_t confed = 0;
  std::string members;
  uint32_t gr_time = 0;
  bool gr = false;
  for (const auto& n : config.neighbors) {
    if (n.confederation) {
      confed = n.confederation;
      members += " " + std::to_string(n.remote_as);
    }
    gr = gr || n.graceful_restart;
    if (n.graceful_restart && n.graceful_restart_time) gr_time = n.graceful_restart_time;
  }
  if (confed) {
    l.push_back("bgp confederation identifier " + std::to_string(confed));
    l.push_back("bgp confederation peers" + members);
  }
  if (gr) {
    // F bit set in our OPENs: the helper keeps our routes until our End-of-RIB.
    l.push_back("bgp graceful-restart preserve-fw-state");
    if (gr_time) l.push_back("bgp graceful-restart restart-time " + std::to_string(gr_time));
  }
  return l;
}

CommandResult FrrSpeaker::Vtysh(const std::vector<std::string>& commands) {
  std::vector<std::string> argv = {"vtysh", "--vty_socket", dir_, "-d", "bgpd"};
  for (const auto& c : commands) {
    argv.push_back("-c");
    argv.push_back(c);
  }
  return RunCommand(argv, 10s);
}

Status FrrSpeaker::Start() {
  {
    std::ofstream f(dir_ + "/bgpd.conf");
    f << ConfigText();
    if (!f) return Internal("cannot write bgpd.conf");
  }
  {
    std::ofstream f(dir_ + "/zebra.conf");
    f << "hostname " << config_.name << "\nlog file " << dir_ << "/zebra.log\n";
  }
  // zebra has no -S: it runs as user frr (keeping its capabilities), with vtysh in group
  // frrvty, so its files go in a directory it can write.
  std::filesystem::permissions(dir_, std::filesystem::perms::all);
  auto s = zebra_.Start(
      ns_.Wrap({"/usr/lib/frr/zebra", "-u", "frr", "-g", "frr", "-f", dir_ + "/zebra.conf", "-i",
                dir_ + "/zebra.pid", "--vty_socket", dir_, "-z", dir_ + "/zserv.api", "-P", "0"}),
      dir_ + "/zebra.out");
  if (!s.ok()) return s;
  if (!PollUntil([&] { return zebra_.Running() && std::filesystem::exists(dir_ + "/zserv.api"); },
                 10s)) {
    return Unavailable("zebra did not start: " + Logs());
  }
  if (UsesBfd(config_)) {
    {
      std::ofstream f(dir_ + "/bfdd.conf");
      f << BfddConfig(config_, dir_);
      if (!f) return Internal("cannot write bfdd.conf");
    }
    s = bfdd_.Start(
        ns_.Wrap({"/usr/lib/frr/bfdd", "-u", "frr", "-g", "frr", "-f", dir_ + "/bfdd.conf", "-i",
                  dir_ + "/bfdd.pid", "--vty_socket", dir_, "-z", dir_ + "/zserv.api", "-P", "0"}),
        dir_ + "/bfdd.out");
    if (!s.ok()) return s;
    if (!PollUntil([&] { return bfdd_.Running() && BfdPeers().is_array(); }, 10s)) {
      return Unavailable("bfdd did not start: " + Logs());
    }
  }
  return StartBgpd();
}

nlohmann::json FrrSpeaker::BfdPeers() {
  const auto r =
      RunCommand({"vtysh", "--vty_socket", dir_, "-d", "bfdd", "-c", "show bfd peers json"}, 10s);
  if (!r.ok()) return nullptr;
  json j = json::parse(r.output, nullptr, false);
  return j.is_discarded() ? nullptr : j;
}

Status FrrSpeaker::StartBgpd() {
  auto s = daemon_.Start(
      ns_.Wrap({"/usr/lib/frr/bgpd", "-S", "-f", dir_ + "/bgpd.conf", "-i", dir_ + "/bgpd.pid",
                "--vty_socket", dir_, "-z", dir_ + "/zserv.api", "-P", "0"}),
      dir_ + "/bgpd.out");
  if (!s.ok()) return s;
  if (!PollUntil([&] { return daemon_.Running() && Vtysh({"show version"}).ok(); }, 10s)) {
    return Unavailable("bgpd did not start: " + Logs());
  }
  return Status::Ok();
}

void FrrSpeaker::KillBgpd() { daemon_.Kill(); }

Status FrrSpeaker::RestartBgpd(const std::vector<Route>& routes) {
  config_.routes = routes;
  {
    std::ofstream f(dir_ + "/bgpd.conf");
    f << ConfigText();
    if (!f) return Internal("cannot write bgpd.conf");
  }
  return StartBgpd();
}

void FrrSpeaker::Stop() {
  daemon_.Stop();
  bfdd_.Stop();
  zebra_.Stop();
}

bool FrrSpeaker::Established(const std::string& neighbor) {
  const auto r = Vtysh({"show bgp summary json"});
  if (!r.ok()) return false;
  const json j = json::parse(r.output, nullptr, false);
  if (j.is_discarded()) return false;
  for (const char* afi : {"ipv4Unicast", "ipv6Unicast"}) {
    if (j.contains(afi) && j[afi].contains("peers") && j[afi]["peers"].contains(neighbor) &&
        j[afi]["peers"][neighbor].value("state", "") == "Established") {
      return true;
    }
  }
  return false;
}

Route FrrSpeaker::ParsePath(const std::string& prefix, const json& p) {
  Route r{.prefix = prefix};
  if (p.contains("nexthops") && !p["nexthops"].empty()) {
    r.nexthop = p["nexthops"][0].value("ip", "");
  }
  if (p.contains("aspath") && p["aspath"].contains("segments")) {
    for (const auto& seg : p["aspath"]["segments"]) {
      const bool confed = seg.value("type", "") == "as-confed-sequence";
      for (const auto& as : seg.value("list", json::array())) {
        r.as_path.push_back(as.get<uint32_t>());
        if (confed) r.confed_path.push_back(as.get<uint32_t>());
      }
    }
  }
  if (p.contains("metric")) r.med = p["metric"].get<uint32_t>();
  if (p.contains("locPrf")) r.local_pref = p["locPrf"].get<uint32_t>();
  if (p.contains("community")) {
    for (const auto& c : p["community"].value("list", json::array())) {
      r.communities.push_back(c.get<std::string>());
    }
  }
  if (p.contains("largeCommunity")) {
    for (const auto& c : p["largeCommunity"].value("list", json::array())) {
      r.large_communities.push_back(c.get<std::string>());
    }
  }
  if (p.contains("originatorId")) r.originator_id = p["originatorId"].get<std::string>();
  if (p.contains("clusterList") && p["clusterList"].contains("list")) {
    for (const auto& c : p["clusterList"]["list"]) r.cluster_list.push_back(c.get<std::string>());
  }
  return r;
}

StatusOr<std::vector<Route>> FrrSpeaker::ReceivedRoutes() {
  std::vector<Route> out;
  for (const std::string afi : {"ipv4", "ipv6"}) {
    const auto r = Vtysh({"show bgp " + afi + " unicast json"});
    if (!r.ok()) return Unavailable("vtysh: " + r.output);
    const json j = json::parse(r.output, nullptr, false);
    if (j.is_discarded() || !j.contains("routes")) continue;
    for (const auto& [prefix, paths] : j["routes"].items()) {
      bool learned = false;
      for (const auto& p : paths) {
        if (p.value("bestpath", false) && p.value("peerId", "") != "(unspec)") learned = true;
      }
      if (!learned) continue;
      const auto d = Vtysh({"show bgp " + afi + " unicast " + prefix + " json"});
      const json dj = json::parse(d.output, nullptr, false);
      if (dj.is_discarded() || !dj.contains("paths")) continue;
      for (const auto& p : dj["paths"]) {
        if (p.contains("bestpath") && p["bestpath"].value("overall", false)) {
          out.push_back(ParsePath(prefix, p));
        }
      }
    }
  }
  return out;
}

Status FrrSpeaker::Announce(const Route& route) {
  std::vector<std::string> cmds = {"configure terminal"};
  for (const auto& l : RouteMapLines(route)) cmds.push_back(l);
  cmds.push_back("exit");
  cmds.push_back("router bgp " + std::to_string(config_.local_as));
  cmds.push_back("address-family " + Afi(route) + " unicast");
  cmds.push_back(NetworkLine(route));
  const auto r = Vtysh(cmds);
  if (!r.ok()) return Internal("vtysh: " + r.output);
  config_.routes.push_back(route);
  return Status::Ok();
}

Status FrrSpeaker::Withdraw(const std::string& prefix) {
  const Route probe{.prefix = prefix};
  const auto r = Vtysh({"configure terminal", "router bgp " + std::to_string(config_.local_as),
                        "address-family " + Afi(probe) + " unicast", "no network " + prefix});
  if (!r.ok()) return Internal("vtysh: " + r.output);
  std::erase_if(config_.routes, [&](const Route& x) { return x.prefix == prefix; });
  return Status::Ok();
}

Status FrrSpeaker::ResetSession(const std::string& neighbor) {
  const auto r = Vtysh({"clear bgp " + neighbor});
  return r.ok() ? Status::Ok() : Internal("vtysh: " + r.output);
}

std::string FrrSpeaker::Logs() const {
  std::string s;
  for (const char* f : {"bgpd.log", "bgpd.out", "bfdd.log", "bfdd.out", "zebra.log", "zebra.out"}) {
    s += std::string("--- ") + dir_ + "/" + f + "\n" + ReadFileTail(f);
  }
  return s;
}

}  // namespace strata::interop
