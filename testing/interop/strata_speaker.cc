#include "testing/interop/strata_speaker.h"

#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace strata::interop {

StrataBinaries StrataBinariesFromEnv() {
#ifdef STRATA_BIN_DIR_DEFAULT
  std::string dir = STRATA_BIN_DIR_DEFAULT;
#else
  std::string dir = ".";
#endif
  if (const char* env = std::getenv("STRATA_BIN_DIR"); env != nullptr && *env != '\0') dir = env;
  const char* bgp = std::getenv("STRATA_BGP_BIN");
  return StrataBinaries{.finder = dir + "/strata-finder",
                        .rib = dir + "/strata-rib",
                        .bgp = bgp != nullptr && *bgp != '\0' ? bgp : dir + "/strata-bgp",
                        .call = dir + "/strata-call"};
}

namespace {

using namespace std::chrono_literals;
using nlohmann::json;

std::string AddrType(const std::string& a) {
  return a.find(':') != std::string::npos ? "ipv6" : "ipv4";
}
std::string NetType(const std::string& p) { return AddrType(p) + "net"; }

}  // namespace

std::vector<std::string> StrataSpeaker::Env() const {
  return {"env", "STRATA_RUN_DIR=" + dir_, "STRATA_LOG_LEVEL=debug"};
}

StatusOr<json> StrataSpeaker::Call(const std::string& xrl) {
  std::vector<std::string> argv = Env();
  argv.insert(argv.end(), {bins_.call, "--json", xrl});
  const auto r = ns_.Exec(argv, 10s);
  if (!r.ok()) {
    // strata-call exits with the error's code.
    const bool is_code = r.exit_code > 0 && r.exit_code <= 16;
    return Status(is_code ? static_cast<StatusCode>(r.exit_code) : StatusCode::kUnknown,
                  xrl + ": exit " + std::to_string(r.exit_code) + ": " + r.output);
  }
  const json j = json::parse(r.output, nullptr, false);
  if (j.is_discarded()) return Internal(xrl + ": not JSON: " + r.output);
  return j;
}

Status StrataSpeaker::Start() {
  for (const auto* b : {&bins_.finder, &bins_.rib, &bins_.bgp, &bins_.call}) {
    if (!std::filesystem::exists(*b)) return FailedPrecondition(*b + " does not exist");
  }
  auto start = [&](Daemon& d, std::vector<std::string> args, const std::string& log) {
    std::vector<std::string> argv = Env();
    argv.insert(argv.end(), args.begin(), args.end());
    return d.Start(ns_.Wrap(argv), dir_ + "/" + log);
  };
  if (auto s = start(finder_, {bins_.finder}, "finder.log"); !s.ok()) return s;
  if (!PollUntil([&] { return std::filesystem::exists(dir_ + "/finder.sock"); }, 5s)) {
    return Unavailable("strata-finder did not start: " + Logs());
  }
  if (auto s = start(rib_, {bins_.rib, "--vr", vr_}, "rib.log"); !s.ok()) return s;
  if (!PollUntil([&] { return rib_.Running() && Call(rib_target() + "get_stats").ok(); }, 10s)) {
    return Unavailable("strata-rib did not start: " + Logs());
  }
  if (auto s = StartBgp(); !s.ok()) return s;
  return Configure();
}

Status StrataSpeaker::StartBgp() {
  std::vector<std::string> argv = Env();
  argv.insert(argv.end(), {bins_.bgp, "--vr", vr_});
  if (auto s = bgp_.Start(ns_.Wrap(argv), dir_ + "/bgp.log"); !s.ok()) return s;
  if (!PollUntil([&] { return bgp_.Running() && Call(bgp_target() + "get_stats").ok(); }, 10s)) {
    return Unavailable("strata-bgp did not start: " + Logs());
  }
  return Status::Ok();
}

void StrataSpeaker::KillBgp() {
  if (bgp_.pid() > 0) ::kill(-bgp_.pid(), SIGKILL);
  bgp_.Stop();  // reaps it
}

Status StrataSpeaker::RestartBgp() {
  if (auto s = StartBgp(); !s.ok()) return s;
  if (auto s = ConfigureBgp(); !s.ok()) return s;
  for (const auto& route : config_.routes) {
    std::string xrl =
        bgp_target() + "add_network?prefix:" + NetType(route.prefix) + "=" + route.prefix;
    if (!route.nexthop.empty()) xrl += "&nexthop:" + AddrType(route.nexthop) + "=" + route.nexthop;
    if (auto r = Call(xrl); !r.ok()) return r.status();
  }
  return Status::Ok();
}

Status StrataSpeaker::Configure() {
  for (const auto& n : config_.neighbors) {
    const bool v6 = n.address.find(':') != std::string::npos;
    if (auto s = AddStaticRoute(n.address + (v6 ? "/128" : "/32"), n.address); !s.ok()) return s;
  }
  if (auto s = ConfigureBgp(); !s.ok()) return s;
  const std::vector<Route> initial = std::move(config_.routes);
  config_.routes.clear();
  for (const auto& route : initial) {
    if (auto s = Announce(route); !s.ok()) return s;
  }
  return Status::Ok();
}

Status StrataSpeaker::ConfigureBgp() {
  auto r = Call(bgp_target() + "set_local_config?local_as:u32=" + std::to_string(config_.local_as) +
                "&router_id:ipv4=" + config_.router_id);
  if (!r.ok()) return r.status();
  for (const auto& n : config_.neighbors) {
    const std::string xrl =
        bgp_target() + "add_peer?peer:" + AddrType(n.address) + "=" + n.address +
        "&peer_as:u32=" + std::to_string(n.remote_as) +
        "&local_address:" + AddrType(n.local_address) + "=" + n.local_address +
        "&hold_time:u32=9&connect_retry:u32=1" +
        "&ipv4_unicast:bool=" + (n.ipv4 ? "true" : "false") +
        "&ipv6_unicast:bool=" + (n.ipv6 ? "true" : "false") + "&ebgp_requires_policy:bool=false" +
        (n.long_lived_stale_time
             ? "&long_lived_stale_time:u32=" + std::to_string(n.long_lived_stale_time)
             : std::string());
    r = Call(xrl);
    if (!r.ok()) return r.status();
  }
  return Status::Ok();
}

void StrataSpeaker::Stop() {
  bgp_.Stop();
  rib_.Stop();
  finder_.Stop();
}

json StrataSpeaker::PeerStatus(const std::string& neighbor) {
  auto r = Call(bgp_target() + "list_peers");
  if (!r.ok() || !r->contains("peers")) return nullptr;
  for (const auto& p : (*r)["peers"]) {
    if (p.value("peer", "") == neighbor) return p;
  }
  return nullptr;
}

bool StrataSpeaker::Established(const std::string& neighbor) {
  const json p = PeerStatus(neighbor);
  return p.is_object() && p.value("state", "") == "Established";
}

Route StrataSpeaker::ParseRoute(const json& j) {
  Route r{.prefix = j.value("prefix", ""), .nexthop = j.value("nexthop", "")};
  std::istringstream path(j.value("as_path", ""));
  std::string tok;
  bool confed = false;  // inside "(...)": an AS_CONFED_SEQUENCE
  while (path >> tok) {
    const bool opens = tok.front() == '(';
    const bool closes = tok.back() == ')';
    std::erase_if(tok, [](char c) { return !isdigit(static_cast<unsigned char>(c)); });
    confed = confed || opens;
    if (!tok.empty()) {
      r.as_path.push_back(static_cast<uint32_t>(std::stoul(tok)));
      if (confed) r.confed_path.push_back(r.as_path.back());
    }
    if (closes) confed = false;
  }
  if (j.contains("med")) r.med = j["med"].get<uint32_t>();
  if (j.contains("local_pref")) r.local_pref = j["local_pref"].get<uint32_t>();
  for (const auto& c : j.value("communities", json::array())) r.communities.push_back(c);
  for (const auto& c : j.value("large_communities", json::array())) {
    r.large_communities.push_back(c);
  }
  if (j.contains("originator_id")) r.originator_id = j["originator_id"].get<std::string>();
  for (const auto& c : j.value("cluster_list", json::array())) r.cluster_list.push_back(c);
  return r;
}

StatusOr<std::vector<Route>> StrataSpeaker::ReceivedRoutes() {
  auto r = Call(bgp_target() + "list_routes?best_only:bool=true");
  if (!r.ok()) return r.status();
  std::vector<Route> out;
  for (const auto& j : r->value("routes", json::array())) {
    if (!j.contains("peer") || j["peer"].get<std::string>().empty()) continue;  // ours
    out.push_back(ParseRoute(j));
  }
  return out;
}

Status StrataSpeaker::AddStaticRoute(const std::string& prefix, const std::string& nexthop) {
  if (!static_table_) {
    auto r = Call(rib_target() + "add_origin_table?protocol:txt=static&kind:txt=PROTOCOL_KIND_IGP");
    if (!r.ok()) return r.status();
    static_table_ = true;
  }
  auto r = Call(rib_target() + "add_routes?protocol:txt=static&routes.0.prefix:" + NetType(prefix) +
                "=" + prefix + "&routes.0.nexthop:" + AddrType(nexthop) + "=" + nexthop);
  return r.ok() ? Status::Ok() : r.status();
}

StatusOr<std::vector<RibRoute>> StrataSpeaker::RibRoutes() {
  auto r = Call(rib_target() + "list_routes");
  if (!r.ok()) return r.status();
  std::vector<RibRoute> out;
  for (const auto& j : r->value("routes", json::array())) {
    out.push_back(RibRoute{.prefix = j.value("prefix", ""),
                           .nexthop = j.value("nexthop", ""),
                           .protocol = j.value("protocol", ""),
                           .stale = j.value("stale", false)});
  }
  return out;
}

std::optional<RibRoute> StrataSpeaker::RibRouteFor(const std::string& prefix) {
  auto routes = RibRoutes();
  if (!routes.ok()) return std::nullopt;
  for (const auto& r : *routes) {
    if (r.prefix == prefix) return r;
  }
  return std::nullopt;
}

uint64_t StrataSpeaker::Counter(const json& peer, const std::string& key) {
  if (!peer.is_object() || !peer.contains(key)) return 0;
  const json& v = peer[key];
  return v.is_string() ? std::stoull(v.get<std::string>()) : v.get<uint64_t>();
}

Status StrataSpeaker::Announce(const Route& route) {
  std::string xrl =
      bgp_target() + "add_network?prefix:" + NetType(route.prefix) + "=" + route.prefix;
  if (!route.nexthop.empty()) xrl += "&nexthop:" + AddrType(route.nexthop) + "=" + route.nexthop;
  auto r = Call(xrl);
  if (!r.ok()) return r.status();
  config_.routes.push_back(route);
  return Status::Ok();
}

Status StrataSpeaker::Withdraw(const std::string& prefix) {
  auto r = Call(bgp_target() + "delete_network?prefix:" + NetType(prefix) + "=" + prefix);
  if (!r.ok()) return r.status();
  std::erase_if(config_.routes, [&](const Route& x) { return x.prefix == prefix; });
  return Status::Ok();
}

Status StrataSpeaker::ResetSession(const std::string& neighbor) {
  auto r = Call(bgp_target() + "reset_peer?peer:" + AddrType(neighbor) + "=" + neighbor);
  return r.ok() ? Status::Ok() : r.status();
}

std::string StrataSpeaker::Logs() const {
  std::string s;
  for (const char* f : {"finder.log", "rib.log", "bgp.log"}) {
    s += std::string("--- ") + dir_ + "/" + f + "\n" + ReadFileTail(f, 12000);
  }
  return s;
}

}  // namespace strata::interop
