#include "bench/bgp/bgp_profile_phase.h"

#include <chrono>
#include <sstream>
#include <thread>

#include "bench/bgp/bgp_probe.h"

namespace strata::bench {
namespace {

using namespace std::chrono_literals;

template <typename Pred>
bool WaitUntil(Pred pred, Clock::time_point end) {
  while (!pred()) {
    if (Clock::now() > end) return false;
    std::this_thread::sleep_for(50us);
  }
  return true;
}

}  // namespace

std::vector<ipc::PointRecord> ParseProfileDump(const std::string& text) {
  std::vector<ipc::PointRecord> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream l(line);
    long long t = 0;
    std::string point;
    if (!(l >> t >> point)) continue;
    std::string detail;
    std::getline(l >> std::ws, detail);
    out.push_back({point, {t, detail}});
  }
  return out;
}

ProfileScenario RunProfileScenario(RouterDriver& driver, const std::string& name,
                                   TesterSession& feeder, uint32_t feeder_as,
                                   const char* feeder_addr, RouteCounter& counter,
                                   const IpPrefix& probe, size_t watch, int samples) {
  ProfileScenario sc;
  sc.name = name;
  if (auto on = driver.Profile({"enable"}); !on.ok()) {
    sc.error = on.status().message();
    return sc;
  }
  const auto announce = Concat(bgp::PackAnnouncements(
      ProbeAttrs(feeder_as, feeder_addr), bgp::kIpv4Unicast, {&probe, 1}, feeder.codec()));
  const auto withdraw =
      Concat(bgp::PackWithdrawals(bgp::kIpv4Unicast, {&probe, 1}, feeder.codec()));
  for (int i = 0; i < samples; ++i) {
    const auto t0 = Clock::now();
    counter.ResetWatch(watch);
    (void)feeder.Send(announce);
    if (!WaitUntil([&] { return counter.announced_at(watch) != 0; }, t0 + 1s)) ++sc.lost;
    std::this_thread::sleep_until(t0 + 1s);
    (void)feeder.Send(withdraw);
    WaitUntil([&] { return counter.withdrawn_at(watch) != 0; }, t0 + 2s);
    std::this_thread::sleep_until(t0 + 2s);
  }
  (void)driver.Profile({"disable"});
  auto dump = driver.Profile({"dump"});
  if (!dump.ok()) {
    sc.error = dump.status().message();
    return sc;
  }
  sc.summary = ipc::SummarizeProfile(ParseProfileDump(*dump), ipc::DefaultProfileOrder(),
                                     kProfileBgpIn, "add " + probe.ToString());
  return sc;
}

}  // namespace strata::bench
