#include "bgp/pipeline/bgp_pipeline.h"

#include <algorithm>
#include <set>
#include <utility>

namespace strata::bgp {
namespace {

// Merging walks: `first` becomes `c` if that comes earlier.
void KeepEarliest(std::optional<IpPrefix>& first, const std::optional<IpPrefix>& c) {
  if (c && (!first || *c < *first)) first = c;
}

}  // namespace

BgpPipeline::BgpPipeline(PipelineConfig config, NexthopOracle& oracle, RibSink& rib,
                         TaskScheduler& scheduler)
    : config_(std::move(config)),
      scheduler_(scheduler),
      rib_(rib),
      cache_(std::make_unique<NexthopCache>(oracle)),
      decision_(std::make_unique<DecisionStage>()),
      fanout_(std::make_unique<FanoutStage>(scheduler, config_.fanout_slice, decision_.get(),
                                            winners_walk())) {
  decision_->set_next(fanout_.get());
  // rib_out_ is destroyed after the reader is removed (~BgpPipeline), so the flush target lives.
  rib_reader_ = fanout_->add_reader(
      "rib", [this] { rib_out_->flush(); }, /*dump=*/false, /*last=*/true);
  rib_out_ = std::make_unique<RibOutStage>(rib, rib_reader_, decision_.get());
  rib_reader_->set_next(rib_out_.get());
  rib_reader_->set_multipath_changes(true);
  // The RIB may fall behind (its sink pauses the reader) without holding the peers back.
  rib_reader_->set_slack(config_.rib_slack);
  rib_.attach(this);
  rov_.own_as = config_.confed.enabled() ? config_.confed.identifier : config_.local_as;
  RovRevalidator::Background walk;
  walk.scheduler = &scheduler_;
  walk.slice = config_.deletion_slice;
  walk.throttle = readers_behind();
  revalidator_ = std::make_unique<RovRevalidator>(
      [this](const std::optional<IpPrefix>& after) {
        // The routes to validate are PeerIn's (a deletion stage's are on their way out).
        std::optional<IpPrefix> first;
        for (const auto& [id, p] : peers_) {
          if (const auto hit = p->in->table().next_after(after); hit.value) {
            KeepEarliest(first, hit.prefix);
          }
        }
        return first;
      },
      [this](const IpPrefix& prefix) {
        size_t changed = 0;
        for (const auto& [id, p] : peers_) changed += p->in->Revalidate(prefix);
        return changed;
      },
      std::move(walk));
}

void BgpPipeline::set_vrps(const VrpTable* vrps) {
  if (vrps == rov_.vrps) return;
  rov_.vrps = vrps;
  revalidator_->ChangedAll();  // on, off, or another table: any state may differ
}

void BgpPipeline::vrps_changed(std::span<const IpPrefix> vrp_prefixes) {
  if (rov_.on()) revalidator_->Changed(vrp_prefixes);
}

BgpPipeline::~BgpPipeline() {
  if (aggregate_reader_) fanout_->remove_reader(aggregate_reader_);
  aggregate_.reset();
  rib_.detach(this);
  for (auto& [id, p] : peers_) tear_down_output(*p);
  peers_.clear();
  fanout_->remove_reader(rib_reader_);
}

void BgpPipeline::resend() {
  fanout_->restart_dump(rib_reader_);
  rib_out_->restart();
}

BgpPipeline::Peer* BgpPipeline::find(PeerId id) const {
  auto it = peers_.find(id);
  return it == peers_.end() ? nullptr : it->second.get();
}

StatusOr<PeerId> BgpPipeline::add_peer(PipelinePeerConfig config) {
  for (const auto& [id, p] : peers_) {
    if (p->config.address == config.address && !p->removing && !config.local) {
      return AlreadyExists("peer " + config.address.ToString() + " already configured");
    }
  }
  auto p = std::make_unique<Peer>();
  p->id = next_id_++;
  const std::string label = std::to_string(p->id);
  p->in = std::make_unique<PeerIn>(p->id);
  p->in->set_origin_validation(&rov_);
  p->filter_in = std::make_unique<InputFilterStage>(p->id, config_.local_as, config_.router_id,
                                                    cluster_id(), p->in.get(), config.import_policy,
                                                    config_.confed, config.as_path);
  p->in->set_next(p->filter_in.get());
  set_refilter_background(*p);
  p->resolver =
      std::make_unique<NexthopResolverStage>(label, p->filter_in.get(), *cache_, import_walk(*p));
  // An IGP change re-annotates in slices of the deletion's size, held while readers are behind.
  NexthopResolverStage::Background walk;
  walk.scheduler = &scheduler_;
  walk.slice = config_.deletion_slice;
  walk.throttle = readers_behind();
  walk.name = "nexthop-walk:" + label;
  p->resolver->set_background(std::move(walk));
  p->filter_in->set_next(p->resolver.get());
  p->resolver->set_next(decision_.get());
  decision_->add_parent(p->resolver.get());
  p->config = std::move(config);
  plumb_damping(*p);
  const PeerId id = p->id;
  peers_.emplace(id, std::move(p));
  return id;
}

Status BgpPipeline::remove_peer(PeerId id) {
  Peer* p = find(id);
  if (!p || p->removing) return NotFound("no peer " + std::to_string(id));
  if (p->session) {
    if (Status s = peer_down(id); !s.ok()) return s;
  }
  if (Status s = sweep_stale(id); !s.ok()) return s;
  p->removing = true;
  finish_remove_if_idle(id);
  return Status::Ok();
}

void BgpPipeline::finish_remove_if_idle(PeerId id) {
  Peer* p = find(id);
  if (!p || !p->removing || !p->deletions.empty() || p->in->size() > 0) return;
  decision_->remove_parent(p->resolver.get());
  peers_.erase(id);
}

uint32_t BgpPipeline::cluster_id() const {
  if (config_.cluster_id != 0) return config_.cluster_id;
  return config_.router_id.is_v4() ? config_.router_id.v4_host_order() : 0;
}

Status BgpPipeline::set_local_addresses(PeerId id, IpAddr local,
                                        std::optional<IpAddr> other_family) {
  Peer* p = find(id);
  if (!p || p->removing) return NotFound("no peer " + std::to_string(id));
  p->config.local_address = local;
  p->config.other_family_local_address = other_family;
  return Status::Ok();
}

Status BgpPipeline::set_import_policy(PeerId id, RoutePolicy policy) {
  Peer* p = find(id);
  if (!p) return NotFound("no peer " + std::to_string(id));
  p->config.import_policy = policy;
  p->filter_in->ChangePolicy(std::move(policy), import_walk(*p));
  return Status::Ok();
}

std::optional<IpPrefix> BgpPipeline::NextHeld(const Peer& p, const std::optional<IpPrefix>& after) {
  // Everything the branch may hold: PeerIn's routes and those still being deleted.
  std::optional<IpPrefix> first;
  if (const auto hit = p.in->table().next_after(after); hit.value) KeepEarliest(first, hit.prefix);
  for (const auto& d : p.deletions) KeepEarliest(first, d->next_prefix(after));
  return first;
}

std::function<bool()> BgpPipeline::readers_behind() const {
  return [fanout = fanout_.get()] { return fanout->backlog() > 0; };
}

PolicyRefilter::NextFn BgpPipeline::import_walk(Peer& p) {
  return [peer = &p](const std::optional<IpPrefix>& after) { return NextHeld(*peer, after); };
}

PrefixWalk BgpPipeline::winners_walk() {
  // A winner comes from some branch: the first prefix any branch holds after `after`.
  return [this](const std::optional<IpPrefix>& after) {
    std::optional<IpPrefix> first;
    for (const auto& [id, p] : peers_) KeepEarliest(first, NextHeld(*p, after));
    return first;
  };
}

Status BgpPipeline::set_export_policy(PeerId id, RoutePolicy policy) {
  Peer* p = find(id);
  if (!p) return NotFound("no peer " + std::to_string(id));
  p->config.export_policy = policy;
  if (p->filter_out) p->filter_out->ChangePolicy(export_filter(policy), export_walk());
  return Status::Ok();
}

RoutePolicy BgpPipeline::export_filter(const RoutePolicy& policy) const {
  if (!summary_ || summary_->empty()) return policy;
  return [summary = summary_, policy](const BgpRouteRef& r) -> BgpRouteRef {
    for (const IpPrefix& s : *summary) {
      if (s.len() < r->prefix.len() && s.Contains(r->prefix)) return nullptr;
    }
    return policy ? policy(r) : r;
  };
}

void BgpPipeline::summary_changed() {
  summary_ = std::make_shared<const std::vector<IpPrefix>>(aggregate_->summary_only());
  for (auto& [id, p] : peers_) {
    if (p->filter_out)
      p->filter_out->ChangePolicy(export_filter(p->config.export_policy), export_walk());
  }
}

Status BgpPipeline::start_aggregation() {
  PipelinePeerConfig pc;
  pc.local = true;
  auto id = add_peer(std::move(pc));
  if (!id.ok()) return id.status();
  aggregate_peer_ = *id;
  if (Status s = peer_up(aggregate_peer_, config_.router_id, aggregate_sink_); !s.ok()) return s;
  aggregate_reader_ = fanout_->add_reader("aggregates", nullptr, /*dump=*/false);
  aggregate_ = std::make_unique<AggregateStage>(
      aggregate_reader_, scheduler_, config_.local_as, config_.router_id, aggregate_peer_,
      [this](const IpPrefix& prefix, const AttributeSetPtr& attrs) {
        const IpPrefix one[] = {prefix};
        if (attrs) {
          (void)receive_update(aggregate_peer_, attrs, one, {});
        } else {
          (void)receive_update(aggregate_peer_, nullptr, {}, one);
        }
      });
  aggregate_reader_->set_next(aggregate_.get());
  return Status::Ok();
}

Status BgpPipeline::set_aggregate(const AggregateConfig& config) {
  if (!aggregate_) {
    if (Status s = start_aggregation(); !s.ok()) return s;
  }
  const std::vector<IpPrefix> before = aggregate_->summary_only();
  Status s = aggregate_->Set(config, [this](const std::optional<IpPrefix>& after) {
    return fanout_->next_table_prefix(after);
  });
  if (!s.ok()) return s;
  if (aggregate_->summary_only() != before) summary_changed();
  return Status::Ok();
}

Status BgpPipeline::delete_aggregate(const IpPrefix& prefix) {
  if (!aggregate_) return NotFound("no aggregate " + prefix.ToString());
  const std::vector<IpPrefix> before = aggregate_->summary_only();
  if (Status s = aggregate_->Delete(prefix); !s.ok()) return s;
  if (aggregate_->summary_only() != before) summary_changed();
  return Status::Ok();
}

std::vector<AggregateConfig> BgpPipeline::aggregates() const {
  return aggregate_ ? aggregate_->configs() : std::vector<AggregateConfig>{};
}

Status BgpPipeline::refresh_out(PeerId id, std::optional<Family> family) {
  Peer* p = find(id);
  if (!p) return NotFound("no peer " + std::to_string(id));
  if (!p->filter_out) return FailedPrecondition("peer " + std::to_string(id) + " is not up");
  p->filter_out->Refresh(family, export_walk());
  return Status::Ok();
}

PolicyRefilter::NextFn BgpPipeline::export_walk() const {
  // What a reader may hold: the prefixes with a winner now and later (the branches' prefixes),
  // the prefixes of changes queued now, and those of changes queued during the walk (a winner
  // deleted after the walk starts is still held by a reader its deletion has not reached: the
  // walk must visit it, or the deletion, delivered after the walk passed it, would be filtered
  // with the new policy only). Deliveries touch their prefix, so the walk skips those delivered.
  auto queued = std::make_shared<const std::vector<IpPrefix>>(fanout_->queued_prefixes());
  struct Later {
    uint64_t seq;
    std::set<IpPrefix> prefixes;
  };
  auto later = std::make_shared<Later>(Later{fanout_->queue_end(), {}});
  return [fanout = fanout_.get(), queued, later](const std::optional<IpPrefix>& after) {
    fanout->each_queued_since(later->seq, [&](const IpPrefix& q) {
      if (!after || *after < q) later->prefixes.insert(q);
    });
    std::optional<IpPrefix> first = fanout->next_table_prefix(after);
    auto it = after ? std::upper_bound(queued->begin(), queued->end(), *after) : queued->begin();
    if (it != queued->end()) KeepEarliest(first, *it);
    auto lt = after ? later->prefixes.upper_bound(*after) : later->prefixes.begin();
    later->prefixes.erase(later->prefixes.begin(), lt);  // passed
    if (lt != later->prefixes.end()) KeepEarliest(first, *lt);
    return first;
  };
}

Status BgpPipeline::peer_up(PeerId id, IpAddr router_id, SessionSink& sink) {
  Peer* p = find(id);
  if (!p || p->removing) return NotFound("no peer " + std::to_string(id));
  if (p->session) return FailedPrecondition("peer " + std::to_string(id) + " is already up");
  auto info = NewPeerInfo();
  info->id = id;
  info->peer_as = p->config.peer_as;
  info->router_id = router_id;
  info->address = p->config.address;
  info->ibgp = p->config.peer_as == config_.local_as;
  info->rr_client = info->ibgp && p->config.route_reflector_client;
  info->confed =
      ClassifyPeer(info->peer_as, config_.local_as, config_.confed) == PeerType::kConfedExternal;
  info->local = p->config.local;
  info->directly_connected = p->config.directly_connected;
  p->session = std::move(info);
  if (p->damping) p->damping->set_session(p->session);
  p->in->set_session(p->session);

  // The reader's flush and the PeerOut's flow callback point at this peer's stages; both are
  // dropped in tear_down_output before the stages are destroyed.
  p->reader = fanout_->add_reader(
      "peer-" + std::to_string(id), [out = &p->out] { (*out)->flush(); }, /*dump=*/true);
  PipelinePeerConfig out_config = p->config;
  out_config.export_policy = export_filter(p->config.export_policy);
  p->filter_out = std::make_unique<OutputFilterStage>(
      id, config_.local_as, std::move(out_config), p->reader,
      ReflectionContext{.cluster_id = cluster_id(), .peer_router_id = router_id}, config_.confed);
  p->reader->set_next(p->filter_out.get());
  set_refilter_background(*p);
  FanoutStage* fanout = fanout_.get();
  FanoutStage::Reader* reader = p->reader;
  p->out = std::make_unique<PeerOut>(id, sink, p->filter_out.get(), config_.peer_out_batch,
                                     [fanout, reader](bool busy) {
                                       if (busy) {
                                         fanout->pause(reader);
                                       } else {
                                         fanout->resume(reader);
                                       }
                                     });
  p->filter_out->set_next(p->out.get());
  p->filter_out->set_withdraw_by_prefix(true);  // PeerOut withdraws by prefix
  p->filter_out->OriginateDefaults();
  return Status::Ok();
}

void BgpPipeline::tear_down_output(Peer& p) {
  if (p.reader) fanout_->remove_reader(p.reader);
  p.reader = nullptr;
  p.out.reset();
  p.filter_out.reset();
}

Status BgpPipeline::peer_down(PeerId id) {
  Peer* p = find(id);
  if (!p) return NotFound("no peer " + std::to_string(id));
  if (!p->session) return FailedPrecondition("peer " + std::to_string(id) + " is not up");
  tear_down_output(*p);
  p->session.reset();
  if (p->damping) p->damping->set_session(nullptr);  // its routes' deletes are not flaps
  start_deletion(*p, p->in->take_routes());
  p->in->set_session(nullptr);
  return Status::Ok();
}

Status BgpPipeline::peer_down_graceful(PeerId id) {
  Peer* p = find(id);
  if (!p) return NotFound("no peer " + std::to_string(id));
  if (!p->session) return FailedPrecondition("peer " + std::to_string(id) + " is not up");
  tear_down_output(*p);
  p->session.reset();
  if (p->damping) p->damping->set_session(nullptr);  // stale sweeps are not flaps
  p->in->set_session(nullptr);                       // every held route is stale now
  return Status::Ok();
}

Status BgpPipeline::sweep_stale(PeerId id, std::optional<Family> family) {
  Peer* p = find(id);
  if (!p) return NotFound("no peer " + std::to_string(id));
  if (p->in->stale() > 0) start_deletion(*p, p->in->take_stale(family));
  return Status::Ok();
}

Status BgpPipeline::mark_llgr_stale(PeerId id, std::optional<Family> family) {
  Peer* p = find(id);
  if (!p) return NotFound("no peer " + std::to_string(id));
  if (p->in->stale() == 0) return Status::Ok();
  RouteTable dropped = p->in->mark_llgr_stale(family);
  if (dropped.size() > 0) start_deletion(*p, std::move(dropped));
  return Status::Ok();
}

Status BgpPipeline::set_llgr_negotiated(PeerId id, bool negotiated) {
  Peer* p = find(id);
  if (!p) return NotFound("no peer " + std::to_string(id));
  p->config.llgr = negotiated;
  return Status::Ok();
}

void BgpPipeline::set_refilter_background(Peer& p) {
  // Policy changes re-filter in slices of the deletion's size, held like deletions while the
  // fanout's readers are behind; re-filtering is not flapping; an export change's slice is sent
  // to the peer at once.
  Peer* peer = &p;
  PolicyRefilter::Background in;
  in.scheduler = &scheduler_;
  in.slice = config_.deletion_slice;
  in.throttle = readers_behind();
  in.before_slice = [peer] {
    if (peer->damping) peer->damping->set_charging(false);
  };
  in.after_slice = [peer] {
    if (peer->damping) peer->damping->set_charging(true);
  };
  in.name = "refilter-in:" + std::to_string(p.id);
  p.filter_in->refilter().set_background(std::move(in));
  if (!p.filter_out) return;
  PolicyRefilter::Background out;
  out.scheduler = &scheduler_;
  out.slice = config_.deletion_slice;
  // The walk stops while the session is busy (peer_output_ready resumes it): a refresh or
  // policy change of a full table would otherwise pile up in PeerOut's batch.
  out.paused = [peer] { return peer->out && peer->out->blocked(); };
  out.after_slice = [peer] { peer->out->flush(); };
  out.name = "refilter-out:" + std::to_string(p.id);
  p.filter_out->refilter().set_background(std::move(out));
}

void BgpPipeline::start_deletion(Peer& p, RouteTable routes) {
  if (routes.empty()) return;
  const PeerId id = p.id;
  auto stage = std::make_unique<DeletionStage>(
      std::to_string(id), std::move(routes), p.in.get(), scheduler_, config_.deletion_slice,
      [this, id](DeletionStage* done) { on_deletion_done(id, done); });
  // A whole table's deletes enter the fanout only once its readers have taken the previous
  // slice, so another peer's new change waits behind at most one slice of them. A
  // reader behind has work, so the fanout's task runs meanwhile.
  stage->set_throttle(readers_behind());
  PlumbAfter(p.in.get(), stage.get());
  p.deletions.push_back(std::move(stage));
}

void BgpPipeline::on_deletion_done(PeerId id, DeletionStage* stage) {
  Peer* p = find(id);
  if (!p) return;
  Unplumb(stage->parent(), stage);
  std::erase_if(p->deletions, [stage](const auto& d) { return d.get() == stage; });
  finish_remove_if_idle(id);
}

Status BgpPipeline::receive_update(PeerId id, const AttributeSetPtr& attrs,
                                   std::span<const IpPrefix> announced,
                                   std::span<const IpPrefix> withdrawn) {
  Peer* p = find(id);
  if (!p || !p->session) return FailedPrecondition("peer " + std::to_string(id) + " is not up");
  if (!announced.empty() && !attrs) return InvalidArgument("announcement without attributes");
  ++p->updates_received;
  // One UPDATE's prefixes: the stages' tables warm their paths first (BgpStage::prefetch).
  if (announced.size() + withdrawn.size() > 1) {
    p->in->prefetch(withdrawn);
    p->in->prefetch(announced);
  }
  for (const IpPrefix& prefix : withdrawn) {
    if (!p->in->withdraw(prefix)) ++p->withdrawals_unknown;
  }
  for (const IpPrefix& prefix : announced) p->in->announce(MakeRoute(prefix, attrs, p->session));
  return Status::Ok();
}

size_t BgpPipeline::input_backlog() const {
  return fanout_->input_backlog(std::chrono::steady_clock::now());
}

Status BgpPipeline::peer_output_ready(PeerId id) {
  Peer* p = find(id);
  if (!p || !p->out) return FailedPrecondition("peer " + std::to_string(id) + " is not up");
  p->out->sink_ready();
  if (p->filter_out) p->filter_out->refilter().Resume();
  return Status::Ok();
}

bool BgpPipeline::dump_done(PeerId id) const {
  const Peer* p = find(id);
  return p && p->reader && p->out && !p->reader->dumping() && p->out->pending() == 0 &&
         !p->out->blocked();
}

void BgpPipeline::plumb_damping(Peer& p) {
  // AS 0 is never a peer's (RFC 7607): it marks the speaker's own pseudo-peer. Only true eBGP
  // peers are damped (not iBGP, not confederation-external, as in FRR).
  if (!damping_ || p.config.peer_as == 0 ||
      ClassifyPeer(p.config.peer_as, config_.local_as, config_.confed) != PeerType::kExternal) {
    return;
  }
  p.damping = std::make_unique<DampingStage>(p.id, *damping_, p.filter_in.get(), *config_.clock,
                                             scheduler_, config_.damping_slice);
  p.damping->set_session(p.session);
  PlumbAfter(p.filter_in.get(), p.damping.get());
}

void BgpPipeline::unplumb_damping(Peer& p) {
  if (!p.damping) return;
  p.damping->Clear(std::nullopt);  // suppressed routes go downstream first
  Unplumb(p.filter_in.get(), p.damping.get());
  p.damping.reset();
}

Status BgpPipeline::set_damping(std::optional<DampingParams> params) {
  if (params) {
    if (Status s = ValidateDampingParams(*params); !s.ok()) return s;
    if (!config_.clock) return FailedPrecondition("damping needs a clock");
  }
  if (params == damping_) return Status::Ok();
  for (auto& [id, p] : peers_) unplumb_damping(*p);
  damping_ = std::move(params);
  for (auto& [id, p] : peers_) plumb_damping(*p);
  return Status::Ok();
}

Status BgpPipeline::set_multipath(const MultipathConfig& config) {
  if (Status s = ValidateMultipathConfig(config); !s.ok()) return s;
  if (config == decision_->multipath()) return Status::Ok();
  decision_->set_multipath(config);
  const PrefixWalk walk = winners_walk();
  for (auto p = walk(std::nullopt); p; p = walk(p)) decision_->announce_multipath(*p);
  return Status::Ok();
}

std::vector<BgpPipeline::DampedRoute> BgpPipeline::damped_routes() const {
  std::vector<DampedRoute> out;
  for (const auto& [id, p] : peers_) {
    if (!p->damping) continue;
    for (DampingStage::Entry& e : p->damping->Entries()) out.push_back({id, std::move(e)});
  }
  return out;
}

size_t BgpPipeline::clear_damping(const std::optional<IpPrefix>& prefix,
                                  std::optional<PeerId> peer) {
  size_t n = 0;
  for (auto& [id, p] : peers_) {
    if (peer && id != *peer) continue;
    if (p->damping) n += p->damping->Clear(prefix);
  }
  return n;
}

StatusOr<PipelinePeerCounters> BgpPipeline::counters(PeerId id) const {
  const Peer* p = find(id);
  if (!p) return NotFound("no peer " + std::to_string(id));
  PipelinePeerCounters c;
  c.up = p->session != nullptr;
  c.updates_received = p->updates_received;
  c.received = p->in->size();
  c.accepted = p->filter_in->counters().accepted;
  c.advertised = p->out ? p->out->counters().advertised : 0;
  c.withdrawals_unknown = p->withdrawals_unknown;
  c.as_loop = p->filter_in->counters().as_loop;
  c.originator_id_loop = p->filter_in->counters().originator_id;
  c.cluster_loop = p->filter_in->counters().cluster_loop;
  c.policy_rejected = p->filter_in->counters().policy_rejected;
  const auto nh = p->resolver->counters();
  c.nexthop_pending = nh.held;
  c.nexthop_unresolvable = nh.unresolvable;
  c.deletions_pending = p->deletions.size();
  c.damping_suppressed = p->damping ? p->damping->suppressed() : 0;
  c.rov_valid = p->in->rov_count(RovState::kValid);
  c.rov_invalid = p->in->rov_count(RovState::kInvalid);
  c.rov_not_found = p->in->rov_count(RovState::kNotFound);
  c.stale = p->in->stale();
  c.llgr_stale = p->in->llgr_stale();
  return c;
}

}  // namespace strata::bgp
