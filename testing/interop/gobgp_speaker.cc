#include "testing/interop/gobgp_speaker.h"

#include <fstream>
#include <sstream>

#include "common/json.h"

namespace strata::interop {

namespace {

using namespace std::chrono_literals;
using nlohmann::json;

// GoBGP's session_state enum: 6 is ESTABLISHED.
constexpr int kEstablished = 6;

std::string Family(const std::string& prefix) {
  return prefix.find(':') != std::string::npos ? "ipv6" : "ipv4";
}

}  // namespace

std::string GobgpSpeaker::ConfigText() const {
  std::ostringstream c;
  c << "[global.config]\n  as = " << config_.local_as << "\n  router-id = \"" << config_.router_id
    << "\"\n  port = 179\n";
  for (const auto& n : config_.neighbors) {
    c << "[[neighbors]]\n  [neighbors.config]\n    neighbor-address = \"" << n.address
      << "\"\n    peer-as = " << n.remote_as << "\n";
    c << "  [neighbors.transport.config]\n    local-address = \"" << n.local_address << "\"\n";
    c << "  [neighbors.timers.config]\n    hold-time = 9\n    keepalive-interval = 3\n"
         "    connect-retry = 1\n    idle-hold-time-after-reset = 1\n";
    for (const bool v6 : {false, true}) {
      if (v6 ? !n.ipv6 : !n.ipv4) continue;
      c << "  [[neighbors.afi-safis]]\n    [neighbors.afi-safis.config]\n"
           "      afi-safi-name = \""
        << (v6 ? "ipv6-unicast" : "ipv4-unicast") << "\"\n";
    }
  }
  return c.str();
}

CommandResult GobgpSpeaker::Gobgp(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"gobgp", "--target", "unix://" + dir_ + "/api.sock"};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunCommand(argv, 10s);
}

Status GobgpSpeaker::Start() {
  {
    std::ofstream f(dir_ + "/gobgpd.toml");
    f << ConfigText();
    if (!f) return Internal("cannot write gobgpd.toml");
  }
  auto s = daemon_.Start(
      ns_.Wrap({"gobgpd", "-f", dir_ + "/gobgpd.toml", "--api-hosts",
                "unix://" + dir_ + "/api.sock", "--pprof-disable", "-p", "-l", "debug"}),
      dir_ + "/gobgpd.log");
  if (!s.ok()) return s;
  if (!PollUntil([&] { return daemon_.Running() && Gobgp({"global"}).ok(); }, 10s)) {
    return Unavailable("gobgpd did not start: " + Logs());
  }
  const std::vector<Route> initial = std::move(config_.routes);
  config_.routes.clear();
  for (const auto& r : initial) {
    if (auto st = Announce(r); !st.ok()) return st;
  }
  return Status::Ok();
}

void GobgpSpeaker::Stop() { daemon_.Stop(); }

bool GobgpSpeaker::Established(const std::string& neighbor) {
  const auto r = Gobgp({"neighbor", "-j"});
  if (!r.ok()) return false;
  const json j = json::parse(r.output, nullptr, false);
  if (!j.is_array()) return false;
  for (const auto& n : j) {
    if (n.contains("state") && n["state"].value("neighbor_address", "") == neighbor) {
      return n["state"].value("session_state", 0) == kEstablished;
    }
  }
  return false;
}

Route GobgpSpeaker::ParsePath(const std::string& prefix, const json& p) {
  Route r{.prefix = prefix};
  for (const auto& a : p.value("attrs", json::array())) {
    switch (a.value("type", 0)) {
      case 2:  // AS_PATH
        for (const auto& seg : a.value("as_paths", json::array())) {
          for (const auto& as : seg.value("asns", json::array())) {
            r.as_path.push_back(as.get<uint32_t>());
          }
        }
        break;
      case 3:  // NEXT_HOP
        r.nexthop = a.value("nexthop", "");
        break;
      case 4:  // MULTI_EXIT_DISC
        r.med = a.value("metric", 0u);
        break;
      case 5:  // LOCAL_PREF
        r.local_pref = a.value("value", 0u);
        break;
      case 8:  // COMMUNITIES, as 32-bit numbers
        for (const auto& c : a.value("communities", json::array())) {
          const auto v = c.get<uint32_t>();
          r.communities.push_back(std::to_string(v >> 16) + ":" + std::to_string(v & 0xffff));
        }
        break;
      case 14:  // MP_REACH_NLRI: {"nexthop": "fd00::5", "afi": 2, ...}
        r.nexthop = a.value("nexthop", "");
        break;
      case 32:  // LARGE_COMMUNITY
        for (const auto& c : a.value("value", json::array())) {
          r.large_communities.push_back(std::to_string(c.value("ASN", 0u)) + ":" +
                                        std::to_string(c.value("LocalData1", 0u)) + ":" +
                                        std::to_string(c.value("LocalData2", 0u)));
        }
        break;
      default:
        break;
    }
  }
  return r;
}

StatusOr<std::vector<Route>> GobgpSpeaker::ReceivedRoutes() {
  std::vector<Route> out;
  for (const char* afi : {"ipv4", "ipv6"}) {
    const auto r = Gobgp({"global", "rib", "-a", afi, "-j"});
    if (!r.ok()) return Unavailable("gobgp: " + r.output);
    const json j = json::parse(r.output, nullptr, false);
    if (!j.is_object()) continue;
    for (const auto& [prefix, paths] : j.items()) {
      for (const auto& p : paths) {
        // Paths originated here carry no neighbor-ip.
        if (p.value("best", false) && p.contains("neighbor-ip"))
          out.push_back(ParsePath(prefix, p));
      }
    }
  }
  return out;
}

Status GobgpSpeaker::Announce(const Route& route) {
  std::vector<std::string> args = {"global", "rib", "add", route.prefix};
  if (!route.nexthop.empty()) args.insert(args.end(), {"nexthop", route.nexthop});
  if (!route.as_path.empty()) {
    std::string path;
    for (auto as : route.as_path) path += (path.empty() ? "" : " ") + std::to_string(as);
    args.insert(args.end(), {"aspath", path});
  }
  if (route.med) args.insert(args.end(), {"med", std::to_string(*route.med)});
  if (route.local_pref) args.insert(args.end(), {"local-pref", std::to_string(*route.local_pref)});
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s;
  };
  if (!route.communities.empty()) args.insert(args.end(), {"community", join(route.communities)});
  if (!route.large_communities.empty()) {
    args.insert(args.end(), {"large-community", join(route.large_communities)});
  }
  args.insert(args.end(), {"-a", Family(route.prefix)});
  const auto r = Gobgp(args);
  if (!r.ok()) return Internal("gobgp " + JoinArgs(args) + ": " + r.output);
  config_.routes.push_back(route);
  return Status::Ok();
}

Status GobgpSpeaker::Withdraw(const std::string& prefix) {
  const auto r = Gobgp({"global", "rib", "del", prefix, "-a", Family(prefix)});
  if (!r.ok()) return Internal("gobgp: " + r.output);
  std::erase_if(config_.routes, [&](const Route& x) { return x.prefix == prefix; });
  return Status::Ok();
}

Status GobgpSpeaker::ResetSession(const std::string& neighbor) {
  const auto r = Gobgp({"neighbor", neighbor, "reset"});
  return r.ok() ? Status::Ok() : Internal("gobgp: " + r.output);
}

std::string GobgpSpeaker::Logs() const {
  return "--- " + dir_ + "/gobgpd.log\n" + ReadFileTail("gobgpd.log");
}

}  // namespace strata::interop
