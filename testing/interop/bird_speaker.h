// BirdSpeaker: BIRD 2 as a BGP speaker of the interop harness.
//
// Runs `bird -f` in the namespace with its own config file and control socket (birdc -s) in
// the speaker's directory. Originated routes are static blackhole routes; their attributes are
// set in the BGP export filter (BIRD sends a MED to an eBGP peer only when the export filter
// set it; an originated route's as_path follows BIRD's own AS, its nexthop replaces the
// session's). Announce/Withdraw rewrite the config and run `birdc configure`. One BGP protocol per
// neighbour, named nb<index>; received routes are parsed from `show route all primary`.
// Logs: bird.log (BIRD's own log, all classes) and bird.out (stdout/stderr).
#pragma once

#include "testing/interop/bgp_speaker.h"
#include "testing/interop/command.h"

namespace strata::interop {

class BirdSpeaker : public BgpSpeaker {
 public:
  using BgpSpeaker::BgpSpeaker;
  ~BirdSpeaker() override { Stop(); }

  Status Start() override;
  void Stop() override;
  bool Established(const std::string& neighbor) override;
  StatusOr<std::vector<Route>> ReceivedRoutes() override;
  Status Announce(const Route& route) override;
  Status Withdraw(const std::string& prefix) override;
  Status ResetSession(const std::string& neighbor) override;
  std::string Logs() const override;

  // The configuration BIRD runs with; `dir` holds its log file.
  static std::string MakeConfig(const SpeakerConfig& config, const std::string& dir);
  // Parses `birdc show route all` output (exposed for tests of the parser).
  static std::vector<Route> ParseRoutes(const std::string& text);
  // Runs a birdc command against this instance.
  CommandResult Birdc(const std::vector<std::string>& args);
  // The state of BIRD's BFD session with `peer` ("up", "down", "init"; "" when none), from
  // `show bfd sessions`.
  std::string BfdState(const std::string& peer);
  // BIRD dies by SIGKILL (no NOTIFICATION), as in a crash.
  void Kill();
  // BIRD started again in graceful restart recovery (bird -R: R and F bits in its OPENs; it
  // sends its routes and End-of-RIB once its peers' End-of-RIBs are in), originating `routes`.
  Status RestartGracefully(const std::vector<Route>& routes);

 private:
  Status StartBird(const std::vector<std::string>& extra);
  std::string ProtocolFor(const std::string& neighbor) const;
  Status WriteConfig() const;

  Daemon daemon_;
};

}  // namespace strata::interop
