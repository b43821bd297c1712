// GobgpSpeaker: GoBGP (gobgpd) as a BGP speaker of the interop harness.
//
// gobgpd runs with a TOML config and its gRPC API on a Unix socket in the speaker's directory
// (--api-hosts unix://...; the gobgp CLI uses --target). Routes, also the initial ones, are added
// and removed with `gobgp global rib add/del`; received routes come from `gobgp global rib -j`.
// Logs: gobgpd.log (plain text log at debug level).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "testing/interop/bgp_speaker.h"
#include "testing/interop/command.h"

namespace strata::interop {

class GobgpSpeaker : public BgpSpeaker {
 public:
  using BgpSpeaker::BgpSpeaker;
  ~GobgpSpeaker() override { Stop(); }

  Status Start() override;
  void Stop() override;
  bool Established(const std::string& neighbor) override;
  StatusOr<std::vector<Route>> ReceivedRoutes() override;
  Status Announce(const Route& route) override;
  Status Withdraw(const std::string& prefix) override;
  Status ResetSession(const std::string& neighbor) override;
  std::string Logs() const override;

  std::string ConfigText() const;
  // One path of `gobgp global rib -j` in the common form.
  static Route ParsePath(const std::string& prefix, const nlohmann::json& path);
  CommandResult Gobgp(const std::vector<std::string>& args);

 private:
  Daemon daemon_;
};

}  // namespace strata::interop
