#include "bgp/process/bgp_process.h"

#include "libipc/profile/profile_service.h"

namespace strata::bgp {

BgpProcess::BgpProcess(ipc::Router& router, Options options)
    : router_(router),
      options_(std::move(options)),
      instance_("bgp." + options_.vr),
      rib_target_("rib." + options_.vr) {
  oracle_ = std::make_unique<RibNexthopOracle>(router_, rib_target_, instance_);
  RibIpcSink::Options so;
  so.rib_target = rib_target_;
  so.owner = instance_;
  so.max_batch = options_.rib_batch;
  so.max_in_flight = options_.rib_in_flight;
  // Graceful restart (RFC 4724): our routes outlive us in the RIB; finding them stale there at
  // start means we are restarting (bgp_speaker_restart.cc).
  so.graceful_restart = true;
  // The RIB keeps them as long as peers are told to wait for us (set again by set_local_config).
  so.restart_time_s = GracefulRestartConfig{}.restart_time;
  so.on_restart_state = [this](bool restarting) {
    // Called before the tables are registered: the RIB learns how long we defer.
    if (speaker_) sink_->set_selection_deferral(speaker_->selection_deferral_time());
    if (speaker_ && speaker_->holding_sessions()) speaker_->SetRestarting(restarting);
  };
  sink_ = std::make_unique<RibIpcSink>(router_, so, [this](const BgpRoute& r) {
    return speaker_ && r.peer && r.peer->id == speaker_->local_peer();
  });
  BgpSpeaker::Hooks hooks;
  hooks.before_rebuild = [this] {
    sink_->clear();
    oracle_->reset();
  };
  hooks.restart_done = [this] { sink_->graceful_restart_done(); };
  hooks.export_protocols_changed = [this](const std::vector<std::string>& protocols) {
    if (redist_) redist_->set_policy_protocols(protocols);
  };
  speaker_ = std::make_unique<BgpSpeaker>(router_.io(), *oracle_, *sink_, std::move(hooks),
                                          options_.clock);
  speaker_->set_input_water(options_.input_high_water, options_.input_low_water);
  speaker_->set_bind_device(options_.vrf_device);
  redist_ = std::make_unique<RibRedistClient>(router_, rib_target_, instance_, *speaker_,
                                              options_.redist);
  oracle_->set_redist(redist_.get());
  bfd_ = std::make_unique<BfdLink>(
      router_, instance_, [this] { return speaker_->usable_device(); },
      [this](const IpAddr& peer, const std::string&) {
        (void)speaker_->BfdDown(peer);  // NOT_FOUND: deleted meanwhile
      });
  service_ = std::make_unique<BgpService>(*speaker_, sink_.get(), oracle_.get());
  service_->set_redist(redist_.get());
  service_->set_bfd(bfd_.get());
  // Sessions wait until the RIB said whether we restart (or, without a RIB, a few seconds).
  speaker_->HoldSessions();
}

BgpProcess::~BgpProcess() {
  service_.reset();
  bfd_.reset();
  oracle_->set_redist(nullptr);
  redist_.reset();
  speaker_.reset();
}

void BgpProcess::AddTarget(ipc::Service* common) {
  ipc::Target& target = router_.AddTarget("bgp", instance_, false);
  if (common != nullptr) target.Serve(*common);
  target.Serve(*service_);
  target.Serve(*oracle_);
  target.Serve(*bfd_);
  target.Serve(ipc::ProfileService::ForProcess());
}

void BgpProcess::Started() {
  bfd_->Started();
  router_.WatchInstance(rib_target_, [this, alive = std::weak_ptr<bool>(alive_)](
                                         const std::string&, const std::string&, bool up) {
    if (alive.expired()) return;
    oracle_->rib_event(up);
    sink_->rib_event(up);
    redist_->rib_event(up);
  });
  hold_timer_ = std::make_unique<boost::asio::steady_timer>(router_.io(), options_.rib_wait);
  hold_timer_->async_wait(
      [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
        if (ec || alive.expired() || !speaker_->holding_sessions()) return;
        speaker_->SetRestarting(false);  // no RIB answer: start afresh
      });
}

void BgpProcess::PrepareStop(bool graceful, std::function<void()> done) {
  if (graceful) {
    done();
    return;
  }
  const size_t peers = speaker_->StopSessions();
  // The NOTIFICATIONs are queued on their connections, which close once they are written.
  stop_timer_ = std::make_unique<boost::asio::steady_timer>(
      router_.io(), std::chrono::milliseconds(peers > 0 ? 300 : 0));
  stop_timer_->async_wait([done = std::move(done)](const boost::system::error_code&) { done(); });
}

}  // namespace strata::bgp
