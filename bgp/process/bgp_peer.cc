#include "bgp/process/bgp_peer.h"

#include <algorithm>
#include <span>
#include <vector>

#include "bgp/session/socket_probe.h"
#include "bgp/wire/next_hop_rules.h"
#include "common/profiler.h"
#include "common/unix_time.h"

namespace strata::bgp {
namespace {
ProfilePoint& profile_in = Profiler::Get().Point(kProfileBgpIn);
}  // namespace

StatusOr<std::unique_ptr<BgpPeer>> BgpPeer::Create(boost::asio::io_context& io,
                                                   BgpPipeline& pipeline,
                                                   AttributeInterner& interner,
                                                   PeerSettings settings, PolicyRef import_policy,
                                                   PolicyRef export_policy, const VrPolicies& vr,
                                                   bool start) {
  if (Status s = settings.session.Validate(); !s.ok()) return s;
  std::unique_ptr<BgpPeer> peer(new BgpPeer(io, pipeline, interner, std::move(settings)));
  auto session = PeerSession::Create(io, peer->settings_.session, peer.get());
  if (!session.ok()) return session.status();
  peer->session_ = std::move(*session);
  const PeerConfig& sc = peer->settings_.session;
  PipelinePeerConfig pc;
  pc.address = sc.peer_address;
  pc.peer_as = sc.peer_as;
  if (sc.local_address) pc.local_address = *sc.local_address;
  pc.next_hop_self = sc.next_hop_self;
  pc.directly_connected = sc.peer_type() == PeerType::kExternal && !sc.multihop_ttl &&
                          (!sc.ttl_security_hops || *sc.ttl_security_hops == 1) &&
                          !IsLoopback(sc.peer_address);
  pc.route_reflector_client = sc.route_reflector_client;
  pc.as_path = sc.as_path;
  pc.default_originate = sc.default_originate;
  peer->import_policy_ = std::move(import_policy);
  peer->export_policy_ = std::move(export_policy);
  peer->vr_policies_ = vr;
  pc.import_policy = peer->import_hook();
  pc.export_policy = peer->export_hook();
  auto id = pipeline.add_peer(std::move(pc));
  if (!id.ok()) return id.status();
  peer->id_ = *id;
  peer->gr_ = std::make_unique<PeerGracefulRestart>(
      io, pipeline, peer->id_, sc.Name(),
      std::chrono::seconds(peer->settings_.graceful_restart_config.stale_time),
      std::chrono::seconds(peer->settings_.long_lived_stale_time),
      peer->settings_.graceful_restart);
  peer->since_ = std::chrono::steady_clock::now();
  if (peer->settings_.enabled && start) peer->session_->Start();
  return peer;
}

BgpPeer::BgpPeer(boost::asio::io_context& io, BgpPipeline& pipeline, AttributeInterner& interner,
                 PeerSettings settings)
    : io_(io),
      pipeline_(pipeline),
      interner_(interner),
      settings_(std::move(settings)),
      log_(MakeLogger("bgp.peer")) {}

BgpPeer::~BgpPeer() {
  *alive_ = false;
  if (session_) session_->Stop(CeaseSubcode::kPeerDeconfigured);
  if (up_) (void)pipeline_.peer_down(id_);
  gr_.reset();
  if (id_ != 0) (void)pipeline_.remove_peer(id_);
}

void BgpPeer::Enable() {
  settings_.enabled = true;
  clear_prefix_limit();
  session_->Start();
}

void BgpPeer::Disable() {
  settings_.enabled = false;
  clear_prefix_limit();
  session_->Stop(CeaseSubcode::kAdministrativeShutdown);
}

void BgpPeer::HardReset() {
  clear_prefix_limit();
  session_->Stop(CeaseSubcode::kAdministrativeReset);
  if (settings_.enabled) session_->Start();
}

void BgpPeer::BfdDown() {
  session_->Stop(CeaseSubcode::kBfdDown);
  if (settings_.enabled) session_->Start();
}

Status BgpPeer::SoftResetIn() {
  if (!negotiated_) return FailedPrecondition("peer " + settings_.session.Name() + " is not up");
  if (!negotiated_->route_refresh) {
    return FailedPrecondition("peer " + settings_.session.Name() +
                              " did not negotiate route refresh; use reset_peer");
  }
  for (const AfiSafi& f : negotiated_->families) {
    if (Status s = session_->SendRouteRefresh(f); !s.ok()) return s;
  }
  return Status::Ok();
}

Status BgpPeer::SoftResetOut() {
  if (!negotiated_) return FailedPrecondition("peer " + settings_.session.Name() + " is not up");
  for (const AfiSafi& f : negotiated_->families) announce_adj_out(f);
  return Status::Ok();
}

void BgpPeer::SetImportPolicy(const std::string& name, PolicyRef policy) {
  settings_.import_policy = name;
  import_policy_ = std::move(policy);
  (void)pipeline_.set_import_policy(id_, import_hook());
}

void BgpPeer::SetExportPolicy(const std::string& name, PolicyRef policy) {
  settings_.export_policy = name;
  export_policy_ = std::move(policy);
  (void)pipeline_.set_export_policy(id_, export_hook());
}

ExportSelf BgpPeer::export_self() const {
  ExportSelf self;
  std::optional<IpAddr> local = local_address_;
  if (!local && settings_.session.local_address) local = settings_.session.local_address;
  if (local) (local->is_v4() ? self.v4 : self.v6) = *local;
  if (other_family_next_hop_) {
    (other_family_next_hop_->is_v4() ? self.v4 : self.v6) = *other_family_next_hop_;
  }
  if (negotiated_) {
    self.ipv4 = self.ipv6 = false;
    for (const AfiSafi& f : negotiated_->families) {
      if (f == kIpv4Unicast) self.ipv4 = true;
      if (f == kIpv6Unicast) self.ipv6 = true;
    }
  }
  return self;
}

std::string BgpPeer::last_error() const {
  const auto& c = session_->fsm().counters();
  if (!c.last_down_reason.empty()) return c.last_down_reason;
  if (c.last_notification_received) return "received " + c.last_notification_received->ToString();
  if (c.last_notification_sent) return "sent " + c.last_notification_sent->ToString();
  return "";
}

void BgpPeer::OnSessionEstablished(const NegotiatedSession& session) {
  negotiated_ = session;
  limit_warned_ = false;
  local_address_ = session_->local_address();
  since_ = std::chrono::steady_clock::now();
  gate_.Clear();
  // Restarting: the dump and every change until the speaker's selection is done stay here.
  if (defer_eor_ && defer_eor_()) gate_.Close();
  other_family_next_hop_.reset();
  if (local_address_) {
    const Family other = local_address_->is_v4() ? Family::kIpv6 : Family::kIpv4;
    const bool sends_other = std::any_of(session.families.begin(), session.families.end(),
                                         [&](const AfiSafi& f) { return f == UnicastOf(other); });
    if (sends_other) {
      other_family_next_hop_ = settings_.session.other_family_next_hop
                                   ? settings_.session.other_family_next_hop
                                   : InterfaceAddressOfFamily(*local_address_, other);
    }
    (void)pipeline_.set_local_addresses(id_, *local_address_, other_family_next_hop_);
    if (sends_other && !other_family_next_hop_) {
      log_->warn(
          "{}: no {} address on the interface of {} to send as next hop: no {} route is "
          "sent (configure {}-next-hop)",
          settings_.session.Name(), FamilyName(other), local_address_->ToString(),
          FamilyName(other), FamilyName(other));
    }
  }
  (void)pipeline_.set_export_policy(id_, export_hook());
  const OpenMessage* open = session_->fsm().remote_open();
  const IpAddr router_id = open ? open->bgp_id : settings_.session.peer_address;
  (void)pipeline_.set_llgr_negotiated(id_, session.long_lived_graceful_restart);
  if (Status s = pipeline_.peer_up(id_, router_id, *this); !s.ok()) {
    log_->error("{}: peer_up failed: {}", settings_.session.Name(), s.ToString());
    return;
  }
  up_ = true;
  eor_received_.clear();
  {
    const auto& c = session_->fsm().counters();
    notifications_in_at_up_ = c.in(MessageType::kNotification);
    notifications_out_at_up_ = c.out(MessageType::kNotification);
  }
  gr_->OnEstablished(session);
  // A peer restarting too (R bit) or without graceful restart sends no End-of-RIB we wait for.
  if (eor_in_hook_) eor_in_hook_();
  log_->info("{} established (local address {})", settings_.session.Name(),
             local_address_ ? local_address_->ToString() : "unknown");
  watch_end_of_rib();
}

void BgpPeer::watch_end_of_rib() {
  eor_timer_ = std::make_unique<boost::asio::steady_timer>(io_, std::chrono::milliseconds(50));
  eor_timer_->async_wait(
      [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
        if (ec || alive.expired() || !up_ || !negotiated_) return;
        if (!pipeline_.dump_done(id_) || gate_.closed() || (defer_eor_ && defer_eor_())) {
          watch_end_of_rib();
          return;
        }
        for (const AfiSafi& f : negotiated_->families) {
          if (Status s = session_->SendEndOfRib(f); !s.ok()) {
            log_->warn("{}: End-of-RIB: {}", settings_.session.Name(), s.ToString());
          }
        }
      });
}

void BgpPeer::OnUpdate(UpdateDecodeResult&& update) {
  if (update.action != ErrorAction::kNone) {
    ++counters_.malformed_updates;
    log_->warn("{}: UPDATE with RFC 7606 outcome: {}", settings_.session.Name(), update.ToString());
    if (update.action == ErrorAction::kTreatAsWithdraw) {
      std::vector<IpPrefix> lost = update.update.nlri;
      if (update.update.mp_reach) {
        lost.insert(lost.end(), update.update.mp_reach->nlri.begin(),
                    update.update.mp_reach->nlri.end());
      }
      std::string why = "RFC 7606 treat-as-withdraw";
      for (const UpdateProblem& p : update.problems) {
        if (p.action == ErrorAction::kTreatAsWithdraw) why += ": " + p.reason;
      }
      discards_.Add(lost, DiscardLog::Reason::kMalformed, std::move(why), UnixMillisNow());
    }
  }
  if (update.end_of_rib) {
    ++counters_.end_of_rib_in;
    if (up_) {
      eor_received_.insert(*update.end_of_rib);
      gr_->OnEndOfRib(*update.end_of_rib);
      if (eor_in_hook_) eor_in_hook_();
    }
    return;
  }
  if (!up_) return;
  std::vector<IpPrefix> announced = update.Announcements();
  std::vector<IpPrefix> withdrawn = update.Withdrawals();
  if (profile_in.enabled()) {
    for (const IpPrefix& p : announced) profile_in.Record("add " + p.ToString());
    for (const IpPrefix& p : withdrawn) profile_in.Record("delete " + p.ToString());
  }
  if (!announced.empty() && first_as_wrong(update.update.attrs)) {
    ++counters_.first_as_violations;
    const auto& path = update.update.attrs.as_path;
    log_->warn("{}: UPDATE with AS_PATH '{}' not starting with the peer's AS: treated as withdraw",
               settings_.session.Name(), path ? path->ToString() : std::string());
    withdrawn.insert(withdrawn.end(), announced.begin(), announced.end());
    discards_.Add(announced, DiscardLog::Reason::kFirstAs,
                  "AS path '" + (path ? path->ToString() : std::string()) +
                      "' does not start with the peer's AS " +
                      std::to_string(settings_.session.peer_as),
                  UnixMillisNow());
    announced.clear();
  }
  // RFC 4271 6.3: a NEXT_HOP that is our own address on this session is semantically incorrect;
  // the routes are ignored (as withdrawn: the peer's earlier path for them goes too). Our other
  // addresses are judged by the next-hop resolver (through the RIB's connected routes).
  if (!announced.empty() && local_address_) {
    const auto& mp = update.update.mp_reach;
    for (const Family f : {Family::kIpv4, Family::kIpv6}) {
      const std::optional<IpAddr> nh =
          f == Family::kIpv4 ? update.update.attrs.next_hop
                             : (mp ? std::optional<IpAddr>(mp->next_hop) : std::nullopt);
      if (nh != local_address_) continue;
      std::vector<IpPrefix> ours;
      const auto n = std::erase_if(announced, [&](const IpPrefix& p) {
        if (p.family() != f) return false;
        withdrawn.push_back(p);
        ours.push_back(p);
        return true;
      });
      if (n == 0) continue;
      discards_.Add(ours, DiscardLog::Reason::kOwnNextHop,
                    "NEXT_HOP " + nh->ToString() + " is our address on this session (RFC 4271 6.3)",
                    UnixMillisNow());
      counters_.own_next_hop += n;
      log_->warn("{}: {} prefixes with our own address {} as NEXT_HOP: ignored",
                 settings_.session.Name(), n, nh->ToString());
    }
  }
  // IPv4 first, each family in its order, in place: nothing moves in the usual case of one
  // family per UPDATE.
  const auto is_v4 = [](const IpPrefix& p) { return p.is_v4(); };
  const auto mid = std::is_partitioned(announced.begin(), announced.end(), is_v4)
                       ? std::partition_point(announced.begin(), announced.end(), is_v4)
                       : std::stable_partition(announced.begin(), announced.end(), is_v4);
  const std::span<const IpPrefix> per_family[2] = {{announced.begin(), mid},
                                                   {mid, announced.end()}};
  RecordUpdates(journal_, UpdateEvent::Direction::kReceived, settings_.session.peer_address,
                AttributeSetPtr(), withdrawn);
  bool withdrawals_sent = false;
  for (int f = 0; f < 2; ++f) {
    if (per_family[f].empty()) continue;
    const Family family = f == 0 ? Family::kIpv4 : Family::kIpv6;
    AttributeSetPtr attrs = interner_.Intern(update.update.AttributesFor(family));
    RecordUpdates(journal_, UpdateEvent::Direction::kReceived, settings_.session.peer_address,
                  attrs, per_family[f]);
    const std::span<const IpPrefix> w =
        withdrawals_sent ? std::span<const IpPrefix>() : std::span<const IpPrefix>(withdrawn);
    (void)pipeline_.receive_update(id_, attrs, per_family[f], w);
    withdrawals_sent = true;
  }
  if (!withdrawals_sent && !withdrawn.empty()) {
    (void)pipeline_.receive_update(id_, nullptr, {}, withdrawn);
  }
  if (!announced.empty()) check_prefix_limit(announced);
}

bool BgpPeer::first_as_wrong(const PathAttributes& attrs) const {
  const PeerConfig& c = settings_.session;
  if (!c.enforce_first_as || c.peer_type() == PeerType::kInternal) return false;
  if (c.peer_type() == PeerType::kConfedExternal) {
    return !attrs.as_path || !ConfedFirstAsMatches(*attrs.as_path, c.peer_as);
  }
  const std::optional<uint32_t> first = attrs.as_path ? attrs.as_path->FirstAs() : std::nullopt;
  return first != c.peer_as;
}

void BgpPeer::check_prefix_limit(std::span<const IpPrefix> announced) {
  const PeerConfig& c = settings_.session;
  if (c.max_prefixes == 0 || limit_exceeded_) return;
  auto counters = pipeline_.counters(id_);
  if (!counters.ok()) return;
  const uint64_t received = counters->received;
  const uint64_t warn_at =
      (static_cast<uint64_t>(c.max_prefixes) * c.max_prefixes_warning_pct + 99) / 100;
  if (!limit_warned_ && received >= warn_at) {
    limit_warned_ = true;
    log_->warn("{}: {} prefixes received, {}% of the limit of {}", c.Name(), received,
               c.max_prefixes_warning_pct, c.max_prefixes);
  }
  if (received <= c.max_prefixes) return;
  limit_exceeded_ = true;
  ++counters_.max_prefixes_teardowns;
  discards_.Add(announced, DiscardLog::Reason::kMaxPrefix,
                std::to_string(received) + " prefixes received, over the limit of " +
                    std::to_string(c.max_prefixes) + ": session torn down",
                UnixMillisNow());
  log_->error("{}: {} prefixes received, over the limit of {}: session torn down{}", c.Name(),
              received, c.max_prefixes,
              c.max_prefixes_restart.count() > 0
                  ? ", restart in " + std::to_string(c.max_prefixes_restart.count()) + " ms"
                  : std::string(" until reset"));
  session_->Stop(CeaseSubcode::kMaxPrefixes);
  if (c.max_prefixes_restart.count() <= 0) return;
  limit_restart_timer_ = std::make_unique<boost::asio::steady_timer>(io_, c.max_prefixes_restart);
  limit_restart_timer_->async_wait(
      [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
        if (ec || alive.expired() || !limit_exceeded_) return;
        limit_exceeded_ = false;
        log_->info("{}: max prefixes restart timer expired, starting the session",
                   settings_.session.Name());
        if (settings_.enabled) session_->Start();
      });
}

void BgpPeer::SetPrefixLimit(uint32_t max, uint8_t warning_pct, Millis restart) {
  PeerConfig& c = settings_.session;
  c.max_prefixes = max;
  c.max_prefixes_warning_pct = warning_pct;
  c.max_prefixes_restart = restart;
  limit_warned_ = false;
  if (up_) check_prefix_limit();
}

void BgpPeer::clear_prefix_limit() {
  limit_exceeded_ = false;
  limit_restart_timer_.reset();
}

void BgpPeer::OnRouteRefresh(const RouteRefreshMessage& request) {
  ++counters_.refreshes_in;
  if (request.subtype != static_cast<uint8_t>(RouteRefreshSubtype::kNormal)) return;
  log_->info("{}: route refresh for {}", settings_.session.Name(),
             request.afi_safi == kIpv4Unicast ? "ipv4-unicast" : "another family");
  announce_adj_out(request.afi_safi);
}

void BgpPeer::announce_adj_out(AfiSafi family) {
  if (gate_.closed()) return;               // nothing sent yet: the release sends it all
  if (family.safi != kSafiUnicast) return;  // a family we do not carry: nothing was sent
  const std::optional<Family> f = family.IpFamily();
  if (!f) return;
  if (Status s = pipeline_.refresh_out(id_, *f); !s.ok()) {
    log_->warn("{}: re-announce: {}", settings_.session.Name(), s.ToString());
  }
}

void BgpPeer::ReleaseOutput() {
  if (!gate_.closed()) return;
  const OutputGate::Counters before = gate_.counters();
  const std::vector<AnnouncementGroup> groups = gate_.Open();
  for (const AnnouncementGroup& g : groups) announce(g, "deferred announce");
  log_->info("{}: route selection done: {} routes held back go out, End-of-RIB follows",
             settings_.session.Name(),
             gate_.counters().released_prefixes - before.released_prefixes);
}

void BgpPeer::OnSessionDown(std::string_view reason) {
  log_->info("{} down: {}", settings_.session.Name(), reason);
  since_ = std::chrono::steady_clock::now();
  negotiated_.reset();
  local_address_.reset();
  gate_.Clear();
  eor_received_.clear();
  eor_timer_.reset();
  if (up_) {
    up_ = false;
    const auto& c = session_->fsm().counters();
    // A Cease / Connection Collision Resolution closed the losing second connection, never the
    // established one (RFC 4271 6.8): when it is the last NOTIFICATION either way, the session
    // itself ended without one, and graceful restart applies (RFC 4724 4.2).
    auto collision = [](const std::optional<NotificationMessage>& n) {
      return n && n->code == static_cast<uint8_t>(ErrorCode::kCease) &&
             n->subcode == static_cast<uint8_t>(CeaseSubcode::kConnectionCollisionResolution);
    };
    const bool sent = c.out(MessageType::kNotification) > notifications_out_at_up_ &&
                      !collision(c.last_notification_sent);
    const bool received = c.in(MessageType::kNotification) > notifications_in_at_up_ &&
                          !collision(c.last_notification_received);
    const bool hold_expired =
        sent && c.last_notification_sent &&
        c.last_notification_sent->code == static_cast<uint8_t>(ErrorCode::kHoldTimerExpired);
    if (!gr_->OnDown(received, sent, hold_expired)) {
      (void)pipeline_.peer_down(id_);
    }
  }
}

bool BgpPeer::initial_table_received() const {
  if (!up_ || !negotiated_) return false;
  if (!negotiated_->graceful_restart) return true;
  for (const AfiSafi& f : negotiated_->families) {
    if (!eor_received_.contains(f)) return false;
  }
  return true;
}

void BgpPeer::OnWritable() {
  boost::asio::post(io_, [this, alive = std::weak_ptr<bool>(alive_)] {
    if (!alive.expired() && up_) (void)pipeline_.peer_output_ready(id_);
  });
}

void BgpPeer::send_updates(UpdateBatch batch) {
  if (gate_.Hold(batch)) return;
  std::vector<IpPrefix> withdrawn[2];
  for (const IpPrefix& p : batch.withdrawals) withdrawn[p.is_v4() ? 0 : 1].push_back(p);
  for (int f = 0; f < 2; ++f) {
    if (withdrawn[f].empty()) continue;
    RecordUpdates(journal_, UpdateEvent::Direction::kSent, settings_.session.peer_address,
                  AttributeSetPtr(), withdrawn[f]);
    if (Status s = session_->Withdraw(f == 0 ? kIpv4Unicast : kIpv6Unicast, withdrawn[f]);
        !s.ok()) {
      ++counters_.send_errors;
      log_->warn("{}: withdraw: {}", settings_.session.Name(), s.ToString());
    }
  }
  for (const AnnouncementGroup& g : batch.announcements) announce(g, "announce");
}

void BgpPeer::announce(const AnnouncementGroup& g, const char* what) {
  const AfiSafi family = UnicastOf(g.family);
  RecordUpdates(journal_, UpdateEvent::Direction::kSent, settings_.session.peer_address, g.attrs,
                g.prefixes);
  Status s = session_->Announce(g.attrs, family, g.prefixes);
  if (s.code() == StatusCode::kResourceExhausted) {
    PathAttributes slim = g.attrs->attrs();
    const bool trimmed = slim.aggregator() || slim.atomic_aggregate;
    slim.aggregator().reset();
    slim.atomic_aggregate = false;
    if (trimmed) s = session_->Announce(slim, family, g.prefixes);
    if (s.code() == StatusCode::kResourceExhausted) {
      counters_.oversize_withdrawn += g.prefixes.size();
      log_->warn("{}: {} prefixes from {} do not fit an UPDATE to this peer ({}): withdrawn",
                 settings_.session.Name(), g.prefixes.size(), g.prefixes.front().ToString(),
                 s.message());
      s = session_->Withdraw(family, g.prefixes);
    }
  }
  if (!s.ok()) {
    ++counters_.send_errors;
    log_->warn("{}: {}: {}", settings_.session.Name(), what, s.ToString());
  }
}

}  // namespace strata::bgp
