// BgpProcess: everything one strata-bgp process runs, wired together on one io_context.
//
// Serves bgp/1.0 (BgpService) and rib_client/1.0 (invalidations, redistributed routes) on target
// "bgp.<vr>" (class "bgp"); the speaker's routes go to "rib.<vr>" through RibIpcSink and its next
// hops are resolved by RibNexthopOracle. The RIB instance is watched through the Finder: both
// hold their work while it is down and resend everything when it is (back) up. main.cc and the
// in-process tests build one of these on a Router. Peers with BFD hold sessions in strata-bfd
// (BfdLink, bfd_client/1.0 served on the same target). PrepareStop is the process's part of
// common/1.0/shutdown: a clean stop tells every peer (Cease, Administrative Shutdown) so that
// they withdraw our routes at once; a graceful one lets the sessions drop with the process, so
// peers that negotiated graceful restart keep our routes until we are back.
// Threading: the io_context thread. REQUIRES: the Router outlives this object.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "bgp/process/bfd_link.h"
#include "bgp/process/bgp_service.h"
#include "bgp/process/bgp_speaker.h"
#include "bgp/process/rib_ipc_sink.h"
#include "bgp/process/rib_nexthop_oracle.h"
#include "bgp/process/rib_redist_client.h"
#include "libipc/router.h"

namespace strata::bgp {

class BgpProcess {
 public:
  struct Options {
    std::string vr = "default";
    size_t rib_batch = 1000;   // routes per RIB call
    size_t rib_in_flight = 4;  // RIB calls outstanding at most
    // Input flow control (PipelineConfig::input_high_water / input_low_water): the sessions
    // stop reading while this many changes wait in the fanout, and read again below the low mark.
    size_t input_high_water = PipelineConfig().input_high_water;
    size_t input_low_water = PipelineConfig().input_low_water;
    PipelineClock* clock = nullptr;  // damping's time; null: real time (tests: a FakeClock)
    // How long sessions wait at start for the RIB to say whether we are restarting.
    // The RIB answers once it has heard from the FEA, at most 5 s after the question.
    std::chrono::milliseconds rib_wait{8000};
    // Redistributed routes across a RIB restart: kept stale how long, swept when (redist_stale.h).
    RedistTimers redist;
    // The VR's VRF device, which the sessions and their BFD sessions bind to ("" none;
    // common/vrf_name.h).
    std::string vrf_device;
  };

  BgpProcess(ipc::Router& router, Options options);
  ~BgpProcess();
  BgpProcess(const BgpProcess&) = delete;
  BgpProcess& operator=(const BgpProcess&) = delete;

  // "bgp.<vr>".
  const std::string& instance() const { return instance_; }
  const std::string& rib_target() const { return rib_target_; }
  // Adds the target to the router, serving `common` (common/1.0) on it too if given; call
  // before Router::Start.
  void AddTarget(ipc::Service* common = nullptr);
  // See above; `done` once the NOTIFICATIONs had time to leave.
  void PrepareStop(bool graceful, std::function<void()> done);
  // After registration: watches the RIB.
  void Started();

  BgpSpeaker& speaker() { return *speaker_; }
  const RibIpcSink& sink() const { return *sink_; }
  const RibNexthopOracle& oracle() const { return *oracle_; }
  const RibRedistClient& redist() const { return *redist_; }

 private:
  ipc::Router& router_;
  Options options_;
  std::string instance_;
  std::string rib_target_;
  std::unique_ptr<RibNexthopOracle> oracle_;
  std::unique_ptr<RibIpcSink> sink_;
  std::unique_ptr<BgpSpeaker> speaker_;
  std::unique_ptr<RibRedistClient> redist_;
  std::unique_ptr<BfdLink> bfd_;
  std::unique_ptr<BgpService> service_;
  std::unique_ptr<boost::asio::steady_timer> hold_timer_;
  std::unique_ptr<boost::asio::steady_timer> stop_timer_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::bgp
