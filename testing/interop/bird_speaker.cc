#include "testing/interop/bird_speaker.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace strata::interop {

namespace {

using namespace std::chrono_literals;

// "65001:100" -> "(65001,100)"; "65001:1:2" -> "(65001,1,2)".
std::string BirdTuple(const std::string& colon) {
  std::string s = colon;
  std::replace(s.begin(), s.end(), ':', ',');
  return "(" + s + ")";
}

// "(65002,5) (1,2)" or "(65001, 1, 2)" -> {"65002:5", "1:2"} / {"65001:1:2"}.
std::vector<std::string> ParseTuples(const std::string& text) {
  std::vector<std::string> out;
  static const std::regex tuple(R"(\(([^)]*)\))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), tuple);
       it != std::sregex_iterator(); ++it) {
    std::string inner = (*it)[1];
    std::string v;
    for (char c : inner) {
      if (c == ',') {
        v += ':';
      } else if (c != ' ') {
        v += c;
      }
    }
    out.push_back(v);
  }
  return out;
}

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

std::string BirdSpeaker::MakeConfig(const SpeakerConfig& config, const std::string& dir) {
  std::ostringstream c;
  c << "log \"" << dir << "/bird.log\" all;\n";
  c << "router id " << config.router_id << ";\n";
  c << "protocol device {}\n";
  for (const bool v6 : {false, true}) {
    c << "protocol static st" << (v6 ? 6 : 4) << " { " << (v6 ? "ipv6" : "ipv4") << ";\n";
    for (const auto& r : config.routes) {
      if (r.ipv6() == v6) c << "  route " << r.prefix << " blackhole;\n";
    }
    c << "}\n";
  }
  // Attributes of originated routes, set on export (see the header).
  c << "filter originated {\n";
  for (const auto& r : config.routes) {
    c << "  if net = " << r.prefix << " then {\n";
    if (r.med) c << "    bgp_med = " << *r.med << ";\n";
    if (r.local_pref) c << "    bgp_local_pref = " << *r.local_pref << ";\n";
    // The path after BIRD's own AS (which it prepends on export): prepended last first.
    for (auto as = r.as_path.rbegin(); as != r.as_path.rend(); ++as) {
      c << "    bgp_path.prepend(" << *as << ");\n";
    }
    if (!r.nexthop.empty()) c << "    bgp_next_hop = " << r.nexthop << ";\n";
    for (const auto& cm : r.communities) c << "    bgp_community.add(" << BirdTuple(cm) << ");\n";
    for (const auto& cm : r.large_communities) {
      c << "    bgp_large_community.add(" << BirdTuple(cm) << ");\n";
    }
    c << "  }\n";
  }
  c << "  accept;\n}\n";
  // BFD (RFC 5880/5881): one protocol for all neighbours, at the first interval asked for.
  for (const auto& n : config.neighbors) {
    if (n.bfd_interval_ms == 0) continue;
    c << "protocol bfd {\n  interface \"*\" {\n    min rx interval " << n.bfd_interval_ms
      << " ms; min tx interval " << n.bfd_interval_ms << " ms; idle tx interval 1000 ms;\n"
      << "    multiplier 3;\n  };\n}\n";
    break;
  }
  for (size_t i = 0; i < config.neighbors.size(); ++i) {
    const auto& n = config.neighbors[i];
    c << "protocol bgp nb" << i << " {\n";
    c << "  local " << n.local_address << " as " << config.local_as << ";\n";
    c << "  neighbor " << n.address << " as " << n.remote_as << ";\n";
    c << "  hold time 9; keepalive time 3; connect retry time 1; connect delay time 1;\n";
    c << "  error wait time 1, 5;\n";
    if (n.confederation) {
      c << "  confederation " << n.confederation << "; confederation member yes;\n";
    }
    if (n.graceful_restart) c << "  graceful restart on;\n";
    if (n.graceful_restart && n.graceful_restart_time) {
      c << "  graceful restart time " << n.graceful_restart_time << ";\n";
    }
    if (n.long_lived_stale_time) {
      c << "  long lived graceful restart on; long lived stale time " << n.long_lived_stale_time
        << ";\n";
    }
    if (n.bfd_interval_ms) c << "  bfd on;\n";
    if (n.ipv4) c << "  ipv4 { import all; export filter originated; };\n";
    if (n.ipv6) c << "  ipv6 { import all; export filter originated; };\n";
    c << "}\n";
  }
  return c.str();
}

Status BirdSpeaker::WriteConfig() const {
  std::ofstream f(dir_ + "/bird.conf");
  f << MakeConfig(config_, dir_);
  return f ? Status::Ok() : Internal("cannot write " + dir_ + "/bird.conf");
}

CommandResult BirdSpeaker::Birdc(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"birdc", "-s", dir_ + "/bird.ctl"};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunCommand(argv, 5s);
}

Status BirdSpeaker::Start() { return StartBird({}); }

void BirdSpeaker::Kill() { daemon_.Kill(); }

Status BirdSpeaker::RestartGracefully(const std::vector<Route>& routes) {
  config_.routes = routes;
  return StartBird({"-R"});
}

Status BirdSpeaker::StartBird(const std::vector<std::string>& extra) {
  if (auto s = WriteConfig(); !s.ok()) return s;
  std::vector<std::string> argv = {
      "bird", "-f", "-c", dir_ + "/bird.conf", "-s", dir_ + "/bird.ctl", "-P", dir_ + "/bird.pid"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  if (auto s = daemon_.Start(ns_.Wrap(argv), dir_ + "/bird.out"); !s.ok()) {
    return s;
  }
  if (!PollUntil([&] { return daemon_.Running() && Birdc({"show", "status"}).ok(); }, 5s)) {
    return Unavailable("bird did not start: " + Logs());
  }
  return Status::Ok();
}

void BirdSpeaker::Stop() { daemon_.Stop(); }

std::string BirdSpeaker::ProtocolFor(const std::string& neighbor) const {
  for (size_t i = 0; i < config_.neighbors.size(); ++i) {
    if (config_.neighbors[i].address == neighbor) return "nb" + std::to_string(i);
  }
  return "";
}

bool BirdSpeaker::Established(const std::string& neighbor) {
  const std::string proto = ProtocolFor(neighbor);
  if (proto.empty()) return false;
  const auto r = Birdc({"show", "protocols", proto});
  return r.ok() && r.output.find("Established") != std::string::npos;
}

std::string BirdSpeaker::BfdState(const std::string& peer) {
  // `show bfd sessions`: "IP address  Interface  State  Since  Interval  Timeout" rows.
  const auto r = Birdc({"show", "bfd", "sessions"});
  if (!r.ok()) return "";
  std::istringstream in(r.output);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string address, ifname, state;
    if (row >> address >> ifname >> state && address == peer) {
      std::transform(state.begin(), state.end(), state.begin(),
                     [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
      return state;
    }
  }
  return "";
}

std::vector<Route> BirdSpeaker::ParseRoutes(const std::string& text) {
  std::vector<Route> routes;
  std::istringstream in(text);
  std::string line;
  Route* cur = nullptr;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line[0] != ' ' && line[0] != '\t') {
      const std::string first = line.substr(0, line.find_first_of(" \t"));
      if (first.find('/') != std::string::npos) {
        routes.push_back(Route{.prefix = first});
        cur = &routes.back();
      } else {
        cur = nullptr;  // "Table master4:", "BIRD 2.0.12 ready."
      }
      continue;
    }
    if (cur == nullptr) continue;
    const std::string t = Trim(line);
    const auto colon = t.find(": ");
    if (t.starts_with("via ") && cur->nexthop.empty()) {
      std::istringstream v(t.substr(4));
      v >> cur->nexthop;
      continue;
    }
    if (colon == std::string::npos) continue;
    const std::string key = t.substr(0, colon);
    const std::string value = t.substr(colon + 2);
    if (key == "BGP.next_hop") {
      std::istringstream v(value);
      v >> cur->nexthop;  // IPv6: global first, then link-local
    } else if (key == "BGP.as_path") {
      std::istringstream v(value);
      std::string tok;
      while (v >> tok) {
        tok.erase(std::remove_if(tok.begin(), tok.end(), [](char c) { return !isdigit(c); }),
                  tok.end());
        if (!tok.empty()) cur->as_path.push_back(static_cast<uint32_t>(std::stoul(tok)));
      }
    } else if (key == "BGP.med") {
      cur->med = static_cast<uint32_t>(std::stoul(value));
    } else if (key == "BGP.local_pref") {
      cur->local_pref = static_cast<uint32_t>(std::stoul(value));
    } else if (key == "BGP.community") {
      cur->communities = ParseTuples(value);
    } else if (key == "BGP.large_community") {
      cur->large_communities = ParseTuples(value);
    } else if (key == "BGP.originator_id") {
      cur->originator_id = Trim(value);
    } else if (key == "BGP.cluster_list") {
      std::istringstream v(value);
      std::string id;
      while (v >> id) cur->cluster_list.push_back(id);
    }
  }
  return routes;
}

StatusOr<std::vector<Route>> BirdSpeaker::ReceivedRoutes() {
  const auto r = Birdc({"show", "route", "all", "primary", "where", "source", "=", "RTS_BGP"});
  if (!r.ok()) return Unavailable("birdc: " + r.output);
  return ParseRoutes(r.output);
}

Status BirdSpeaker::Announce(const Route& route) {
  std::erase_if(config_.routes, [&](const Route& r) { return r.prefix == route.prefix; });
  config_.routes.push_back(route);
  if (auto s = WriteConfig(); !s.ok()) return s;
  const auto r = Birdc({"configure"});
  if (!r.ok() || r.output.find("Reconfigured") == std::string::npos) {
    return Internal("birdc configure: " + r.output);
  }
  return Status::Ok();
}

Status BirdSpeaker::Withdraw(const std::string& prefix) {
  std::erase_if(config_.routes, [&](const Route& r) { return r.prefix == prefix; });
  if (auto s = WriteConfig(); !s.ok()) return s;
  const auto r = Birdc({"configure"});
  if (!r.ok() || r.output.find("Reconfigured") == std::string::npos) {
    return Internal("birdc configure: " + r.output);
  }
  return Status::Ok();
}

Status BirdSpeaker::ResetSession(const std::string& neighbor) {
  const std::string proto = ProtocolFor(neighbor);
  if (proto.empty()) return NotFound("no neighbor " + neighbor);
  const auto r = Birdc({"restart", proto});
  return r.ok() ? Status::Ok() : Internal("birdc restart: " + r.output);
}

std::string BirdSpeaker::Logs() const {
  return "--- " + dir_ + "/bird.log\n" + ReadFileTail("bird.log") + "--- " + dir_ + "/bird.out\n" +
         ReadFileTail("bird.out");
}

}  // namespace strata::interop
