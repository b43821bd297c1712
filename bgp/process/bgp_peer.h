// BgpPeer: one configured neighbor of the speaker, the glue between its PeerSession
// (bgp/session) and its branch of the BgpPipeline.
//
//   PeerSession --OnSessionEstablished--> local address and export hook set, pipeline.peer_up
//               --OnUpdate--------------> attributes interned per family, pipeline.receive_update
//               --OnSessionDown---------> pipeline.peer_down (routes withdrawn in background),
//                                         or kept stale (graceful restart, PeerGracefulRestart)
//               --OnWritable------------> pipeline.peer_output_ready (posted)
//   PeerOut --send_updates(batch)--> Withdraw / Announce on the session (while this speaker
//               restarts, held in the OutputGate until ReleaseOutput; no Adj-RIB-Out copy)
//   End-of-RIB per negotiated family once the initial dump is sent (BgpPipeline::dump_done).
//   ROUTE-REFRESH received: the routes of that family are announced again, walked from the
//               pipeline (BgpPipeline::refresh_out) in background slices.
// Session safety here: enforce_first_as (eBGP UPDATEs whose AS_PATH does not start with the
// peer's AS are treated as withdraw, like FRR) and max_prefixes (the Adj-RIB-In size after each
// UPDATE: a warning log line once at the threshold, Cease / Maximum Number of Prefixes Reached
// over the limit, then the session stays down for max_prefixes_restart, or until HardReset or
// Enable when that is 0).
// The peer's session settings are fixed for its life; the speaker replaces the whole BgpPeer
// when they change. Policies, description and the max_prefixes settings change in place (the
// pipeline re-evaluates routes).
// Threading: the io_context thread. REQUIRES: pipeline and interner outlive the peer.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>

#include "bgp/pipeline/bgp_pipeline.h"
#include "bgp/policy/policy_hook.h"
#include "bgp/policy/vr_policy.h"
#include "bgp/process/attribute_interner.h"
#include "bgp/process/discard_log.h"
#include "bgp/process/output_gate.h"
#include "bgp/process/peer_graceful_restart.h"
#include "bgp/process/update_journal.h"
#include "bgp/session/peer_session.h"
#include "common/log.h"

namespace strata::bgp {

struct PeerSettings {
  PeerConfig session;  // the session layer's configuration (address, AS, timers, families)
  bool enabled = true;
  std::string import_policy;  // the peer's own policy names ("" none: the VR's, VrPolicies)
  std::string export_policy;
  // RFC 4724 graceful restart with this peer (helper and restarting speaker); the speaker sets
  // session.graceful_restart (the capability) from it and from graceful_restart_config.
  bool graceful_restart = true;
  GracefulRestartConfig graceful_restart_config;
  // RFC 9494 long-lived graceful restart: the long-lived stale time (seconds) we advertise for
  // every family and the longest we keep the peer's routes LLGR-stale; 0: off.
  uint32_t long_lived_stale_time = 0;
  // RFC 8212: an eBGP peer without a policy in a direction passes no route that way.
  bool ebgp_requires_policy = true;
  std::string group;  // the configuration's peer group, shown by list_peers
};

class BgpPeer : public SessionConsumer, public SessionSink {
 public:
  struct Counters {
    uint64_t malformed_updates = 0;  // UPDATEs with an RFC 7606 outcome applied
    uint64_t send_errors = 0;        // batches the session refused
    uint64_t refreshes_in = 0;
    uint64_t end_of_rib_in = 0;
    uint64_t first_as_violations = 0;     // UPDATEs treated as withdraw (enforce_first_as)
    uint64_t max_prefixes_teardowns = 0;  // sessions torn down over max_prefixes
    // RFC 8654 4: prefixes whose UPDATE did not fit the peer's message size, withdrawn instead.
    uint64_t oversize_withdrawn = 0;
    uint64_t own_next_hop = 0;  // prefixes ignored: NEXT_HOP was our address (RFC 4271 6.3)
  };

  // Adds the peer to the pipeline (down) and starts the session if enabled.
  static StatusOr<std::unique_ptr<BgpPeer>> Create(boost::asio::io_context& io,
                                                   BgpPipeline& pipeline,
                                                   AttributeInterner& interner,
                                                   PeerSettings settings, PolicyRef import_policy,
                                                   PolicyRef export_policy, const VrPolicies& vr,
                                                   bool start = true);
  // Stops the session (Cease) and removes the peer from the pipeline.
  ~BgpPeer() override;

  void Enable();
  void Disable();
  void HardReset();
  // The peer's BFD session went down: the session goes at once (Cease, BFD Down, RFC 9384) and
  // starts again, as after a hold timer expiry; no graceful restart helper (forwarding failed).
  void BfdDown();
  // "in": ask the peer for its routes again; "out": send ours again.
  Status SoftResetIn();
  Status SoftResetOut();
  // New own policies ("" and null: none, the VR's applies), applied to the current routes at once.
  void SetImportPolicy(const std::string& name, PolicyRef policy);
  void SetExportPolicy(const std::string& name, PolicyRef policy);
  // The VR's policy of a direction changed: re-applied to the current routes (in the background,
  // the pipeline's re-filter) only when the peer inherits it, i.e. has no own policy that way.
  void SetVrPolicy(PolicyDirection direction, PolicyBinding binding);
  // The policy in force in a direction: the peer's own, else the VR's (inherited).
  EffectivePolicy effective_policy(PolicyDirection direction) const;
  // Which import rule rejects `received` (one the peer sent): "policy P term T", "policy P
  // default action", or RFC 8212's default-deny. For `show bgp neighbor X filtered-routes`.
  std::string ExplainImport(const BgpRouteRef& received) const;
  void set_description(std::string d) { settings_.session.description = std::move(d); }
  void set_group(std::string g) { settings_.group = std::move(g); }
  // New max_prefixes settings, checked against the current Adj-RIB-In at once (like FRR, no
  // session reset). A session already torn down over the limit stays down until its timer,
  // a reset or an enable.
  void SetPrefixLimit(uint32_t max, uint8_t warning_pct, Millis restart);
  // Turns RFC 8212 default-deny on or off, applied to the current routes at once.
  void SetEbgpRequiresPolicy(bool on);
  // Hands an accepted connection to the session.
  void Accept(boost::asio::ip::tcp::socket socket) { session_->AcceptIncoming(std::move(socket)); }

  const PeerSettings& settings() const { return settings_; }
  PeerId id() const { return id_; }
  const PeerSession& session() const { return *session_; }
  // Input flow control: stop or resume reading from the peer (BgpSpeaker::check_input).
  void SetReadPaused(bool paused) { session_->SetReadPaused(paused); }
  const Counters& counters() const { return counters_; }
  // The last prefixes the peer sent that were not kept, and why (discarded-routes).
  const DiscardLog& discards() const { return discards_; }
  const OutputGate& output_gate() const { return gate_; }
  // The current session negotiated graceful restart and its OPEN had the R bit.
  bool peer_restarting() const { return negotiated_ && negotiated_->peer_restarting; }
  // This session's End-of-RIB markers.
  const std::set<AfiSafi>& end_of_rib_received() const { return eor_received_; }
  std::optional<std::chrono::steady_clock::time_point> state_since() const { return since_; }
  std::string last_error() const;
  // The next hop sent with routes of the other family than the session's (set at
  // establishment); unset: none of those routes is sent.
  const std::optional<IpAddr>& other_family_next_hop() const { return other_family_next_hop_; }
  const PeerGracefulRestart& graceful_restart() const { return *gr_; }
  // Restarting speaker (RFC 4724 4.1): a session established while `defer` says so holds our
  // UPDATEs in the OutputGate (coalesced per prefix) until ReleaseOutput, and our
  // End-of-RIB waits for both; `eor_in` is told of every End-of-RIB the peer sends and of
  // every session established.
  void set_restart_hooks(std::function<bool()> defer, std::function<void()> eor_in) {
    defer_eor_ = std::move(defer);
    eor_in_hook_ = std::move(eor_in);
  }
  // Where the UPDATEs received and sent are recorded (`monitor bgp updates`); null: nowhere.
  // REQUIRES: the journal outlives the peer.
  void set_journal(UpdateJournal* journal) { journal_ = journal; }
  // Called after each read's messages went into the pipeline (SessionConsumer::OnInputDone).
  void set_input_done_hook(std::function<void()> hook) { input_done_hook_ = std::move(hook); }
  // The speaker's selection is done: the held table goes to the peer, every prefix once (our
  // End-of-RIB follows once the pipeline's dump is done). Nothing if the gate is open.
  void ReleaseOutput();
  // The current session is established and the peer sent End-of-RIB for every negotiated
  // family (or did not negotiate graceful restart, so none is expected).
  bool initial_table_received() const;
  // The graceful restart capability of our next OPENs (the speaker's restart is over).
  void SetGracefulRestartCapability(std::optional<GracefulRestartCapability> cap) {
    settings_.session.graceful_restart = cap;
    session_->SetGracefulRestart(std::move(cap));
  }
  bool established() const { return up_; }
  // Torn down over max_prefixes and not yet restarted (by the timer, a reset or an enable).
  bool max_prefixes_exceeded() const { return limit_exceeded_; }

  // SessionConsumer.
  void OnSessionEstablished(const NegotiatedSession& session) override;
  void OnUpdate(UpdateDecodeResult&& update) override;
  void OnRouteRefresh(const RouteRefreshMessage& request) override;
  void OnSessionDown(std::string_view reason) override;
  void OnWriteBlocked() override {}
  void OnWritable() override;
  void OnInputDone() override {
    if (input_done_hook_) input_done_hook_();
  }

  // SessionSink.
  void send_updates(UpdateBatch batch) override;
  bool busy() const override { return !session_->writable(); }

 private:
  BgpPeer(boost::asio::io_context& io, BgpPipeline& pipeline, AttributeInterner& interner,
          PeerSettings settings);
  ExportSelf export_self() const;
  // The pipeline hooks for the current policies (bgp_peer_policy.cc); with RFC 8212 in force
  // (eBGP, ebgp_requires_policy, no policy) they drop every route, the first one dropped per
  // direction logged.
  RoutePolicy import_hook();
  RoutePolicy export_hook();
  // RFC 8212 in force; a policy present re-arms the log line (`logged` false).
  bool default_deny(bool has_policy, bool& logged) const;
  RoutePolicy deny_hook(std::shared_ptr<bool> logged, const char* direction) const;
  void announce_adj_out(AfiSafi family);
  // Sends one group (`what` names the sender in logs). An UPDATE too big for the peer's message
  // size (RFC 8654 4) is tried again without the attributes eligible for attribute discard
  // (RFC 7606: AGGREGATOR, ATOMIC_AGGREGATE); if it still does not fit, the prefixes are
  // withdrawn, since the peer may hold an earlier path for them.
  void announce(const AnnouncementGroup& g, const char* what);
  void watch_end_of_rib();
  // enforce_first_as: the AS_PATH of `attrs` does not start with the peer's AS (eBGP), or with an
  // AS_CONFED_SEQUENCE led by it (confederation eBGP, RFC 5065 6).
  bool first_as_wrong(const PathAttributes& attrs) const;
  // After routes came in: the warning at the threshold, the teardown over the limit.
  // `announced`: the prefixes of the UPDATE just received, logged as discarded if it took the
  // peer over the limit.
  void check_prefix_limit(std::span<const IpPrefix> announced = {});
  void clear_prefix_limit();

  boost::asio::io_context& io_;
  BgpPipeline& pipeline_;
  AttributeInterner& interner_;
  PeerSettings settings_;
  std::shared_ptr<spdlog::logger> log_;
  std::unique_ptr<PeerSession> session_;
  PeerId id_ = 0;
  bool up_ = false;  // the pipeline branch is up
  std::optional<NegotiatedSession> negotiated_;
  std::optional<IpAddr> local_address_;
  // The next hop of routes of the other family than the session's (configured, or found on
  // the session's interface at establishment); unset: none is sent.
  std::optional<IpAddr> other_family_next_hop_;
  PolicyRef import_policy_;  // own
  PolicyRef export_policy_;
  VrPolicies vr_policies_;  // the VR's, used where there is no own policy
  // The RFC 8212 log line was written (shared with the deny hooks, which write it).
  std::shared_ptr<bool> import_deny_logged_ = std::make_shared<bool>(false);
  std::shared_ptr<bool> export_deny_logged_ = std::make_shared<bool>(false);
  OutputGate gate_;  // the Adj-RIB-Out: what the peer has been sent, or held for it
  std::optional<std::chrono::steady_clock::time_point> since_;
  std::unique_ptr<boost::asio::steady_timer> eor_timer_;
  bool limit_warned_ = false;    // the warning was logged for this session
  bool limit_exceeded_ = false;  // torn down over max_prefixes, not restarted yet
  std::unique_ptr<boost::asio::steady_timer> limit_restart_timer_;
  Counters counters_;
  DiscardLog discards_;
  std::unique_ptr<PeerGracefulRestart> gr_;
  std::set<AfiSafi> eor_received_;  // this session's End-of-RIB markers
  uint64_t notifications_in_at_up_ = 0;
  uint64_t notifications_out_at_up_ = 0;
  std::function<bool()> defer_eor_;
  std::function<void()> eor_in_hook_;
  std::function<void()> input_done_hook_;
  UpdateJournal* journal_ = nullptr;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::bgp
