#include "testing/interop/restart_lab.h"

#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "testing/process_harness.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

constexpr int kGateways = 40;
constexpr int kFirstGateway = 10;

std::string Tail(const std::string& path, size_t max) {
  std::ifstream in(path);
  std::ostringstream b;
  b << in.rdbuf();
  std::string t = b.str();
  return t.size() > max ? t.substr(t.size() - max) : t;
}

}  // namespace

StatusOr<std::unique_ptr<RestartLab>> RestartLab::Create(Options options) {
  std::unique_ptr<RestartLab> lab(new RestartLab(std::move(options)));
  std::filesystem::create_directories(lab->options_.dir);
  lab->run_dir_ = lab->options_.dir + "/run";
  std::filesystem::create_directories(lab->run_dir_);
  auto b = NetNs::Create("rb");
  if (!b.ok()) return b.status();
  lab->bird_ns_ = std::move(*b);
  auto r = NetNs::Create("rr");
  if (!r.ok()) return r.status();
  lab->router_ns_ = std::move(*r);
  auto link = VethLink::Create(*lab->bird_ns_, *lab->router_ns_, 1);
  if (!link.ok()) return link.status();
  lab->link_ = std::move(*link);
  lab->announced_.insert(lab->options_.table.begin(), lab->options_.table.end());
  lab->gateways_.reserve(lab->options_.table.size());
  for (size_t i = 0; i < lab->options_.table.size(); ++i) {
    lab->gateways_.emplace(
        lab->options_.table[i],
        *IpAddr::Parse("10.200.1." +
                       std::to_string(kFirstGateway + static_cast<int>(i % kGateways))));
  }
  fea::netlink::RouteMonitor::Options mo;
  mo.netns = lab->router_ns_->name();
  mo.table = kTable;
  mo.protocol = kProtocol;
  mo.keep_events = lab->options_.keep_events;
  auto mon = fea::netlink::RouteMonitor::Start(mo);
  if (!mon.ok()) return mon.status();
  lab->monitor_ = std::move(*mon);
  return lab;
}

RestartLab::~RestartLab() {
  if (monitor_) monitor_->Stop();
  // A clean stop first, then whatever still runs with the lab's run directory.
  rtrmgr_.Stop(20s);
  bird_.Stop();
  for (pid_t p : RouterProcesses()) ::kill(p, SIGKILL);
}

Status RestartLab::WriteBirdRoutes() const {
  std::ofstream f(options_.dir + "/bird-routes.conf");
  for (size_t i = 0; i < options_.table.size(); ++i) {
    const IpPrefix& p = options_.table[i];
    if (!announced_.contains(p)) continue;
    f << "route " << p.ToString() << " via 10.200.1."
      << kFirstGateway + static_cast<int>(i % kGateways) << ";\n";
  }
  return f ? Status::Ok() : Internal("cannot write " + options_.dir + "/bird-routes.conf");
}

Status RestartLab::StartBird() {
  if (Status s = WriteBirdRoutes(); !s.ok()) return s;
  std::ofstream c(options_.dir + "/bird.conf");
  c << "log \"" << options_.dir << "/bird.log\" all;\n"
    << "router id 10.200.1.1;\n"
    << "protocol device {}\n"
    // BIRD reads an include only at the start of a line.
    << "protocol static st4 {\n  ipv4;\n  include \"" << options_.dir << "/bird-routes.conf\";\n}\n"
    << "protocol bgp nb0 {\n"
    << "  local 10.200.1.1 as 65010;\n"
    << "  neighbor 10.200.1.2 as 65001;\n"
    << "  hold time 9; keepalive time 3; connect retry time 1; connect delay time 1;\n"
    << "  error wait time 1, 5;\n"
    << "  graceful restart on;\n"
    << "  debug { states };\n"
    << "  ipv4 { import none; export all; next hop keep; };\n"
    << "}\n";
  c.close();
  const std::string dir = options_.dir;
  if (Status s = bird_.Start(bird_ns_->Wrap({"bird", "-f", "-c", dir + "/bird.conf", "-s",
                                             dir + "/bird.ctl", "-P", dir + "/bird.pid"}),
                             dir + "/bird.out");
      !s.ok()) {
    return s;
  }
  if (!PollUntil(
          [&] {
            return RunCommand({"birdc", "-s", dir + "/bird.ctl", "show", "status"}).ok();
          },
          10s)) {
    return Unavailable("bird did not start: " + Tail(dir + "/bird.out", 2000));
  }
  return Status::Ok();
}

std::string RestartLab::RouterConfig() const {
  const std::string ifname = link_->b_ifname();
  return "interfaces {\n    interface " + ifname +
         " { description \"to BIRD\"; }\n}\n"
         "policy {\n    policy-statement accept-all {\n"
         "        term all { then { action accept; } }\n    }\n}\n"
         "virtual-router lab {\n    table-id 100;\n    interface " +
         ifname +
         ";\n    bgp {\n        local-as 65001;\n        router-id 10.255.0.1;\n"
         "        peer 10.200.1.1 {\n            as 65010;\n"
         "            local-address 10.200.1.2;\n            hold-time 9;\n"
         "            import accept-all;\n        }\n    }\n}\n";
}

Status RestartLab::StartRouter(const std::vector<std::string>& extra) {
  const std::string conf = options_.dir + "/router.conf";
  std::ofstream(conf) << RouterConfig();
  std::vector<std::string> argv = {"env",
                                   "STRATA_RUN_DIR=" + run_dir_,
                                   options_.bin_dir + "/strata-rtrmgr",
                                   "-c",
                                   conf,
                                   "--bin-dir",
                                   options_.bin_dir,
                                   "--log-dir",
                                   options_.dir + "/logs",
                                   "--state-dir",
                                   options_.dir + "/state"};
  argv.insert(argv.end(), options_.rtrmgr_args.begin(), options_.rtrmgr_args.end());
  argv.insert(argv.end(), extra.begin(), extra.end());
  return rtrmgr_.Start(router_ns_->Wrap(argv), options_.dir + "/rtrmgr.log");
}

bool RestartLab::SignalRouter(int sig, std::chrono::milliseconds limit) {
  if (rtrmgr_.pid() <= 0) return true;
  ::kill(rtrmgr_.pid(), sig);
  return PollUntil([&] { return !rtrmgr_.Running(); }, limit);
}

json RestartLab::Call(const std::string& xrl) const {
  const auto r = router_ns_->Exec(
      {"env", "STRATA_RUN_DIR=" + run_dir_, options_.bin_dir + "/strata-call", "--json", xrl}, 10s);
  if (!r.ok()) return nullptr;
  return json::parse(r.output, nullptr, false);
}

json RestartLab::Process(const std::string& instance) const {
  const json j = Call("finder://rtrmgr/rtrmgr/1.0/list_processes");
  if (!j.is_object()) return nullptr;
  for (const auto& p : j.value("processes", json::array())) {
    if (p.value("instance", "") == instance) return p;
  }
  return nullptr;
}

pid_t RestartLab::Pid(const std::string& instance) const {
  const json p = Process(instance);
  return p.is_object() ? p.value("pid", 0) : 0;
}

std::vector<pid_t> RestartLab::RouterProcesses() const {
  return strata::testing::ProcessHarness::RunningIn(run_dir_);
}

bool RestartLab::Established() const {
  const json j = Call("finder://bgp.lab/bgp/1.0/list_peers");
  if (!j.is_object()) return false;
  for (const auto& p : j.value("peers", json::array())) {
    if (p.value("state", "") == "Established") return true;
  }
  return false;
}

int RestartLab::SessionDowns() const {
  std::ifstream in(options_.dir + "/bird.log");
  std::string line;
  int downs = 0;
  while (std::getline(in, line)) {
    if (line.find("nb0: State changed to down") != std::string::npos) ++downs;
  }
  return downs;
}

StatusOr<std::vector<IpPrefix>> RestartLab::Withdraw(size_t n) {
  std::vector<IpPrefix> gone;
  for (const IpPrefix& p : options_.table) {
    if (gone.size() == n) break;
    if (announced_.erase(p) > 0) gone.push_back(p);
  }
  if (Status s = WriteBirdRoutes(); !s.ok()) return s;
  const auto r = RunCommand({"birdc", "-s", options_.dir + "/bird.ctl", "configure"}, 30s);
  if (!r.ok()) return Unavailable("birdc configure: " + r.output);
  return gone;
}

void RestartLab::FaultBegins() {
  before_fault_.clear();
  monitor_->ForEach([&](const IpPrefix& p, const fea::KernelRoute&) { before_fault_.insert(p); });
  monitor_->Reset();
}

std::vector<std::pair<IpPrefix, fea::netlink::RouteMonitor::Tally>> RestartLab::Touched(
    const std::set<IpPrefix>& withdrawn) const {
  std::vector<std::pair<IpPrefix, fea::netlink::RouteMonitor::Tally>> out;
  for (const auto& [prefix, t] : monitor_->tallies()) {
    if (t.deletes + t.replaces + t.adds == 0 || withdrawn.contains(prefix) ||
        !before_fault_.contains(prefix)) {
      continue;
    }
    out.emplace_back(prefix, t);
  }
  return out;
}

std::string RestartLab::Diff::ToString() const {
  return std::to_string(missing) + " missing, " + std::to_string(extra) + " extra, " +
         std::to_string(wrong) + " through another gateway" +
         (first.empty() ? "" : " (" + first + ")");
}

RestartLab::Diff RestartLab::Compare() const {
  Diff d;
  size_t present = 0;
  monitor_->ForEach([&](const IpPrefix& p, const fea::KernelRoute& r) {
    const bool gateway = !r.nexthops.empty() && r.nexthops[0].gateway.has_value();
    if (!gateway) return;  // the link's connected routes
    if (!announced_.contains(p)) {
      if (d.first.empty()) d.first = p.ToString() + " extra";
      ++d.extra;
      return;
    }
    ++present;
    if (r.nexthops.size() != 1 || *r.nexthops[0].gateway != GatewayOf(p)) {
      if (d.first.empty()) d.first = r.ToString() + " wants " + GatewayOf(p).ToString();
      ++d.wrong;
    }
  });
  d.missing = announced_.size() - present;
  if (d.missing > 0 && d.first.empty()) d.first = "routes missing";
  return d;
}

bool RestartLab::WaitExact(std::chrono::milliseconds limit) const {
  return PollUntil([&] { return Compare().exact(); }, limit);
}

size_t RestartLab::KernelRoutes() const {
  size_t n = 0;
  for (const char* family : {"-4", "-6"}) {
    const auto r = router_ns_->Exec(
        {"ip", family, "route", "show", "table", "all", "proto", std::to_string(kProtocol)}, 60s);
    n += static_cast<size_t>(std::count(r.output.begin(), r.output.end(), '\n'));
  }
  return n;
}

size_t RestartLab::NexthopObjects() const {
  const auto r =
      router_ns_->Exec({"ip", "nexthop", "show", "proto", std::to_string(kProtocol)}, 30s);
  return static_cast<size_t>(std::count(r.output.begin(), r.output.end(), '\n'));
}

std::string RestartLab::Logs() const {
  std::string s;
  for (const char* f :
       {"rtrmgr.log", "logs/rtrmgr.log", "logs/fea.log", "logs/rib.lab.log", "logs/bgp.lab.log"}) {
    s += std::string("--- ") + f + "\n" + Tail(options_.dir + "/" + f, 6000) + "\n";
  }
  return s;
}

}  // namespace strata::interop
