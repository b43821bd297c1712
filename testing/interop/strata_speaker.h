// StrataSpeaker: Strata itself as a BGP speaker of the interop harness: strata-finder,
// strata-rib --vr <vr> and strata-bgp --vr <vr> in one namespace, sharing STRATA_RUN_DIR (the
// speaker's directory), configured and queried with strata-call (run inside the namespace too,
// so loopback TCP endpoints are reachable) through the bgp/1.0 and rib/1.0 interfaces.
//
// strata-fea is not started: instead, for every neighbour a static RIB route to its address
// (what the connected route of the shared link would give) lets strata-bgp resolve nexthops.
// Originated routes are add_network calls (bgp/1.0 networks carry no attributes, so a Route's
// attributes other than the nexthop are ignored). Received routes are list_routes with
// best_only, leaving out those originated here.
// Logs: finder.log, rib.log, bgp.log (stdout/stderr of each process, STRATA_LOG_LEVEL=debug).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/json.h"
#include "testing/interop/bgp_speaker.h"
#include "testing/interop/command.h"

namespace strata::interop {

struct StrataBinaries {
  std::string finder;  // paths of strata-finder, strata-rib, strata-bgp, strata-call
  std::string rib;
  std::string bgp;
  std::string call;
};
// The binaries in $STRATA_BIN_DIR (unset or empty: the build's bin folder), strata-bgp from
// $STRATA_BGP_BIN when set (to test another build of it).
StrataBinaries StrataBinariesFromEnv();

// A route of the RIB (rib/1.0/list_routes).
struct RibRoute {
  std::string prefix{};
  std::string nexthop{};
  std::string protocol{};
  bool stale = false;  // graceful restart: its protocol has not re-announced it yet
};

class StrataSpeaker : public BgpSpeaker {
 public:
  StrataSpeaker(const NetNs& ns, SpeakerConfig config, std::string dir, StrataBinaries bins,
                std::string vr = "default")
      : BgpSpeaker(ns, std::move(config), std::move(dir)),
        bins_(std::move(bins)),
        vr_(std::move(vr)) {}
  ~StrataSpeaker() override { Stop(); }

  Status Start() override;
  void Stop() override;
  bool Established(const std::string& neighbor) override;
  StatusOr<std::vector<Route>> ReceivedRoutes() override;
  Status Announce(const Route& route) override;
  Status Withdraw(const std::string& prefix) override;
  Status ResetSession(const std::string& neighbor) override;
  std::string Logs() const override;

  // Calls `xrl` ("finder://bgp.default/bgp/1.0/list_peers") with strata-call --json.
  StatusOr<nlohmann::json> Call(const std::string& xrl);
  // Adds a static RIB route (the "static" origin table is created on first use).
  Status AddStaticRoute(const std::string& prefix, const std::string& nexthop);
  // The winning routes of the RIB.
  StatusOr<std::vector<RibRoute>> RibRoutes();
  // The RIB's winning route for `prefix`, if any (none when the RIB does not answer).
  std::optional<RibRoute> RibRouteFor(const std::string& prefix);
  // list_peers' entry for `neighbor`, or null.
  nlohmann::json PeerStatus(const std::string& neighbor);
  // A uint64 of a list_peers entry (proto3 JSON gives it as a string); 0 when absent.
  static uint64_t Counter(const nlohmann::json& peer, const std::string& key);
  // One bgp/1.0 route in the common form (exposed for tests of the parser).
  static Route ParseRoute(const nlohmann::json& route);

  // strata-bgp alone dies by SIGKILL (no NOTIFICATION, no cleanup), as in a crash.
  void KillBgp();
  // strata-bgp started again and given the same bgp/1.0 configuration (local config, peers).
  Status RestartBgp();

  std::string bgp_target() const { return "finder://bgp." + vr_ + "/bgp/1.0/"; }
  std::string rib_target() const { return "finder://rib." + vr_ + "/rib/1.0/"; }

 private:
  Status Configure();
  Status StartBgp();
  Status ConfigureBgp();
  std::vector<std::string> Env() const;

  StrataBinaries bins_;
  std::string vr_;
  bool static_table_ = false;
  Daemon finder_;
  Daemon rib_;
  Daemon bgp_;
};

}  // namespace strata::interop
