#include "bgp/process/bgp_speaker.h"

#include <net/if.h>

#include "bgp/session/asio_address.h"
#include "bgp/session/socket_probe.h"

namespace strata::bgp {

StatusOr<PolicyDirection> ParsePolicyDirection(std::string_view text) {
  if (text == "import") return PolicyDirection::kImport;
  if (text == "export") return PolicyDirection::kExport;
  return InvalidArgument("direction '" + std::string(text) + "' is not import or export");
}

BgpSpeaker::BgpSpeaker(boost::asio::io_context& io, NexthopOracle& oracle, RibSink& rib,
                       Hooks hooks, PipelineClock* clock)
    : io_(io),
      oracle_(oracle),
      rib_(rib),
      hooks_(std::move(hooks)),
      log_(MakeLogger("bgp")),
      asio_clock_(io),
      clock_(clock ? clock : &asio_clock_) {
  scheduler_.set_wakeup([this] { post_slice(); });
}

BgpSpeaker::~BgpSpeaker() {
  peers_.clear();
  listener_.reset();
  pipeline_.reset();
  scheduler_.set_wakeup(nullptr);
}

void BgpSpeaker::post_slice() {
  if (slice_posted_) return;
  slice_posted_ = true;
  boost::asio::post(io_, [this, alive = std::weak_ptr<bool>(alive_), ticket = slice_ticket_] {
    if (!alive.expired() && ticket == slice_ticket_) run_slice();
  });
}

void BgpSpeaker::run_slice() {
  slice_posted_ = false;
  ++slice_ticket_;  // a slice posted earlier finds its ticket taken
  if (scheduler_.run_slice()) post_slice();
  check_input();
}

void BgpSpeaker::input_done() {
  // What the read made due (an UPDATE's fanout, in the usual case) goes out now, before the
  // socket poll the posted slice would wait behind. One slice, as the loop would run next.
  if (!slice_posted_) return;
  ++slices_after_input_;
  run_slice();
}

void BgpSpeaker::check_input() {
  const bool congested = pipeline_ && pipeline_->input_congested();
  if (!input_paused_ && !congested) return;
  if (!input_paused_) {
    input_paused_ = true;
    ++input_pauses_;
    for (auto& [addr, p] : peers_) p->SetReadPaused(true);
  } else if (!pipeline_ || pipeline_->input_drained()) {
    input_paused_ = false;
    input_timer_.reset();
    for (auto& [addr, p] : peers_) p->SetReadPaused(false);
    return;
  }
  if (input_timer_) return;
  input_timer_ = std::make_unique<boost::asio::steady_timer>(io_, std::chrono::milliseconds(50));
  input_timer_->async_wait(
      [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
        if (ec || alive.expired()) return;
        input_timer_.reset();
        check_input();
      });
}

BgpPeer* BgpSpeaker::find(const IpAddr& a) {
  auto it = peers_.find(a);
  return it == peers_.end() ? nullptr : it->second.get();
}

const BgpPeer* BgpSpeaker::peer(const IpAddr& a) const {
  auto it = peers_.find(a);
  return it == peers_.end() ? nullptr : it->second.get();
}

std::vector<uint16_t> BgpSpeaker::listen_ports() const {
  std::vector<uint16_t> out;
  if (listener_) {
    for (const auto& ep : listener_->endpoints()) out.push_back(ep.port());
  }
  return out;
}

StatusOr<PolicyRef> BgpSpeaker::policy_or_null(const std::string& name) const {
  if (name.empty()) return PolicyRef();
  auto it = policies_.find(name);
  if (it == policies_.end()) return NotFound("no policy '" + name + "'");
  return it->second;
}

StatusOr<std::unique_ptr<BgpListener>> BgpSpeaker::open_listener(const LocalConfig& c) const {
  const std::string device = usable_device();
  if (!c.listen_address) return BgpListener::OpenDualStack(io_, c.port, device);
  return BgpListener::Open(io_, {boost::asio::ip::tcp::endpoint(ToAsio(*c.listen_address), c.port)},
                           device);
}

std::string BgpSpeaker::usable_device() const {
  if (bind_device_.empty() || if_nametoindex(bind_device_.c_str()) != 0) return bind_device_;
  // A kernel without VRF devices: the FEA steers the VR's interfaces with ip rules instead,
  // and the sockets stay in the main table.
  log_->warn("VRF device {} does not exist (a kernel without VRF devices?): sockets not bound",
             bind_device_);
  return "";
}

bool BgpSpeaker::listens_on(const LocalConfig& c, const IpAddr& addr, uint16_t port) {
  if (port != c.port) return false;
  if (c.listen_address) return *c.listen_address == addr;
  return IsLocalAddress(addr);  // open_listener listens on the any address of both families
}

Status BgpSpeaker::SetLocalConfig(const LocalConfig& config) {
  if (config.local_as == 0) return InvalidArgument("local_as must be 1..4294967295");
  if (!config.router_id.is_v4() || config.router_id.is_zero()) {
    return InvalidArgument("router_id must be a non-zero IPv4 address");
  }
  if (config.cluster_id && (!config.cluster_id->is_v4() || config.cluster_id->is_zero())) {
    return InvalidArgument("cluster_id must be a non-zero IPv4 address");
  }
  if (config.confed.enabled() && config.confed.identifier == config.local_as) {
    return InvalidArgument("confederation identifier must differ from local_as (the member AS)");
  }
  if (!config.confed.enabled() && !config.confed.members.empty()) {
    return InvalidArgument("confederation members without an identifier");
  }
  if (config.confed.IsMember(config.confed.identifier)) {
    return InvalidArgument("the confederation identifier cannot be a member AS");
  }
  if (local_ && *local_ == config) return Status::Ok();
  const bool rebind =
      !local_ || local_->listen_address != config.listen_address || local_->port != config.port;
  const bool rebuild =
      local_ && (local_->local_as != config.local_as || local_->router_id != config.router_id ||
                 local_->cluster_id != config.cluster_id || local_->confed != config.confed);
  if (rebind) {
    for (const auto& [addr, p] : peers_) {
      if (listens_on(config, addr, p->settings().session.peer_port)) {
        return InvalidArgument("listening there would take the connections to peer " +
                               addr.ToString() + ": it would connect to itself");
      }
    }
  }
  // Every peer's connections are taken by the listener.
  auto attach_peers = [this](BgpListener& listener) {
    for (auto& [addr, p] : peers_) {
      BgpPeer* raw = p.get();
      if (Status s = listener.AddPeer(
              addr, [raw](boost::asio::ip::tcp::socket s) { raw->Accept(std::move(s)); },
              raw->settings().session.md5_password);
          !s.ok()) {
        log_->error("peer {}: {}", addr.ToString(), s.ToString());
      }
    }
  };
  if (rebind) {
    // The old listener closes first: the new one may take its port on another address (any).
    listener_.reset();
    auto opened = open_listener(config);
    if (!opened.ok()) {
      if (local_) {
        auto back = open_listener(*local_);
        if (back.ok()) {
          listener_ = std::move(*back);
          attach_peers(*listener_);
        } else {
          log_->error("cannot listen again on the old address: {}", back.status().ToString());
        }
      }
      return InvalidArgument(
          "cannot listen on " +
          (config.listen_address ? config.listen_address->ToString() : std::string("any address")) +
          " port " + std::to_string(config.port) + ": " + opened.status().message());
    }
    listener_ = std::move(*opened);
    attach_peers(*listener_);
  }
  const std::optional<LocalConfig> previous = local_;
  local_ = config;
  if (!previous) return build_pipeline();
  if (!rebuild && !previous->graceful_restart.SameSessionTimes(config.graceful_restart)) {
    log_->info("graceful restart times changed: resetting every session");
    readd_peers();
  }
  if (rebuild) {
    log_->info("AS, router id, cluster id or confederation changed: resetting every session");
    std::vector<PeerSettings> saved;
    for (auto& [addr, p] : peers_) saved.push_back(p->settings());
    teardown_pipeline();
    if (Status s = build_pipeline(); !s.ok()) return s;
    for (PeerSettings& ps : saved) {
      if (Status s = AddPeer(std::move(ps)); !s.ok()) {
        log_->error("re-adding a peer after the AS change failed: {}", s.ToString());
      }
    }
  }
  return Status::Ok();
}

Status BgpSpeaker::build_pipeline() {
  PipelineConfig pc;
  pc.local_as = local_->local_as;
  pc.router_id = local_->router_id;
  pc.cluster_id = cluster_id().v4_host_order();
  pc.confed = local_->confed;
  pc.clock = clock_;
  pc.input_high_water = input_high_water_;
  pc.input_low_water = input_low_water_;
  pipeline_ = std::make_unique<BgpPipeline>(pc, oracle_, rib_, scheduler_);
  if (Status s = pipeline_->set_damping(damping_); !s.ok()) return s;
  if (Status s = pipeline_->set_multipath(multipath_); !s.ok()) return s;
  pipeline_->set_vrps(rtr_ ? &vrps_ : nullptr);
  PipelinePeerConfig local;
  local.address = IpAddr();
  local.peer_as = 0;
  local.local = true;
  auto id = pipeline_->add_peer(std::move(local));
  if (!id.ok()) return id.status();
  local_peer_id_ = *id;
  if (Status s = pipeline_->peer_up(local_peer_id_, local_->router_id, null_sink_); !s.ok()) {
    return s;
  }
  for (const auto& [prefix, nh] : networks_) inject_network(prefix, nh);
  for (const auto& [prefix, a] : aggregates_) {
    if (Status s = pipeline_->set_aggregate(a); !s.ok()) return s;
  }
  for (const auto& [prefix, r] : redist_) {
    if (!networks_.contains(prefix)) inject_redist(prefix, r);
  }
  return Status::Ok();
}

void BgpSpeaker::teardown_pipeline() {
  if (listener_) {
    for (auto& [addr, p] : peers_) listener_->RemovePeer(addr);
  }
  peers_.clear();
  if (hooks_.before_rebuild) hooks_.before_rebuild();
  pipeline_.reset();
}

StatusOr<std::unique_ptr<BgpPeer>> BgpSpeaker::make_peer(PeerSettings settings) {
  auto import_policy = policy_or_null(settings.import_policy);
  if (!import_policy.ok()) return import_policy.status();
  auto export_policy = policy_or_null(settings.export_policy);
  if (!export_policy.ok()) return export_policy.status();
  auto peer = BgpPeer::Create(io_, *pipeline_, interner_, std::move(settings), *import_policy,
                              *export_policy, vr_policies_, /*start=*/!hold_sessions_);
  if (peer.ok()) {
    (*peer)->set_restart_hooks([this] { return restarting_; }, [this] { check_restart_done(); });
    (*peer)->set_input_done_hook([this] { input_done(); });
    (*peer)->set_journal(&update_journal_);
  }
  return peer;
}

Status BgpSpeaker::prepare_settings(PeerSettings& settings) const {
  if (settings.session.peer_address.is_zero()) {
    return InvalidArgument("peer address is missing or zero");
  }
  settings.session.local_as = local_->local_as;
  settings.session.bind_device = usable_device();
  settings.session.confed = local_->confed;
  settings.session.router_id = local_->router_id;
  apply_graceful_restart(settings);
  if (settings.session.peer_type() == PeerType::kInternal && !settings.session.multihop_ttl &&
      !settings.session.ttl_security_hops) {
    settings.session.multihop_ttl = 64;
  }
  if (Status s = settings.session.Validate(); !s.ok()) return s;
  const PeerConfig& c = settings.session;
  if (listens_on(*local_, c.peer_address, c.peer_port)) {
    return InvalidArgument("peer " + c.peer_address.ToString() + " port " +
                           std::to_string(c.peer_port) +
                           " is this speaker's own listening socket: it would connect to itself");
  }
  return ProbeSessionSocket(settings.session);
}

Status BgpSpeaker::AddPeer(PeerSettings settings) {
  if (!configured()) return FailedPrecondition("set_local_config must come before add_peer");
  const IpAddr addr = settings.session.peer_address;
  if (!addr.is_zero() && peers_.contains(addr)) {
    return AlreadyExists("peer " + addr.ToString() + " is already configured");
  }
  if (Status s = prepare_settings(settings); !s.ok()) return s;
  if (build_check_) {
    if (Status s = build_check_(settings); !s.ok()) return s;
  }
  // The listener's key goes first: a peer whose key the kernel refuses is not added.
  if (listener_) {
    // The peer does not exist yet; connections arriving before it does are refused.
    if (Status s = listener_->AddPeer(
            addr, [](boost::asio::ip::tcp::socket sock) { sock.close(); },
            settings.session.md5_password);
        !s.ok()) {
      listener_->RemovePeer(addr);
      return InvalidArgument("md5_password: " + s.message());
    }
  }
  auto peer = make_peer(std::move(settings));
  if (!peer.ok()) {
    if (listener_) listener_->RemovePeer(addr);
    return peer.status();
  }
  BgpPeer* raw = peer->get();
  peers_.emplace(addr, std::move(*peer));
  if (listener_) {
    (void)listener_->AddPeer(
        addr, [raw](boost::asio::ip::tcp::socket s) { raw->Accept(std::move(s)); },
        raw->settings().session.md5_password);
  }
  log_->info("peer {} added", raw->settings().session.Name());
  update_export_protocols();
  return Status::Ok();
}

void BgpSpeaker::change_in_place(BgpPeer& p, const PeerSettings& settings) {
  const PeerConfig& c = settings.session;
  const PeerConfig& old = p.settings().session;
  p.set_description(c.description);
  p.set_group(settings.group);
  p.SetEbgpRequiresPolicy(settings.ebgp_requires_policy);
  if (c.max_prefixes != old.max_prefixes ||
      c.max_prefixes_warning_pct != old.max_prefixes_warning_pct ||
      c.max_prefixes_restart != old.max_prefixes_restart) {
    p.SetPrefixLimit(c.max_prefixes, c.max_prefixes_warning_pct, c.max_prefixes_restart);
  }
  if (settings.enabled && !p.settings().enabled) p.Enable();
  if (!settings.enabled && p.settings().enabled) p.Disable();
}

Status BgpSpeaker::ChangePeer(PeerSettings settings) {
  if (!configured()) return FailedPrecondition("set_local_config must come before change_peer");
  const IpAddr addr = settings.session.peer_address;
  BgpPeer* p = find(addr);
  if (!p) return NotFound("no peer " + addr.ToString());
  if (Status s = prepare_settings(settings); !s.ok()) return s;
  settings.import_policy = p->settings().import_policy;
  settings.export_policy = p->settings().export_policy;
  // Settings that neither name the connection nor were negotiated change in place.
  const PeerConfig& a = settings.session;
  const PeerConfig& b = p->settings().session;
  const bool same_session =
      a.peer_address == b.peer_address && a.peer_port == b.peer_port && a.peer_as == b.peer_as &&
      a.local_address == b.local_address && a.passive == b.passive && a.hold_time == b.hold_time &&
      a.keepalive_time == b.keepalive_time && a.connect_retry == b.connect_retry &&
      a.multihop_ttl == b.multihop_ttl && a.next_hop_self == b.next_hop_self &&
      a.mrai_ms == b.mrai_ms && a.families == b.families && a.md5_password == b.md5_password &&
      a.ttl_security_hops == b.ttl_security_hops && a.enforce_first_as == b.enforce_first_as &&
      a.route_reflector_client == b.route_reflector_client &&
      a.graceful_restart == b.graceful_restart &&
      a.long_lived_graceful_restart == b.long_lived_graceful_restart && a.as_path == b.as_path &&
      a.default_originate == b.default_originate;
  if (same_session) {
    change_in_place(*p, settings);
    return Status::Ok();
  }
  // Everything that can fail is tried before the old session goes: the listener's key for the
  // new settings (put back if refused).
  const PeerSettings old = p->settings();
  if (listener_ && settings.session.md5_password != old.session.md5_password) {
    auto accept = [p](boost::asio::ip::tcp::socket s) { p->Accept(std::move(s)); };
    if (Status s = listener_->AddPeer(addr, accept, settings.session.md5_password); !s.ok()) {
      (void)listener_->AddPeer(addr, accept, old.session.md5_password);
      return InvalidArgument("md5_password: " + s.message());
    }
  }
  if (listener_) listener_->RemovePeer(addr);
  peers_.erase(addr);
  Status s = AddPeer(std::move(settings));
  if (s.ok()) return s;
  log_->error("changing peer {} failed after its session was closed ({}): restoring it",
              addr.ToString(), s.ToString());
  if (Status r = AddPeer(old); !r.ok()) {
    log_->error("restoring peer {} failed: {}", addr.ToString(), r.ToString());
    return Internal("change failed (" + s.message() + ") and restoring the peer failed (" +
                    r.message() + ")");
  }
  return s;
}

Status BgpSpeaker::DeletePeer(const IpAddr& peer) {
  if (!find(peer)) return NotFound("no peer " + peer.ToString());
  if (listener_) listener_->RemovePeer(peer);
  peers_.erase(peer);
  log_->info("peer {} deleted", peer.ToString());
  update_export_protocols();
  return Status::Ok();
}

Status BgpSpeaker::EnablePeer(const IpAddr& peer) {
  BgpPeer* p = find(peer);
  if (!p) return NotFound("no peer " + peer.ToString());
  p->Enable();
  return Status::Ok();
}

Status BgpSpeaker::DisablePeer(const IpAddr& peer) {
  BgpPeer* p = find(peer);
  if (!p) return NotFound("no peer " + peer.ToString());
  p->Disable();
  return Status::Ok();
}

size_t BgpSpeaker::StopSessions() {
  for (auto& [addr, p] : peers_) p->Disable();
  return peers_.size();
}

Status BgpSpeaker::ResetPeer(const IpAddr& peer) {
  BgpPeer* p = find(peer);
  if (!p) return NotFound("no peer " + peer.ToString());
  p->HardReset();
  return Status::Ok();
}

Status BgpSpeaker::BfdDown(const IpAddr& peer) {
  BgpPeer* p = find(peer);
  if (!p) return NotFound("no peer " + peer.ToString());
  p->BfdDown();
  return Status::Ok();
}

Status BgpSpeaker::SoftResetPeer(const IpAddr& peer, std::string_view direction) {
  const bool in = direction == "in" || direction == "both";
  const bool out = direction == "out" || direction == "both";
  if (!in && !out) {
    return InvalidArgument("direction '" + std::string(direction) + "' is not in, out or both");
  }
  BgpPeer* p = find(peer);
  if (!p) return NotFound("no peer " + peer.ToString());
  if (in) {
    if (Status s = p->SoftResetIn(); !s.ok()) return s;
  }
  if (out) return p->SoftResetOut();
  return Status::Ok();
}

void BgpSpeaker::inject_network(const IpPrefix& prefix, const std::optional<IpAddr>& nexthop) {
  PathAttributes a;
  a.origin = Origin::kIgp;
  a.as_path = AsPath();
  a.next_hop = nexthop ? *nexthop : IpAddr::Zero(prefix.family());
  AttributeSetPtr attrs = interner_.Intern(std::move(a));
  const IpPrefix one[] = {prefix};
  (void)pipeline_->receive_update(local_peer_id_, attrs, one, {});
}

Status BgpSpeaker::AddNetwork(const IpPrefix& prefix, std::optional<IpAddr> nexthop) {
  if (!configured()) return FailedPrecondition("set_local_config must come before add_network");
  if (nexthop && nexthop->family() != prefix.family()) {
    return InvalidArgument("nexthop " + nexthop->ToString() + " is not of the family of " +
                           prefix.ToString());
  }
  if (nexthop && nexthop->is_zero()) nexthop.reset();
  if (networks_.contains(prefix)) {
    return AlreadyExists("network " + prefix.ToString() + " is already originated");
  }
  networks_.emplace(prefix, nexthop);
  inject_network(prefix, nexthop);
  log_->info("network {} originated", prefix.ToString());
  return Status::Ok();
}

Status BgpSpeaker::AddAggregate(const AggregateConfig& config) {
  if (!configured()) return FailedPrecondition("set_local_config must come before add_aggregate");
  if (Status s = pipeline_->set_aggregate(config); !s.ok()) return s;
  aggregates_[config.prefix] = config;
  log_->info("aggregate {}{}{} configured", config.prefix.ToString(),
             config.summary_only ? " summary-only" : "", config.as_set ? " as-set" : "");
  return Status::Ok();
}

Status BgpSpeaker::DeleteAggregate(const IpPrefix& prefix) {
  if (!configured())
    return FailedPrecondition("set_local_config must come before delete_aggregate");
  if (!aggregates_.erase(prefix)) return NotFound("no aggregate " + prefix.ToString());
  return pipeline_->delete_aggregate(prefix);
}

Status BgpSpeaker::DeleteNetwork(const IpPrefix& prefix) {
  if (!networks_.erase(prefix)) return NotFound("network " + prefix.ToString() + " is not ours");
  if (auto it = redist_.find(prefix); it != redist_.end() && pipeline_) {
    inject_redist(prefix, it->second);  // the redistributed route replaces it
  } else {
    withdraw_local(prefix);
  }
  return Status::Ok();
}

Status BgpSpeaker::DefinePolicy(Policy policy) {
  if (Status s = ValidatePolicy(policy); !s.ok()) return s;
  const std::string name = policy.name;
  auto ref = std::make_shared<const Policy>(std::move(policy));
  policies_[name] = ref;
  update_export_protocols();  // before the re-filters (bgp_speaker_vr_policy.cc)
  // Re-evaluate the routes of every peer using it.
  for (auto& [addr, p] : peers_) {
    if (p->settings().import_policy == name) p->SetImportPolicy(name, ref);
    if (p->settings().export_policy == name) p->SetExportPolicy(name, ref);
  }
  for (PolicyDirection d : {PolicyDirection::kImport, PolicyDirection::kExport}) {
    PolicyBinding& vr = vr_policies_.at(d);
    if (vr.name != name) continue;
    vr.policy = ref;
    for (auto& [addr, p] : peers_) p->SetVrPolicy(d, vr);
  }
  return Status::Ok();
}

Status BgpSpeaker::DeletePolicy(const std::string& name) {
  if (!policies_.contains(name)) return NotFound("no policy '" + name + "'");
  for (const auto& [addr, p] : peers_) {
    if (p->settings().import_policy == name || p->settings().export_policy == name) {
      return FailedPrecondition("policy '" + name + "' is used by peer " + addr.ToString());
    }
  }
  if (vr_policies_.import_policy.name == name || vr_policies_.export_policy.name == name) {
    return FailedPrecondition("policy '" + name + "' is the VR's import or export policy");
  }
  policies_.erase(name);
  return Status::Ok();
}

Status BgpSpeaker::SetPeerPolicy(const IpAddr& peer, PolicyDirection direction,
                                 const std::string& name) {
  BgpPeer* p = find(peer);
  if (!p) return NotFound("no peer " + peer.ToString());
  if (name.empty()) return InvalidArgument("policy name is empty");
  auto ref = policy_or_null(name);
  if (!ref.ok()) return ref.status();
  if (direction == PolicyDirection::kImport) {
    p->SetImportPolicy(name, *ref);
  } else {
    update_export_protocols(std::nullopt, std::make_pair(peer, name));
    p->SetExportPolicy(name, *ref);
  }
  return Status::Ok();
}

Status BgpSpeaker::ClearPeerPolicy(const IpAddr& peer, PolicyDirection direction) {
  BgpPeer* p = find(peer);
  if (!p) return NotFound("no peer " + peer.ToString());
  if (direction == PolicyDirection::kImport) {
    p->SetImportPolicy("", nullptr);
  } else {
    update_export_protocols(std::nullopt, std::make_pair(peer, std::string()));
    p->SetExportPolicy("", nullptr);
  }
  return Status::Ok();
}

Status BgpSpeaker::SetDamping(std::optional<DampingParams> params) {
  if (params) {
    if (Status s = ValidateDampingParams(*params); !s.ok()) return s;
  }
  if (pipeline_) {
    if (Status s = pipeline_->set_damping(params); !s.ok()) return s;
  }
  if (params && params != damping_) {
    log_->info(
        "route flap damping on: half-life {}s reuse {} suppress {} max-suppress {}s "
        "withdraw-penalty {} attribute-change-penalty {}",
        params->half_life.count(), params->reuse, params->suppress, params->max_suppress.count(),
        params->withdraw_penalty, params->attribute_change_penalty);
  } else if (!params && damping_) {
    log_->info("route flap damping off");
  }
  damping_ = std::move(params);
  return Status::Ok();
}

Status BgpSpeaker::SetMultipath(const MultipathConfig& config) {
  if (Status s = ValidateMultipathConfig(config); !s.ok()) return s;
  if (pipeline_) {
    if (Status s = pipeline_->set_multipath(config); !s.ok()) return s;
  }
  if (config != multipath_) {
    log_->info("multipath: ebgp {} ibgp {} paths{}", config.ebgp_paths, config.ibgp_paths,
               config.multiple_as ? ", multiple-as" : "");
  }
  multipath_ = config;
  return Status::Ok();
}

}  // namespace strata::bgp
