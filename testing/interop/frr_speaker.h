// FrrSpeaker: FRR's bgpd as a BGP speaker of the interop harness.
//
// zebra (as user frr), bfdd (when a neighbour has BFD) and bgpd (-S: as root) run with their config
// files, pid files, zebra's API socket (-z) and vty socket directory (--vty_socket) in the
// speaker's directory; vtysh talks to them with the same --vty_socket. zebra is needed: without it
// (bgpd -Z) bgpd knows no interfaces and treats an IPv6 UPDATE with a link-local nexthop as
// withdraw ("sent a v6 LL next-hop and there's no peer interface information"), and cannot validate
// iBGP nexthops. zebra installs the best routes in the namespace's kernel table, which is private
// to the test. Originated routes are `network` statements with a route-map each for their
// attributes; Announce/Withdraw add and remove them through vtysh. Received routes come from `show
// bgp <afi> unicast [<prefix>] json`. Logs: bgpd.log, zebra.log (FRR's log files), bgpd.out and
// zebra.out (stdout/stderr).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "testing/interop/bgp_speaker.h"
#include "testing/interop/command.h"

namespace strata::interop {

class FrrSpeaker : public BgpSpeaker {
 public:
  using BgpSpeaker::BgpSpeaker;
  ~FrrSpeaker() override { Stop(); }

  Status Start() override;
  void Stop() override;
  bool Established(const std::string& neighbor) override;
  StatusOr<std::vector<Route>> ReceivedRoutes() override;
  Status Announce(const Route& route) override;
  Status Withdraw(const std::string& prefix) override;
  Status ResetSession(const std::string& neighbor) override;
  std::string Logs() const override;

  std::string ConfigText() const;
  // bgpd's configuration for `config`; `dir` holds its log file.
  static std::string MakeConfig(const SpeakerConfig& config, const std::string& dir);
  // One path of `show bgp ... <prefix> json` in the common form.
  static Route ParsePath(const std::string& prefix, const nlohmann::json& path);
  // bfdd's `show bfd peers json` (null when it does not answer); bfdd runs when a neighbour
  // has bfd_interval_ms.
  nlohmann::json BfdPeers();
  // Runs vtysh with one -c per command.
  CommandResult Vtysh(const std::vector<std::string>& commands);
  // `router bgp` lines for the neighbours' confederation and graceful restart settings.
  static std::vector<std::string> RouterLines(const SpeakerConfig& config);
  // bfdd's configuration: a profile per BFD interval the neighbours use.
  static std::string BfddConfig(const SpeakerConfig& config, const std::string& dir);

  // bgpd alone dies by SIGKILL (no NOTIFICATION), as in a crash; zebra stays.
  void KillBgpd();
  // bgpd started again with its configuration, originating `routes`.
  Status RestartBgpd(const std::vector<Route>& routes);

 private:
  Status StartBgpd();
  // Route-map statements that set `route`'s attributes, and the network statement using it.
  static std::vector<std::string> RouteMapLines(const Route& route);
  static std::string NetworkLine(const Route& route);
  static std::string BfdProfile(const Neighbor& n);
  static bool UsesBfd(const SpeakerConfig& config);

  Daemon zebra_;
  Daemon bfdd_;
  Daemon daemon_;
};

}  // namespace strata::interop
