// BgpPipeline: owns and links the stages of the BGP route pipeline (XORP paper 5.1).
//
//   per peer:  PeerIn -> [DeletionStage]* -> InputFilter -> [Damping] -> NexthopResolver --+
//                                                                             |
//                                              DecisionStage <----------------+ (one per peer)
//                                                    |
//                                               FanoutStage (one queue, a reader per branch)
//                                       +------------+------------+
//              per up peer:  OutputFilter -> PeerOut -> SessionSink     RibOut -> RibSink
//
// The sessions (bgp/session) call peer_up / receive_update / peer_down / peer_output_ready; the
// process implements NexthopOracle over the RIB's interest registration, RibSink over the RIB's
// IPC interface, and wires the TaskScheduler's wakeup to its io_context. Background work
// (deletion of a dead session's routes, fanout delivery and dumps) runs in scheduler slices.
// Later stages plug in without reshaping this: policy re-filtering and route reflection as
// stages in a branch, graceful restart as a peer option that keeps PeerIn's routes as stale.
// The RIB sink gets the pipeline as its RibFeed (rib_sink.h): it may pause the RIB's branch and
// have it resend the whole table, so the pipeline keeps no copy of what the RIB was sent.
// REQUIRES: oracle, rib sink and scheduler outlive the pipeline; sinks never call back into it
// synchronously (RibFeed::pause and resume excepted). Threading: single-threaded (the process's
// io_context thread).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "bgp/pipeline/aggregate_stage.h"
#include "bgp/pipeline/damping_stage.h"
#include "bgp/pipeline/decision_stage.h"
#include "bgp/pipeline/deletion_stage.h"
#include "bgp/pipeline/fanout_stage.h"
#include "bgp/pipeline/input_filter_stage.h"
#include "bgp/pipeline/nexthop_cache.h"
#include "bgp/pipeline/nexthop_resolver_stage.h"
#include "bgp/pipeline/origin_validation.h"
#include "bgp/pipeline/output_filter_stage.h"
#include "bgp/pipeline/peer_config.h"
#include "bgp/pipeline/peer_in.h"
#include "bgp/pipeline/peer_out.h"
#include "bgp/pipeline/pipeline_clock.h"
#include "bgp/pipeline/rib_out_stage.h"
#include "bgp/pipeline/rov_revalidator.h"
#include "bgp/wire/confederation.h"
#include "common/status.h"
#include "common/task_scheduler.h"

namespace strata::bgp {

struct PipelineConfig {
  uint32_t local_as = 0;
  IpAddr router_id;
  // RFC 4456 CLUSTER_ID of this route reflector; 0: the router id.
  uint32_t cluster_id = 0;
  size_t deletion_slice = 200;   // routes withdrawn per deletion slice
  size_t fanout_slice = 500;     // changes per reader per fanout slice
  size_t peer_out_batch = 1000;  // pending prefixes that force a PeerOut flush
  // Input flow control: the sessions stop reading UPDATEs while the fanout's input_backlog()
  // is at input_high_water or more, and read again once it is down to input_low_water. A read
  // of 64 KB holds about 10,000 prefixes and a fanout slice passes fanout_slice per reader, so
  // without it a full table waits in the fanout's queue (a million entries) instead of in the
  // peer's TCP window.
  size_t input_high_water = 20000;
  size_t input_low_water = 5000;
  // Changes the RIB's branch may lag behind (paused by its sink while the RIB is slower than
  // the peers) before it counts for input flow control and background throttling: 24 bytes
  // each in the fanout's queue, so 48 MB at most.
  size_t rib_slack = 2'000'000;
  // Time for route flap damping (needed to turn it on). REQUIRES: outlives the pipeline.
  PipelineClock* clock = nullptr;
  size_t damping_slice = 1000;  // reuse events per damping slice
  // RFC 5065: local_as is then our member AS; peers in other member ASes are confed-external.
  Confederation confed;
};

struct PipelinePeerCounters {
  bool up = false;
  uint64_t updates_received = 0;     // receive_update calls
  uint64_t received = 0;             // routes in the Adj-RIB-In now
  uint64_t accepted = 0;             // routes past the input filters now (old sessions' too)
  uint64_t advertised = 0;           // routes advertised to the peer now
  uint64_t withdrawals_unknown = 0;  // withdrawals of prefixes not held
  uint64_t as_loop = 0;
  uint64_t originator_id_loop = 0;  // our ORIGINATOR_ID came back (RFC 4456 8)
  uint64_t cluster_loop = 0;        // our CLUSTER_ID in the CLUSTER_LIST (RFC 4456 8)
  uint64_t policy_rejected = 0;
  uint64_t nexthop_pending = 0;       // routes waiting for a next hop answer
  uint64_t nexthop_unresolvable = 0;  // routes unusable: next hop unreachable
  size_t deletions_pending = 0;       // deletion stages still withdrawing old sessions
  uint64_t damping_suppressed = 0;    // prefixes suppressed by flap damping now
  uint64_t rov_valid = 0;             // routes in the Adj-RIB-In by origin validation state
  uint64_t rov_invalid = 0;
  uint64_t rov_not_found = 0;
  uint64_t stale = 0;       // routes kept from an earlier session (graceful restart)
  uint64_t llgr_stale = 0;  // of which long-lived stale (LLGR_STALE, RFC 9494)
};

class BgpPipeline : private RibFeed {
 public:
  BgpPipeline(PipelineConfig config, NexthopOracle& oracle, RibSink& rib, TaskScheduler& scheduler);
  ~BgpPipeline();
  BgpPipeline(const BgpPipeline&) = delete;
  BgpPipeline& operator=(const BgpPipeline&) = delete;

  // A configured peer, down until peer_up. Error: address already configured.
  StatusOr<PeerId> add_peer(PipelinePeerConfig config);
  // Takes the peer down if up; its branch goes once its routes are withdrawn.
  Status remove_peer(PeerId id);

  // Our addresses on the peer's session (the next hops we advertise), learned when it connects.
  // Takes effect at the next peer_up. Error: no such peer.
  Status set_local_addresses(PeerId id, IpAddr local, std::optional<IpAddr> other_family);
  // Replace the peer's import / export policy and re-evaluate its routes (its received routes,
  // resp. what it is advertised) in background slices (PolicyRefilter), so only the differences
  // reach decision and the peer; new routes use the new policy at once.
  Status set_import_policy(PeerId id, RoutePolicy policy);
  Status set_export_policy(PeerId id, RoutePolicy policy);
  // Route refresh / soft reset out: the peer's routes of `family` (all: nullopt) are announced
  // to it again, in background slices (OutputFilterStage::Refresh; no Adj-RIB-Out is kept).
  // Error if the peer is not up.
  Status refresh_out(PeerId id, std::optional<Family> family);

  // The session is established: routes may now be received, and the peer gets the current
  // table, then changes. REQUIRES: sink outlives the session (until peer_down).
  Status peer_up(PeerId id, IpAddr router_id, SessionSink& sink);
  // The session is gone: its routes are withdrawn in the background; the peer may come back
  // up at once.
  Status peer_down(PeerId id);
  // Graceful restart helper (RFC 4724 4.2): the session is gone but the peer said it keeps
  // forwarding across a restart: its routes stay (in decision, the RIB and other peers),
  // marked stale, until the next session re-announces them or sweep_stale withdraws them.
  Status peer_down_graceful(PeerId id);
  // Withdraws (in the background, through a deletion stage) the peer's stale routes of
  // `family`, every family if unset: on End-of-RIB, when the new session does not keep the
  // family, or when the restart or stale timer ends. Error: no such peer.
  Status sweep_stale(PeerId id, std::optional<Family> family = std::nullopt);
  // Long-lived graceful restart helper (RFC 9494 4.2): the graceful restart time of the peer's
  // stale routes of `family` (every family if unset) is over: those carrying NO_LLGR are
  // withdrawn (in the background), the others stay, re-announced with LLGR_STALE (least
  // preferred, only sent to peers that negotiated LLGR) until re-announced or swept.
  Status mark_llgr_stale(PeerId id, std::optional<Family> family = std::nullopt);
  // Whether the peer's next session negotiated LLGR (may be sent LLGR_STALE routes); takes
  // effect at the next peer_up. Error: no such peer.
  Status set_llgr_negotiated(PeerId id, bool negotiated);
  // One UPDATE's worth: announced prefixes share `attrs`. Error if the peer is not up.
  Status receive_update(PeerId id, const AttributeSetPtr& attrs,
                        std::span<const IpPrefix> announced, std::span<const IpPrefix> withdrawn);
  // The session's sink is no longer busy.
  Status peer_output_ready(PeerId id);
  // Input flow control (see PipelineConfig::input_high_water): changes queued in the fanout
  // that some output branch has still to take (readers paused too long excluded).
  size_t input_backlog() const;
  bool input_congested() const { return input_backlog() >= config_.input_high_water; }
  bool input_drained() const { return input_backlog() <= config_.input_low_water; }

  // Route flap damping (RFC 2439, DampingStage) of routes from eBGP peers (not the local
  // pseudo-peer of AS 0); off by default. nullopt turns it off. Turning it off or changing the
  // parameters re-announces suppressed routes and forgets all history, as FRR does.
  // Errors: invalid parameters (the field named), no clock in the config.
  Status set_damping(std::optional<DampingParams> params);
  const std::optional<DampingParams>& damping() const { return damping_; }
  struct DampedRoute {
    PeerId peer = 0;
    DampingStage::Entry entry;
  };
  // Every prefix with damping history, by peer then prefix.
  std::vector<DampedRoute> damped_routes() const;
  // Forgets the history of `prefix` (nullopt: all) learned from `peer` (nullopt: every peer),
  // re-announcing suppressed routes at once. Returns the number of histories dropped.
  size_t clear_damping(const std::optional<IpPrefix>& prefix,
                       std::optional<PeerId> peer = std::nullopt);

  // Equal-cost multipath (DecisionStage::Multipath): the RIB is given every winner's equal
  // paths' next hops; peers still get the winner only. A change re-announces every winner to
  // the RIB (one walk over the prefixes, at once: a configuration change, not a routing event).
  // Errors: a path count outside 1..MultipathConfig::kMaxPaths.
  Status set_multipath(const MultipathConfig& config);
  const MultipathConfig& multipath() const { return decision_->multipath(); }

  // Route origin validation (RFC 6811): every route entering the pipeline is stamped with its
  // state against `vrps` (BgpRoute::rov), for import policies and the views; null turns it off
  // (routes unverified). Turning it on or off validates every held route again in the
  // background. REQUIRES: vrps outlives the pipeline or is reset first.
  void set_vrps(const VrpTable* vrps);
  bool origin_validation() const { return rov_.on(); }
  // The VRPs at these prefixes were added to or removed from the table given to set_vrps: the
  // held routes they cover are validated again in background slices (RovRevalidator), and
  // those whose state changed are replaced downstream.
  void vrps_changed(std::span<const IpPrefix> vrp_prefixes);
  const RovRevalidator& revalidator() const { return *revalidator_; }

  // Route aggregation (AggregateStage): the aggregate route is originated, through a local
  // pseudo-peer of the pipeline's own, while some winner lies strictly inside its prefix; with
  // summary_only those contributors are kept from every peer (the export filters re-filter in the
  // background: peers get only the differences). Setting an aggregate of a configured prefix
  // replaces it. Errors: a host prefix; deleting one not configured.
  Status set_aggregate(const AggregateConfig& config);
  Status delete_aggregate(const IpPrefix& prefix);
  std::vector<AggregateConfig> aggregates() const;
  // Null until the first aggregate.
  const AggregateStage* aggregate_stage() const { return aggregate_.get(); }

  StatusOr<PipelinePeerCounters> counters(PeerId id) const;
  // True once an up peer has been sent the whole table: its dump is over and nothing waits in
  // its PeerOut (the moment for End-of-RIB).
  bool dump_done(PeerId id) const;
  bool has_peer(PeerId id) const { return peers_.contains(id); }
  std::optional<DecisionStage::Explanation> explain(const IpPrefix& prefix) const {
    return decision_->Explain(prefix);
  }
  uint64_t rib_routes() const { return rib_out_->installed(); }

  // Operators' views of one peer's routes (bgp_pipeline_views.cc), derived from the branch's
  // stages: nothing is stored for them.
  // What became of the route a peer sent for a prefix.
  struct RouteFate {
    BgpRouteRef received;  // as the peer sent it (PeerIn: before import policy)
    InputFilterStage::Verdict verdict = InputFilterStage::Verdict::kPass;
    BgpRouteRef accepted;     // after the input filter (import policy applied); null if dropped
    bool suppressed = false;  // held back by flap damping
    NexthopResolverStage::State nexthop = NexthopResolverStage::State::kNone;
    BgpRouteRef candidate;  // in the decision (annotated with its IGP metric); null if not
    bool best = false;      // the decision's winner for the prefix
    bool stale = false;     // kept from an earlier session (graceful restart)
  };
  // The fate of the route peer `id` holds for `prefix`; nullopt if it holds none. Error: no
  // such peer.
  StatusOr<std::optional<RouteFate>> fate(PeerId id, const IpPrefix& prefix) const;
  // Each route the peer holds, in prefix order (only `prefix` if given, else those after
  // `start_after` if given), until `visit` returns false. Error: no such peer.
  Status for_each_received(PeerId id, const std::optional<IpPrefix>& prefix,
                           const std::function<bool(const RouteFate&)>& visit,
                           const std::optional<IpPrefix>& start_after = std::nullopt) const;
  // What the peer is sent now for each prefix with a winner (its export policy applied), in
  // prefix order (only `prefix` if given, else those after `start_after` if given), until
  // `visit` returns false. Error: no such peer, or it is not up (nothing is advertised to it).
  Status for_each_advertised(PeerId id, const std::optional<IpPrefix>& prefix,
                             const std::function<bool(const BgpRouteRef&)>& visit,
                             const std::optional<IpPrefix>& start_after = std::nullopt) const;

  DecisionStage& decision() { return *decision_; }
  FanoutStage& fanout() { return *fanout_; }
  NexthopCache& nexthop_cache() { return *cache_; }

 private:
  struct Peer {
    PeerId id = 0;
    PipelinePeerConfig config;
    PeerRef session;  // null while down
    bool removing = false;
    uint64_t updates_received = 0;
    uint64_t withdrawals_unknown = 0;
    std::unique_ptr<PeerIn> in;
    std::vector<std::unique_ptr<DeletionStage>> deletions;
    std::unique_ptr<InputFilterStage> filter_in;
    std::unique_ptr<NexthopResolverStage> resolver;
    std::unique_ptr<DampingStage> damping;  // between filter_in and resolver while damping is on
    // Output branch while up; reader is owned by the fanout.
    FanoutStage::Reader* reader = nullptr;
    std::unique_ptr<OutputFilterStage> filter_out;
    std::unique_ptr<PeerOut> out;
  };
  Peer* find(PeerId id) const;
  // The export policy the peer's output filter runs: `policy` after the summary-only aggregates'
  // suppression of their contributors.
  RoutePolicy export_filter(const RoutePolicy& policy) const;
  // The summary-only set changed: every output filter re-filters with it.
  void summary_changed();
  Status start_aggregation();
  // RibFeed, over the RIB's fanout reader.
  void pause() override { fanout_->pause(rib_reader_); }
  void resume() override { fanout_->resume(rib_reader_); }
  void resend() override;
  bool resending() const override { return rib_reader_->dumping(); }
  void on_deletion_done(PeerId id, DeletionStage* stage);
  void start_deletion(Peer& p, RouteTable routes);
  void set_refilter_background(Peer& p);
  // The prefixes an export walk visits (PolicyRefilter::NextFn), from now on.
  PolicyRefilter::NextFn export_walk() const;
  // The first prefix after `after` a peer's branch may hold (PeerIn's and its deletion
  // stages'), and a walk of them all.
  static std::optional<IpPrefix> NextHeld(const Peer& p, const std::optional<IpPrefix>& after);
  static PolicyRefilter::NextFn import_walk(Peer& p);
  // The prefixes any branch may hold: where the decision may have a winner (the fanout's dumps).
  PrefixWalk winners_walk();
  // Background work (deletions, re-filtering, IGP re-annotation) holds while this is true: a
  // fanout reader is behind, so another peer's change waits behind at most one slice of it.
  std::function<bool()> readers_behind() const;
  void tear_down_output(Peer& p);
  void finish_remove_if_idle(PeerId id);
  uint32_t cluster_id() const;
  void plumb_damping(Peer& p);
  void unplumb_damping(Peer& p);

  PipelineConfig config_;
  TaskScheduler& scheduler_;
  RibSink& rib_;
  std::unique_ptr<NexthopCache> cache_;
  std::unique_ptr<DecisionStage> decision_;
  std::unique_ptr<FanoutStage> fanout_;
  FanoutStage::Reader* rib_reader_ = nullptr;
  std::optional<DampingParams> damping_;
  OriginValidation rov_;
  std::unique_ptr<RovRevalidator> revalidator_;
  std::unique_ptr<RibOutStage> rib_out_;
  // Aggregation, from the first aggregate on: the pseudo-peer its routes enter through, the
  // fanout reader feeding the stage, and the summary-only prefixes the export filters use.
  class NullSink : public SessionSink {
   public:
    void send_updates(UpdateBatch /*batch*/) override {}
    bool busy() const override { return false; }
  };
  NullSink aggregate_sink_;
  PeerId aggregate_peer_ = 0;
  FanoutStage::Reader* aggregate_reader_ = nullptr;
  std::unique_ptr<AggregateStage> aggregate_;
  std::shared_ptr<const std::vector<IpPrefix>> summary_;
  std::map<PeerId, std::unique_ptr<Peer>> peers_;  // last: destroyed first
  PeerId next_id_ = 1;
};

}  // namespace strata::bgp
