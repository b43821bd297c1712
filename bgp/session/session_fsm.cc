#include "bgp/session/session_fsm.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "bgp/wire/message_header.h"
#include "bgp/wire/update_packer.h"
#include "common/log.h"

namespace strata::bgp {

struct SessionFsm::Conn {
  ConnId id = 0;
  bool outgoing = false;
  ConnState state = ConnState::kOpenSent;
  MessageFramer framer;
  std::optional<OpenMessage> remote_open;
  NegotiatedSession negotiated;
  std::unique_ptr<FsmTimer> hold;
  std::unique_ptr<FsmTimer> keepalive;
  std::unique_ptr<FsmTimer> delay_open;
  // Announce(AttributeSetPtr): per set, the UPDATE with its attributes and no prefixes, encoded
  // with this connection's codec.
  struct EncodedBase {
    AttributeSetPtr attrs;
    std::vector<uint8_t> bytes;
  };
  std::vector<EncodedBase> bases;
};

SessionFsm::SessionFsm(const PeerConfig& config, SessionEnv& env, SessionConsumer* consumer)
    : config_(config),
      env_(env),
      consumer_(consumer),
      negotiator_(config),
      log_(MakeLogger("bgp.session")),
      name_(config.Name()),
      connect_retry_(env.MakeTimer("connect-retry", [this] { OnConnectRetryExpired(); })),
      idle_hold_(env.MakeTimer("idle-hold", [this] { OnIdleHoldExpired(); })),
      backoff_(config.idle_hold) {}

SessionFsm::~SessionFsm() = default;

SessionFsm::Conn* SessionFsm::Find(ConnId id) {
  for (auto& c : conns_) {
    if (c->id == id) return c.get();
  }
  return nullptr;
}

SessionFsm::Conn* SessionFsm::Other(ConnId id) {
  for (auto& c : conns_) {
    if (c->id != id) return c.get();
  }
  return nullptr;
}

SessionFsm::Conn* SessionFsm::EstablishedConn() const {
  for (const auto& c : conns_) {
    if (c->state == ConnState::kEstablished) return c.get();
  }
  return nullptr;
}

const NegotiatedSession* SessionFsm::negotiated() const {
  const Conn* c = EstablishedConn();
  return c ? &c->negotiated : nullptr;
}

const OpenMessage* SessionFsm::remote_open() const {
  const Conn* c = EstablishedConn();
  return c ? &*c->remote_open : nullptr;
}

std::optional<ConnId> SessionFsm::established_connection() const {
  const Conn* c = EstablishedConn();
  return c ? std::optional<ConnId>(c->id) : std::nullopt;
}

void SessionFsm::Start() {
  if (started_) return;
  log_->info("peer={} start", name_);
  started_ = true;
  backoff_ = config_.idle_hold;
  StartConnecting();
  UpdateState();
}

void SessionFsm::Stop(CeaseSubcode subcode, std::string_view communication) {
  log_->info("peer={} stop ({})", name_, ErrorSubcodeName(6, static_cast<uint8_t>(subcode)));
  started_ = false;
  connect_retry_->Stop();
  idle_hold_->Stop();
  if (connecting_) env_.AbortConnect();
  connecting_ = false;
  const bool with_text = subcode == CeaseSubcode::kAdministrativeShutdown ||
                         subcode == CeaseSubcode::kAdministrativeReset;
  const NotificationMessage n = with_text ? MakeShutdownNotification(subcode, communication)
                                          : MakeNotification(ErrorCode::kCease, subcode);
  // The reason shown as the peer's last error: the Cease's own words unless an operator's stop.
  const std::string reason =
      with_text ? "administrative stop"
                : "stopped: " + std::string(ErrorSubcodeName(6, static_cast<uint8_t>(subcode)));
  while (!conns_.empty()) Fail(conns_.front()->id, n, LossKind::kAdmin, reason);
  backoff_ = config_.idle_hold;
  UpdateState();
}

void SessionFsm::StartConnecting() {
  if (config_.passive || connecting_) return;
  connecting_ = true;
  ++counters_.connect_attempts;
  connect_retry_->Start(config_.connect_retry);
  env_.Connect();
}

void SessionFsm::OnConnectFailed(std::string_view reason) {
  if (!connecting_) return;
  connecting_ = false;
  log_->debug("peer={} connect failed: {}", name_, reason);
  if (started_ && conns_.empty()) connect_retry_->Start(config_.connect_retry);
  UpdateState();
}

void SessionFsm::OnConnectRetryExpired() {
  if (!started_ || !conns_.empty()) return;
  if (connecting_) env_.AbortConnect();
  connecting_ = false;
  StartConnecting();
  UpdateState();
}

void SessionFsm::OnIdleHoldExpired() {
  if (!started_) return;
  StartConnecting();
  UpdateState();
}

void SessionFsm::OnTcpConnected(ConnId id, bool outgoing) {
  if (outgoing) {
    if (!connecting_) {
      env_.Close(id);
      return;
    }
    connecting_ = false;
  }
  if (!started_ || idle_hold_->running() || conns_.size() >= 2 || Find(id)) {
    log_->debug("peer={} refusing connection in {}", name_, SessionStateName(state_));
    env_.Close(id);
    UpdateState();
    return;
  }
  auto c = std::make_unique<Conn>();
  c->id = id;
  c->outgoing = outgoing;
  c->hold = env_.MakeTimer("hold", [this, id] { OnHoldExpired(id); });
  c->keepalive = env_.MakeTimer("keepalive", [this, id] { OnKeepaliveExpired(id); });
  c->delay_open = env_.MakeTimer("delay-open", [this, id] { OnDelayOpenExpired(id); });
  Conn& conn = *c;
  conns_.push_back(std::move(c));
  connect_retry_->Stop();
  log_->debug("peer={} connection {} up ({})", name_, id, outgoing ? "outgoing" : "incoming");
  if (config_.delay_open) {
    conn.state = ConnState::kDelayOpen;
    conn.delay_open->Start(*config_.delay_open);
  } else {
    SendOpen(conn);
  }
  UpdateState();
}

void SessionFsm::OnTcpClosed(ConnId id, std::string_view reason) {
  if (!Find(id)) return;
  Drop(id, LossKind::kTcp, "connection closed: " + std::string(reason));
}

void SessionFsm::OnBytes(ConnId id, std::span<const uint8_t> bytes) {
  Conn* c = Find(id);
  if (!c) return;
  c->framer.Append(bytes);
  while ((c = Find(id)) != nullptr) {
    const size_t max = c->state == ConnState::kEstablished ? c->negotiated.codec.max_message_size()
                                                           : kMaxMessageSize;
    std::span<const uint8_t> message;
    const auto result = c->framer.Next(max, message);
    if (result == MessageFramer::Result::kNeedMore) {
      if (consumer_) consumer_->OnInputDone();
      return;
    }
    if (result == MessageFramer::Result::kError) {
      Fail(id, c->framer.error(), LossKind::kError, "bad message header");
      return;
    }
    HandleMessage(id, message);
  }
}

void SessionFsm::HandleMessage(ConnId id, std::span<const uint8_t> bytes) {
  Conn& c = *Find(id);
  const auto type = static_cast<MessageType>(bytes[kHeaderSize - 1]);  // checked by the framer
  counters_.CountIn(type);
  const CodecOptions codec =
      c.state == ConnState::kEstablished ? c.negotiated.codec : CodecOptions{};
  auto decoded = DecodeMessage(bytes, codec);
  if (!decoded.ok()) {
    Fail(id, decoded.error(), LossKind::kError, "malformed message");
    return;
  }
  if ((c.state == ConnState::kOpenConfirm || c.state == ConnState::kEstablished) &&
      c.negotiated.hold_time != 0) {
    c.hold->Start(std::chrono::seconds(c.negotiated.hold_time));
  }
  Message& m = decoded.value();
  if (auto* open = std::get_if<OpenMessage>(&m)) {
    HandleOpen(c, *open);
  } else if (auto* update = std::get_if<UpdateDecodeResult>(&m)) {
    HandleUpdate(c, std::move(*update));
  } else if (auto* n = std::get_if<ReceivedNotification>(&m)) {
    counters_.last_notification_received = n->notification;
    const std::string reason = "NOTIFICATION received: " + n->notification.ToString();
    log_->warn("peer={} {}", name_, reason);
    const bool collision = n->notification.code == static_cast<uint8_t>(ErrorCode::kCease) &&
                           n->notification.subcode ==
                               static_cast<uint8_t>(CeaseSubcode::kConnectionCollisionResolution);
    Drop(id, collision ? LossKind::kCollision : LossKind::kError, reason);
  } else if (std::holds_alternative<KeepaliveMessage>(m)) {
    HandleKeepalive(c);
  } else if (auto* rr = std::get_if<RouteRefreshMessage>(&m)) {
    HandleRouteRefresh(c, *rr);
  }
}

void SessionFsm::UnexpectedMessage(Conn& c, std::string_view what) {
  FsmError subcode = FsmError::kUnspecified;
  if (c.state == ConnState::kOpenSent) subcode = FsmError::kUnexpectedInOpenSent;
  if (c.state == ConnState::kOpenConfirm) subcode = FsmError::kUnexpectedInOpenConfirm;
  if (c.state == ConnState::kEstablished) subcode = FsmError::kUnexpectedInEstablished;
  Fail(c.id, MakeNotification(ErrorCode::kFsm, subcode), LossKind::kError,
       "unexpected " + std::string(what));
}

void SessionFsm::HandleOpen(Conn& c, const OpenMessage& open) {
  if (c.state != ConnState::kOpenSent && c.state != ConnState::kDelayOpen) {
    UnexpectedMessage(c, "OPEN");
    return;
  }
  auto accepted = negotiator_.Accept(open);
  if (!accepted.ok()) {
    Fail(c.id, accepted.error(), LossKind::kError, "OPEN refused: " + open.ToString());
    return;
  }
  c.remote_open = open;
  c.negotiated = accepted.value();
  if (ResolveCollision(c)) return;
  if (c.state == ConnState::kDelayOpen) {
    c.delay_open->Stop();
    SendOpen(c);
  }
  c.state = ConnState::kOpenConfirm;
  SendMessage(c, MessageType::kKeepalive, EncodeKeepalive());
  const auto keepalive = negotiator_.KeepaliveInterval(c.negotiated.hold_time);
  if (keepalive.count() > 0) c.keepalive->Start(keepalive);
  if (c.negotiated.hold_time != 0) {
    c.hold->Start(std::chrono::seconds(c.negotiated.hold_time));
  } else {
    c.hold->Stop();
  }
  UpdateState();
}

bool SessionFsm::ResolveCollision(Conn& fresh) {
  Conn* other = Other(fresh.id);
  if (!other) return false;
  const auto cease =
      MakeNotification(ErrorCode::kCease, CeaseSubcode::kConnectionCollisionResolution);
  if (other->state == ConnState::kEstablished) {
    ++counters_.collisions_resolved;
    Fail(fresh.id, cease, LossKind::kCollision, "collision with the established connection");
    return true;
  }
  if (other->state != ConnState::kOpenConfirm) return false;
  const uint32_t local_id = config_.router_id.v4_host_order();
  const uint32_t remote_id = fresh.remote_open->bgp_id.v4_host_order();
  const bool keep_outgoing =
      local_id != remote_id ? local_id > remote_id : config_.local_as > config_.peer_as;
  const ConnId loser = fresh.outgoing == keep_outgoing ? other->id : fresh.id;
  const bool fresh_lost = loser == fresh.id;
  ++counters_.collisions_resolved;
  log_->info("peer={} collision: keeping the connection opened by {}", name_,
             keep_outgoing ? "us" : "the peer");
  Fail(loser, cease, LossKind::kCollision, "connection collision resolution");
  return fresh_lost;
}

void SessionFsm::HandleKeepalive(Conn& c) {
  switch (c.state) {
    case ConnState::kOpenConfirm:
      EnterEstablished(c);
      return;
    case ConnState::kEstablished:
      return;
    default:
      UnexpectedMessage(c, "KEEPALIVE");
  }
}

void SessionFsm::EnterEstablished(Conn& c) {
  c.state = ConnState::kEstablished;
  ++counters_.established_count;
  counters_.established_since = env_.Now();
  connect_retry_->Stop();
  log_->info("peer={} established: {} families {}", name_, c.remote_open->ToString(),
             c.negotiated.families.size());
  UpdateState();
  if (consumer_) consumer_->OnSessionEstablished(c.negotiated);
}

void SessionFsm::HandleUpdate(Conn& c, UpdateDecodeResult&& update) {
  if (c.state != ConnState::kEstablished) {
    UnexpectedMessage(c, "UPDATE");
    return;
  }
  ++counters_.update_outcomes[static_cast<size_t>(update.action)];
  if (update.action >= ErrorAction::kAfiSafiDisable) {
    // Disabling one family is escalated to a reset: the session keeps no per-family state.
    const NotificationMessage n = update.notification.value_or(
        MakeNotification(ErrorCode::kUpdateMessage, UpdateError::kMalformedAttributeList));
    Fail(c.id, n, LossKind::kError, "UPDATE error: " + update.ToString());
    return;
  }
  if (update.action != ErrorAction::kNone) {
    log_->warn("peer={} UPDATE {}: {}", name_, ErrorActionName(update.action), update.ToString());
  }
  if (update.end_of_rib) ++counters_.end_of_rib_in;
  if (consumer_) consumer_->OnUpdate(std::move(update));
}

void SessionFsm::HandleRouteRefresh(Conn& c, const RouteRefreshMessage& rr) {
  if (c.state != ConnState::kEstablished) {
    UnexpectedMessage(c, "ROUTE-REFRESH");
    return;
  }
  const auto& families = c.negotiated.families;
  const bool known_family =
      std::find(families.begin(), families.end(), rr.afi_safi) != families.end();
  // RFC 2918 4 and RFC 7313 5: an unadvertised family or unknown subtype is ignored.
  if (!c.negotiated.route_refresh || !known_family || !rr.known_subtype()) {
    log_->info("peer={} ignoring {}", name_, rr.ToString());
    return;
  }
  if (consumer_) consumer_->OnRouteRefresh(rr);
}

void SessionFsm::SendOpen(Conn& c) {
  c.state = ConnState::kOpenSent;
  SendMessage(c, MessageType::kOpen, EncodeOpen(negotiator_.local_open()));
  c.hold->Start(config_.open_hold);
}

void SessionFsm::SendMessage(Conn& c, MessageType type, std::vector<uint8_t> bytes) {
  counters_.CountOut(type);
  if ((type == MessageType::kKeepalive || type == MessageType::kUpdate) && c.keepalive->running()) {
    c.keepalive->Start(negotiator_.KeepaliveInterval(c.negotiated.hold_time));
  }
  env_.Send(c.id, std::move(bytes));
}

void SessionFsm::Fail(ConnId id, const NotificationMessage& n, LossKind kind, std::string reason) {
  Conn* c = Find(id);
  if (!c) return;
  counters_.last_notification_sent = n;
  SendMessage(*c, MessageType::kNotification, EncodeNotification(n));
  auto level = kind == LossKind::kError ? spdlog::level::warn : spdlog::level::info;
  log_->log(level, "peer={} sent NOTIFICATION {}: {}", name_, n.ToString(), reason);
  Drop(id, kind, reason);
}

void SessionFsm::Drop(ConnId id, LossKind kind, std::string reason) {
  auto it = std::find_if(conns_.begin(), conns_.end(), [id](auto& c) { return c->id == id; });
  if (it == conns_.end()) return;
  const bool was_established = (*it)->state == ConnState::kEstablished;
  conns_.erase(it);
  env_.Close(id);
  if (was_established) {
    ++counters_.flaps;
    if (counters_.established_since &&
        env_.Now() - *counters_.established_since >= config_.stable_time) {
      backoff_ = config_.idle_hold;
    }
    counters_.established_since.reset();
    counters_.last_down_reason = reason;
    log_->warn("peer={} session down: {}", name_, reason);
  }
  if (conns_.empty() && started_ && kind != LossKind::kAdmin) {
    if (kind == LossKind::kError || was_established) {
      EnterIdleHold();
    } else {
      connect_retry_->Start(config_.connect_retry);  // also bounds a pending attempt
    }
  }
  UpdateState();
  if (was_established && consumer_) consumer_->OnSessionDown(reason);
}

void SessionFsm::EnterIdleHold() {
  connect_retry_->Stop();
  if (connecting_) env_.AbortConnect();
  connecting_ = false;
  log_->info("peer={} idle hold {} ms", name_, backoff_.count());
  idle_hold_->Start(backoff_);
  backoff_ = std::min(backoff_ * 2, config_.idle_hold_max);
}

void SessionFsm::UpdateState() {
  SessionState s = SessionState::kIdle;
  if (!conns_.empty()) {
    s = SessionState::kConnect;
    for (const auto& c : conns_) {
      SessionState cs = SessionState::kOpenSent;
      switch (c->state) {
        case ConnState::kDelayOpen:
          cs = c->outgoing ? SessionState::kConnect : SessionState::kActive;
          break;
        case ConnState::kOpenSent:
          cs = SessionState::kOpenSent;
          break;
        case ConnState::kOpenConfirm:
          cs = SessionState::kOpenConfirm;
          break;
        case ConnState::kEstablished:
          cs = SessionState::kEstablished;
          break;
      }
      s = std::max(s, cs);
    }
  } else if (started_ && !idle_hold_->running()) {
    s = connecting_ ? SessionState::kConnect : SessionState::kActive;
  }
  if (s == state_) return;
  log_->debug("peer={} {} -> {}", name_, SessionStateName(state_), SessionStateName(s));
  state_ = s;
  ++counters_.state_transitions;
}

void SessionFsm::OnHoldExpired(ConnId id) {
  Fail(id, MakeNotification(ErrorCode::kHoldTimerExpired, 0), LossKind::kError,
       "hold timer expired");
}

void SessionFsm::OnKeepaliveExpired(ConnId id) {
  Conn* c = Find(id);
  if (!c || c->state < ConnState::kOpenConfirm) return;
  c->keepalive->Start(negotiator_.KeepaliveInterval(c->negotiated.hold_time));
  SendMessage(*c, MessageType::kKeepalive, EncodeKeepalive());
}

void SessionFsm::OnDelayOpenExpired(ConnId id) {
  Conn* c = Find(id);
  if (!c || c->state != ConnState::kDelayOpen) return;
  SendOpen(*c);
  UpdateState();
}

Status SessionFsm::SendUpdate(std::vector<uint8_t> message) {
  Conn* c = EstablishedConn();
  if (!c) return FailedPrecondition("session with " + name_ + " is not established");
  if (message.size() < kHeaderSize + 4 || message.size() > c->negotiated.codec.max_message_size() ||
      message[kHeaderSize - 1] != static_cast<uint8_t>(MessageType::kUpdate)) {
    return InvalidArgument("not an UPDATE message of a valid size");
  }
  SendMessage(*c, MessageType::kUpdate, std::move(message));
  return Status::Ok();
}

Status SessionFsm::SendUpdates(StatusOr<EncodedMessages> messages) {
  if (!messages.ok()) return messages.status();
  for (auto& m : *messages) {
    if (Status st = SendUpdate(std::move(m)); !st.ok()) return st;
  }
  return Status::Ok();
}

Status SessionFsm::Announce(const PathAttributes& attrs, AfiSafi family,
                            std::span<const IpPrefix> prefixes) {
  const NegotiatedSession* s = negotiated();
  if (!s) return FailedPrecondition("session with " + name_ + " is not established");
  if (std::find(s->families.begin(), s->families.end(), family) == s->families.end()) {
    return FailedPrecondition(family.ToString() + " was not negotiated");
  }
  return SendUpdates(PackAnnouncements(attrs, family, prefixes, s->codec));
}

Status SessionFsm::Announce(const AttributeSetPtr& attrs, AfiSafi family,
                            std::span<const IpPrefix> prefixes) {
  if (!attrs) return InvalidArgument("announcement without attributes");
  Conn* c = EstablishedConn();
  if (!c || family != kIpv4Unicast ||
      std::find(c->negotiated.families.begin(), c->negotiated.families.end(), family) ==
          c->negotiated.families.end()) {
    return Announce(attrs->attrs(), family, prefixes);  // other families, or the error
  }
  if (c->bases.empty()) c->bases.resize(kEncodedBases);
  Conn::EncodedBase& e = c->bases[attrs->hash() % kEncodedBases];
  if (e.attrs != attrs) {
    auto base = EncodeNlriBase(attrs->attrs(), c->negotiated.codec);
    if (!base.ok()) return base.status();
    e.attrs = attrs;
    e.bytes = std::move(base).value();
  }
  return SendUpdates(PackNlri(e.bytes, prefixes, c->negotiated.codec));
}

Status SessionFsm::Withdraw(AfiSafi family, std::span<const IpPrefix> prefixes) {
  const NegotiatedSession* s = negotiated();
  if (!s) return FailedPrecondition("session with " + name_ + " is not established");
  if (std::find(s->families.begin(), s->families.end(), family) == s->families.end()) {
    return FailedPrecondition(family.ToString() + " was not negotiated");
  }
  return SendUpdates(PackWithdrawals(family, prefixes, s->codec));
}

void SessionFsm::SetGracefulRestart(std::optional<GracefulRestartCapability> cap) {
  config_.graceful_restart = std::move(cap);
  negotiator_ = OpenNegotiator(config_);
}

Status SessionFsm::SendEndOfRib(AfiSafi family) {
  const NegotiatedSession* s = negotiated();
  if (!s) return FailedPrecondition("session with " + name_ + " is not established");
  Status st = SendUpdate(EncodeEndOfRib(family));
  if (st.ok()) ++counters_.end_of_rib_out;
  return st;
}

Status SessionFsm::SendRouteRefresh(AfiSafi family, RouteRefreshSubtype subtype) {
  Conn* c = EstablishedConn();
  if (!c) return FailedPrecondition("session with " + name_ + " is not established");
  const auto& s = c->negotiated;
  if (!s.route_refresh) return FailedPrecondition("route refresh was not negotiated");
  if (subtype != RouteRefreshSubtype::kNormal && !s.enhanced_route_refresh) {
    return FailedPrecondition("enhanced route refresh was not negotiated");
  }
  if (std::find(s.families.begin(), s.families.end(), family) == s.families.end()) {
    return FailedPrecondition(family.ToString() + " was not negotiated");
  }
  SendMessage(*c, MessageType::kRouteRefresh,
              EncodeRouteRefresh(RouteRefreshMessage{family, static_cast<uint8_t>(subtype)}));
  return Status::Ok();
}

}  // namespace strata::bgp
