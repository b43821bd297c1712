// BgpSpeaker: the BGP speaker of one virtual router, as core operations on core types (the IPC
// adapter, BgpService, converts to and from bgp.proto).
//
// Owns the TaskScheduler (slices posted on the io_context), the BgpPipeline, the attribute
// interner, the BgpListener and one BgpPeer per configured neighbor; keeps the networks we
// originate and the policy statements. The NexthopOracle and RibSink (the RIB over IPC in the
// process, fakes in tests) are the caller's.
// Networks enter the pipeline through a local pseudo-peer (id local_peer(), address zero, an
// external peer of AS 0 so its routes go to every peer): ORIGIN IGP, empty AS_PATH, next hop
// as given or the zero address ("self": the nexthop resolver takes it as usable, the export
// hook replaces it by the session's local address, the RIB sink skips these routes).
// The pipeline is built by the first set_local_config and rebuilt (every session reset) when the
// AS or router id changes. Every operation checks all of its arguments before changing anything.
// Threading: the io_context thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bgp/pipeline/bgp_pipeline.h"
#include "bgp/policy/policy.h"
#include "bgp/policy/vr_policy.h"
#include "bgp/process/attribute_interner.h"
#include "bgp/process/bgp_peer.h"
#include "bgp/rpki/rtr_client.h"
#include "bgp/rpki/vrp_table.h"
#include "bgp/session/bgp_listener.h"
#include "common/asio_clock.h"
#include "common/journal_poller.h"
#include "common/log.h"
#include "common/task_scheduler.h"

namespace strata::bgp {

struct LocalConfig {
  uint32_t local_as = 0;
  IpAddr router_id;
  std::optional<IpAddr> listen_address;  // unset: any (IPv4 and IPv6)
  uint16_t port = 179;
  std::optional<IpAddr> cluster_id;        // RFC 4456 CLUSTER_ID (IPv4); unset: the router id
  GracefulRestartConfig graceful_restart;  // RFC 4724 restart and stale times
  // RFC 5065: local_as is then our member AS. Changing it resets every session.
  Confederation confed;
  friend bool operator==(const LocalConfig&, const LocalConfig&) = default;
};

StatusOr<PolicyDirection> ParsePolicyDirection(std::string_view text);

class BgpSpeaker {
 public:
  struct Hooks {
    std::function<void()> before_rebuild;  // the pipeline is about to go (reset oracle and sink)
    // Restarting speaker: every graceful restart peer sent End-of-RIB (or the deferral timer
    // ended): the RIB may drop what the previous incarnation left (bgp_speaker_restart.cc).
    std::function<void()> restart_done;
    // The protocols the export policies in use match on (ExportProtocols) changed: the RIB
    // should redistribute these (with those of `redistribute`).
    std::function<void(const std::vector<std::string>&)> export_protocols_changed;
  };

  // `clock` drives route flap damping (null: real time on `io`; tests pass a FakeClock).
  BgpSpeaker(boost::asio::io_context& io, NexthopOracle& oracle, RibSink& rib, Hooks hooks = {},
             PipelineClock* clock = nullptr);
  ~BgpSpeaker();
  BgpSpeaker(const BgpSpeaker&) = delete;
  BgpSpeaker& operator=(const BgpSpeaker&) = delete;

  Status SetLocalConfig(const LocalConfig& config);
  // settings.session's local_as and router_id are filled in here.
  Status AddPeer(PeerSettings settings);
  // All or nothing: everything add_peer checks, and what the kernel must accept (the listener's
  // MD5 key, a probe socket with the local address, TTLs and key), is checked before the old
  // session goes; when building the new peer still fails, the old one is built again from its
  // settings (its session comes back and brings its routes) and the error is returned.
  // Description, enabled, ebgp_requires_policy and the max_prefixes settings change in place.
  Status ChangePeer(PeerSettings settings);
  Status DeletePeer(const IpAddr& peer);
  Status EnablePeer(const IpAddr& peer);
  Status DisablePeer(const IpAddr& peer);
  // The process stops cleanly: every session is closed with a Cease (Administrative Shutdown).
  // Returns how many peers there were.
  size_t StopSessions();
  Status ResetPeer(const IpAddr& peer);
  // The peer's BFD session went down (BgpPeer::BfdDown).
  Status BfdDown(const IpAddr& peer);
  Status SoftResetPeer(const IpAddr& peer, std::string_view direction);

  Status AddNetwork(const IpPrefix& prefix, std::optional<IpAddr> nexthop);
  Status DeleteNetwork(const IpPrefix& prefix);
  // Aggregates (BgpPipeline::set_aggregate), kept across pipeline rebuilds.
  Status AddAggregate(const AggregateConfig& config);
  Status DeleteAggregate(const IpPrefix& prefix);
  // Routes redistributed from the RIB (bgp_speaker_redist.cc): originated like networks but with
  // ORIGIN INCOMPLETE and the route's next hop (zero: self); the export policy's `protocol` match
  // sees `protocol`. A prefix also originated by AddNetwork is the network's (add_network wins);
  // the redistributed route is kept and comes back when the network is deleted. Adding a route
  // identical to the one held (after the next hop is normalised) changes nothing.
  struct RedistRoute {
    std::string protocol;
    std::optional<IpAddr> nexthop;
  };
  Status RedistAdd(const IpPrefix& prefix, RedistRoute route);
  Status RedistDelete(const IpPrefix& prefix);
  const std::map<IpPrefix, RedistRoute>& redistributed() const { return redist_; }

  Status DefinePolicy(Policy policy);
  Status DeletePolicy(const std::string& name);
  Status SetPeerPolicy(const IpAddr& peer, PolicyDirection direction, const std::string& name);
  Status ClearPeerPolicy(const IpAddr& peer, PolicyDirection direction);
  // The VR's policies (vr_policy.h), inherited by peers without their own for that direction;
  // a change re-filters the routes of every inheriting peer in the background. A missing policy
  // is NOT_FOUND and the old one stays.
  Status SetVrPolicy(PolicyDirection direction, const std::string& name);
  Status ClearVrPolicy(PolicyDirection direction);
  const VrPolicies& vr_policies() const { return vr_policies_; }
  // The protocols the export policies attached (the VR's and every peer's own) match on.
  const std::vector<std::string>& export_protocols() const { return export_protocols_; }

  // Route flap damping of eBGP routes (nullopt: off); kept across pipeline rebuilds.
  Status SetDamping(std::optional<DampingParams> params);
  const std::optional<DampingParams>& damping() const { return damping_; }

  // Equal-cost multipath (BgpPipeline::set_multipath); kept across pipeline rebuilds. Errors: a
  // path count outside 1..64.
  Status SetMultipath(const MultipathConfig& config);
  const MultipathConfig& multipath() const { return multipath_; }

  // RPKI route origin validation (bgp_speaker_rpki.cc): RTR sessions to `caches` (none: off,
  // every route unverified); the VRPs they give are posted to this thread (RtrClient) and
  // applied to vrps(), and the pipeline validates again the routes they cover. Kept across
  // pipeline rebuilds. Errors: invalid timers or caches.
  Status SetRpki(std::vector<RtrCacheConfig> caches, RtrTimers timers);
  bool rpki_enabled() const { return rtr_ != nullptr; }
  const std::vector<RtrCacheConfig>& rpki_caches() const { return rpki_caches_; }
  const RtrTimers& rpki_timers() const { return rpki_timers_; }
  const VrpTable& vrps() const { return vrps_; }
  const RtrClient* rtr() const { return rtr_.get(); }
  // Applies VRP updates as RtrClient delivers them (public for tests that feed VRPs directly).
  void ApplyVrpUpdates(const std::vector<VrpUpdate>& updates);
  // Restarting speaker (RFC 4724 4.1, bgp_speaker_restart.cc). HoldSessions: sessions of peers
  // added from now on wait (their OPEN depends on it) until SetRestarting says whether this
  // process restarted with its routes kept (the RIB holds them stale): then our OPENs carry the
  // R bit and the F bit per family, our End-of-RIB waits until every graceful restart peer has
  // sent its End-of-RIB or stale_time passes, and then Hooks::restart_done runs.
  void HoldSessions() { hold_sessions_ = true; }
  void SetRestarting(bool restarting);
  bool restarting() const { return restarting_; }
  // Seconds our route selection waits at most for the peers' End-of-RIB when restarting.
  uint32_t selection_deferral_time() const;
  // Restarting and still waiting for End-of-RIB: the deferral timer's time left.
  std::optional<std::chrono::seconds> deferral_remaining() const;
  // Restarting: the graceful restart peers whose End-of-RIB is still awaited.
  std::vector<IpAddr> awaited_end_of_rib() const;
  bool holding_sessions() const { return hold_sessions_; }

  // `monitor bgp updates`: the UPDATEs every peer received and was sent (update_journal.h),
  // after `after` (0: from the next one), answered as soon as there are any or empty after
  // `timeout` (JournalPoller).
  void WatchUpdates(std::optional<uint64_t> after, size_t max, std::chrono::milliseconds timeout,
                    UpdateJournal::Answer answer) {
    update_poller_.Poll(after, max, timeout, std::move(answer));
  }
  const UpdateJournal& update_journal() const { return update_journal_; }

  bool configured() const { return pipeline_ != nullptr; }
  const std::optional<LocalConfig>& local_config() const { return local_; }
  // The route reflection CLUSTER_ID in use (REQUIRES: configured()).
  IpAddr cluster_id() const { return local_->cluster_id.value_or(local_->router_id); }
  BgpPipeline* pipeline() { return pipeline_.get(); }
  PeerId local_peer() const { return local_peer_id_; }
  const std::map<IpAddr, std::unique_ptr<BgpPeer>>& peers() const { return peers_; }
  const BgpPeer* peer(const IpAddr& a) const;
  const std::map<IpPrefix, std::optional<IpAddr>>& networks() const { return networks_; }
  const std::map<std::string, PolicyRef>& policies() const { return policies_; }
  std::vector<uint16_t> listen_ports() const;
  size_t attribute_sets() { return interner_.size(); }
  size_t background_tasks() const { return scheduler_.pending(); }
  // Input flow control (PipelineConfig::input_high_water): whether the sessions are not being
  // read now, and how often they were stopped.
  bool input_paused() const { return input_paused_; }
  // The marks (PipelineConfig::input_high_water / input_low_water), for the pipelines to come.
  // REQUIRES: low <= high.
  void set_input_water(size_t high, size_t low) {
    input_high_water_ = high;
    input_low_water_ = low;
  }
  uint64_t input_pauses() const { return input_pauses_; }
  // The VR's VRF device (common/vrf_name.h; "" none): the listener and every session's
  // sockets bind to it (SO_BINDTODEVICE), so that the VR's sessions use its table and its
  // addresses, and two VRs can have peers of the same address. Set before SetLocalConfig.
  void set_bind_device(std::string device) { bind_device_ = std::move(device); }
  const std::string& bind_device() const { return bind_device_; }
  // bind_device() when the kernel has it, else "" (logged).
  std::string usable_device() const;
  // Pipeline slices run at the end of a peer's read rather than after the next socket poll.
  uint64_t slices_after_input() const { return slices_after_input_; }
  // Test seam: called before each peer is built (add_peer, change_peer and its restore); a
  // non-OK status fails that build as a kernel refusal would.
  void set_peer_build_check(std::function<Status(const PeerSettings&)> check) {
    build_check_ = std::move(check);
  }

 private:
  // Local pseudo-peer's sink: our own routes are not sent anywhere through it.
  class NullSink : public SessionSink {
   public:
    void send_updates(UpdateBatch) override {}
    bool busy() const override { return false; }
  };

  BgpPeer* find(const IpAddr& a);
  StatusOr<PolicyRef> policy_or_null(const std::string& name) const;
  Status build_pipeline();
  void teardown_pipeline();
  StatusOr<std::unique_ptr<BgpListener>> open_listener(const LocalConfig& c) const;
  // Whether the listener open_listener(c) opens accepts connections to `addr` port `port`.
  static bool listens_on(const LocalConfig& c, const IpAddr& addr, uint16_t port);
  StatusOr<std::unique_ptr<BgpPeer>> make_peer(PeerSettings settings);
  // Fills in what the speaker decides (local AS, router id, graceful restart, iBGP TTL) and
  // checks the settings, with the kernel too (ProbeSessionSocket); a peer on the speaker's own
  // listening socket is refused (it would connect to itself).
  Status prepare_settings(PeerSettings& settings) const;
  // The old peer's session stays as it is; its in-place settings are set.
  void change_in_place(BgpPeer& p, const PeerSettings& settings);
  void inject_redist(const IpPrefix& prefix, const RedistRoute& route);
  void withdraw_local(const IpPrefix& prefix);
  void inject_network(const IpPrefix& prefix, const std::optional<IpAddr>& nexthop);
  // Posts run_slice unless one is posted.
  void post_slice();
  void run_slice();
  // A peer's read is through the pipeline: the posted slice runs now.
  void input_done();
  // Sets the capability (and the helper's settings) from the peer's flag and our state.
  void apply_graceful_restart(PeerSettings& settings) const;
  void apply_long_lived_graceful_restart(PeerSettings& settings) const;
  void check_restart_done();
  // The wait for End-of-RIB is over: once the pipeline settled, complete_restart.
  void finish_restart(const char* why);
  bool selection_settled() const;
  void await_settled();
  void complete_restart();
  // Builds every peer again (their session settings changed); sessions reset.
  void readd_peers();
  // Recomputes export_protocols_ (with the VR's export policy, or a peer's own, about to be
  // `vr_export` / `peer`'s name); tells Hooks::export_protocols_changed when they changed.
  void update_export_protocols(std::optional<std::string> vr_export = std::nullopt,
                               std::optional<std::pair<IpAddr, std::string>> peer = std::nullopt);

  boost::asio::io_context& io_;
  NexthopOracle& oracle_;
  RibSink& rib_;
  Hooks hooks_;
  std::shared_ptr<spdlog::logger> log_;
  TaskScheduler scheduler_;
  bool slice_posted_ = false;
  uint64_t slice_ticket_ = 0;  // the posted slice runs only if nothing ran one since
  uint64_t slices_after_input_ = 0;
  // Input flow control: checked after every scheduler slice and, while paused, by a timer (a
  // reader paused too long stops counting without any slice running).
  void check_input();
  bool input_paused_ = false;
  size_t input_high_water_ = PipelineConfig().input_high_water;
  std::string bind_device_;
  size_t input_low_water_ = PipelineConfig().input_low_water;
  uint64_t input_pauses_ = 0;
  std::unique_ptr<boost::asio::steady_timer> input_timer_;
  std::optional<LocalConfig> local_;
  AttributeInterner interner_;
  NullSink null_sink_;
  VrpTable vrps_;  // before pipeline_, which points at it
  std::unique_ptr<BgpPipeline> pipeline_;
  std::unique_ptr<RtrClient> rtr_;  // after pipeline_: its updates stop first
  std::vector<RtrCacheConfig> rpki_caches_;
  RtrTimers rpki_timers_;
  PeerId local_peer_id_ = 0;
  std::unique_ptr<BgpListener> listener_;
  UpdateJournal update_journal_{UpdateJournal::Options()};  // before peers_, which record in it
  JournalPoller<UpdateEvent> update_poller_{io_, update_journal_};
  std::map<IpPrefix, std::optional<IpAddr>> networks_;
  std::map<IpPrefix, AggregateConfig> aggregates_;
  std::map<IpPrefix, RedistRoute> redist_;  // every redistributed route, shadowed or not
  std::map<std::string, PolicyRef> policies_;
  VrPolicies vr_policies_;
  std::vector<std::string> export_protocols_;
  AsioClock asio_clock_;
  PipelineClock* clock_;
  std::optional<DampingParams> damping_;
  MultipathConfig multipath_;
  std::function<Status(const PeerSettings&)> build_check_;
  bool hold_sessions_ = false;
  bool restarting_ = false;
  bool settling_ = false;  // End-of-RIB wait over; waiting for the pipeline to settle
  static constexpr std::chrono::seconds kSettleLimit{5};
  std::chrono::steady_clock::time_point settle_deadline_;
  std::unique_ptr<boost::asio::steady_timer> deferral_timer_;
  std::map<IpAddr, std::unique_ptr<BgpPeer>> peers_;  // after pipeline_: destroyed first
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::bgp
