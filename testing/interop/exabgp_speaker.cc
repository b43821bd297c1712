#include "testing/interop/exabgp_speaker.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "common/json.h"

namespace strata::interop {

namespace {

using namespace std::chrono_literals;
using nlohmann::json;

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

}  // namespace

std::string ExabgpSpeaker::RouteText(const Route& r) {
  std::string s = "route " + r.prefix + " next-hop " + (r.nexthop.empty() ? "self" : r.nexthop);
  if (!r.as_path.empty()) {
    std::string p;
    for (auto as : r.as_path) p += (p.empty() ? "" : " ") + std::to_string(as);
    s += " as-path [ " + p + " ]";
  }
  if (r.med) s += " med " + std::to_string(*r.med);
  if (r.local_pref) s += " local-preference " + std::to_string(*r.local_pref);
  if (!r.communities.empty()) s += " community [ " + Join(r.communities) + " ]";
  if (!r.large_communities.empty()) s += " large-community [ " + Join(r.large_communities) + " ]";
  return s;
}

std::string ExabgpSpeaker::ConfigText() const {
  std::ostringstream c;
  // fd 3 keeps the pipe from exabgp open (exabgp writes to it and restarts a process whose
  // pipe is closed); stdin becomes the FIFO.
  c << "process cmd {\n  run /bin/sh -c \"exec cat 3<&0 0<>" << dir_
    << "/commands.fifo\";\n  encoder text;\n}\n";
  // fd 4 keeps its stdout pipe open: exabgp takes EOF on it for the process's death.
  c << "process recv {\n  run /bin/sh -c \"exec cat 4>&1 >> " << dir_
    << "/received.jsonl\";\n  encoder json;\n}\n";
  for (const auto& n : config_.neighbors) {
    c << "neighbor " << n.address << " {\n";
    c << "  router-id " << config_.router_id << ";\n  local-address " << n.local_address
      << ";\n  local-as " << config_.local_as << ";\n  peer-as " << n.remote_as
      << ";\n  hold-time 9;\n";
    c << "  family {\n"
      << (n.ipv4 ? "    ipv4 unicast;\n" : "") << (n.ipv6 ? "    ipv6 unicast;\n" : "") << "  }\n";
    c << "  api { processes [ cmd ]; }\n";
    c << "  api { processes [ recv ]; neighbor-changes; receive { parsed; update; } }\n";
    c << "  static {\n";
    for (const auto& r : config_.routes) {
      if ((r.ipv6() && n.ipv6) || (!r.ipv6() && n.ipv4)) c << "    " << RouteText(r) << ";\n";
    }
    c << "  }\n}\n";
  }
  return c.str();
}

Status ExabgpSpeaker::Start() {
  {
    std::ofstream f(dir_ + "/exabgp.conf");
    f << ConfigText();
    if (!f) return Internal("cannot write exabgp.conf");
  }
  const std::string fifo = dir_ + "/commands.fifo";
  ::unlink(fifo.c_str());
  if (::mkfifo(fifo.c_str(), 0600) != 0) return Internal("mkfifo " + fifo);
  { std::ofstream(dir_ + "/received.jsonl"); }
  const std::vector<std::string> env = {"exabgp.daemon.user=root",
                                        "exabgp.daemon.drop=false",
                                        "exabgp.daemon.pid=" + dir_ + "/exabgp.pid",
                                        "exabgp.api.cli=false",
                                        "exabgp.log.destination=" + dir_ + "/exabgp.log",
                                        "exabgp.log.level=DEBUG",
                                        "exabgp.log.packets=true",
                                        "exabgp.log.message=true",
                                        "exabgp.api.ack=false"};
  // `env` so that the variables cross `ip netns exec`.
  std::vector<std::string> argv = {"env"};
  argv.insert(argv.end(), env.begin(), env.end());
  argv.insert(argv.end(), {"exabgp", dir_ + "/exabgp.conf"});
  if (auto s = daemon_.Start(ns_.Wrap(argv), dir_ + "/exabgp.out"); !s.ok()) return s;
  // The cmd process has the FIFO open once exabgp has started its API processes.
  if (!PollUntil(
          [&] {
            if (!daemon_.Running()) return false;
            const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
            if (fd < 0) return false;
            ::close(fd);
            return true;
          },
          10s)) {
    return Unavailable("exabgp did not start: " + Logs());
  }
  return Status::Ok();
}

void ExabgpSpeaker::Stop() { daemon_.Stop(); }

Status ExabgpSpeaker::SendCommand(const std::string& line) {
  const std::string fifo = dir_ + "/commands.fifo";
  const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
  if (fd < 0) return Unavailable("exabgp command FIFO not open");
  const std::string data = line + "\n";
  const ssize_t n = ::write(fd, data.data(), data.size());
  ::close(fd);
  return n == static_cast<ssize_t>(data.size()) ? Status::Ok() : Internal("short write to FIFO");
}

bool ExabgpSpeaker::Established(const std::string& neighbor) {
  std::ifstream f(dir_ + "/received.jsonl");
  std::string line;
  bool up = false;
  while (std::getline(f, line)) {
    const json j = json::parse(line, nullptr, false);
    if (!j.is_object() || j.value("type", "") != "state") continue;
    if (j.value("/neighbor/address/peer"_json_pointer, "") != neighbor) continue;
    up = j.value("/neighbor/state"_json_pointer, "") == "up";
  }
  return up;
}

std::vector<Route> ExabgpSpeaker::ParseReceived(const std::string& jsonl) {
  std::map<std::string, Route> table;  // by prefix; the latest announcement wins
  std::istringstream in(jsonl);
  std::string line;
  while (std::getline(in, line)) {
    const json j = json::parse(line, nullptr, false);
    if (!j.is_object()) continue;
    if (j.value("type", "") == "state" && j.value("/neighbor/state"_json_pointer, "") == "down") {
      table.clear();  // tests use one neighbour per exabgp instance
      continue;
    }
    if (j.value("type", "") != "update") continue;
    // An End-of-RIB is an "update" whose message has "eor" instead.
    const json u = j.value("/neighbor/message/update"_json_pointer, json::object());
    if (!u.is_object()) continue;
    if (u.contains("withdraw")) {
      for (const auto& [family, nlris] : u["withdraw"].items()) {
        for (const auto& n : nlris) table.erase(n.value("nlri", ""));
      }
    }
    if (!u.contains("announce")) continue;
    Route base;
    const json a = u.value("attribute", json::object());
    for (const auto& as : a.value("as-path", json::array())) {
      if (as.is_number()) base.as_path.push_back(as.get<uint32_t>());
    }
    if (a.contains("med")) base.med = a["med"].get<uint32_t>();
    if (a.contains("local-preference")) base.local_pref = a["local-preference"].get<uint32_t>();
    for (const auto& c : a.value("community", json::array())) {
      base.communities.push_back(std::to_string(c[0].get<uint32_t>()) + ":" +
                                 std::to_string(c[1].get<uint32_t>()));
    }
    for (const auto& c : a.value("large-community", json::array())) {
      base.large_communities.push_back(std::to_string(c[0].get<uint32_t>()) + ":" +
                                       std::to_string(c[1].get<uint32_t>()) + ":" +
                                       std::to_string(c[2].get<uint32_t>()));
    }
    for (const auto& [family, by_nexthop] : u["announce"].items()) {
      // An IPv6 nexthop with a link-local part appears twice, the NLRI under both addresses:
      // the global one, applied last, wins.
      std::vector<std::pair<std::string, json>> groups;
      for (const auto& [nexthop, nlris] : by_nexthop.items()) groups.emplace_back(nexthop, nlris);
      std::stable_partition(groups.begin(), groups.end(),
                            [](const auto& g) { return g.first.starts_with("fe80:"); });
      for (const auto& [nexthop, nlris] : groups) {
        for (const auto& n : nlris) {
          Route r = base;
          r.prefix = n.value("nlri", "");
          r.nexthop = nexthop;
          table[r.prefix] = r;
        }
      }
    }
  }
  std::vector<Route> out;
  for (auto& [p, r] : table) out.push_back(std::move(r));
  return out;
}

StatusOr<std::vector<Route>> ExabgpSpeaker::ReceivedRoutes() {
  return ParseReceived(ReadFileTail("received.jsonl", 64 << 20));
}

Status ExabgpSpeaker::Announce(const Route& route) {
  if (auto s = SendCommand("announce " + RouteText(route)); !s.ok()) return s;
  config_.routes.push_back(route);
  return Status::Ok();
}

Status ExabgpSpeaker::Withdraw(const std::string& prefix) {
  Route probe{.prefix = prefix};
  for (const auto& r : config_.routes) {
    if (r.prefix == prefix) probe = r;
  }
  if (auto s = SendCommand("withdraw route " + prefix + " next-hop " +
                           (probe.nexthop.empty() ? "self" : probe.nexthop));
      !s.ok()) {
    return s;
  }
  std::erase_if(config_.routes, [&](const Route& x) { return x.prefix == prefix; });
  return Status::Ok();
}

Status ExabgpSpeaker::ResetSession(const std::string& neighbor) {
  return SendCommand("neighbor " + neighbor + " teardown 4");
}

std::string ExabgpSpeaker::Logs() const {
  return "--- " + dir_ + "/exabgp.log\n" + ReadFileTail("exabgp.log") + "--- " + dir_ +
         "/exabgp.out\n" + ReadFileTail("exabgp.out");
}

}  // namespace strata::interop
