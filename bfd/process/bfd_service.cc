#include "bfd/process/bfd_service.h"

#include <fmt/format.h>

#include "libipc/common_convert.h"
#include "libipc/interfaces/bfd_client.strata.h"

namespace strata::bfd {

namespace bcpb = ::strata::bfd_client::v1;

namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

// Interval limits of the settings: 10 ms to a minute.
constexpr uint32_t kMinIntervalMs = 10;
constexpr uint32_t kMaxIntervalMs = 60000;
// The holder of sessions added without a client (configured peers): it hears no events.
const std::string kConfigClient = "(config)";

StatusOr<SessionKey> KeyFromProto(const v1::SessionKey& k) {
  SessionKey key;
  key.vr = k.vr();
  key.interface = k.interface();
  key.multihop = k.multihop();
  auto peer = ipc::AddrFromProto(k.peer(), "key.peer");
  if (!peer.ok()) return peer.status();
  if (peer->is_zero()) return InvalidArgument("key.peer: no address");
  key.peer = *peer;
  if (!k.local().addr().empty()) {
    auto local = ipc::AddrFromProto(k.local(), "key.local");
    if (!local.ok()) return local.status();
    if (local->family() != key.peer.family()) {
      return InvalidArgument("key.local: not of the peer's address family");
    }
    key.local = *local;
  } else {
    key.local = IpAddr::Zero(key.peer.family());
  }
  if (key.vr.size() > 15) return InvalidArgument("key.vr: longer than a device name (15)");
  if (key.interface.size() > 15) return InvalidArgument("key.interface: longer than 15");
  if (key.multihop && key.local.is_zero()) {
    return InvalidArgument("key.local: a multihop session needs its local address (RFC 5883)");
  }
  return key;
}

void KeyToProto(const SessionKey& key, v1::SessionKey* out) {
  out->set_vr(key.vr);
  ipc::AddrToProto(key.peer, out->mutable_peer());
  if (!key.local.is_zero()) ipc::AddrToProto(key.local, out->mutable_local());
  out->set_interface(key.interface);
  out->set_multihop(key.multihop);
}

StatusOr<SessionParams> ParamsFromProto(const v1::SessionSettings& s) {
  SessionParams p;
  const uint32_t tx = s.min_tx_ms() ? s.min_tx_ms() : 300;
  const uint32_t rx = s.min_rx_ms() ? s.min_rx_ms() : 300;
  for (auto [name, v] :
       {std::pair{"settings.min_tx_ms", tx}, std::pair{"settings.min_rx_ms", rx}}) {
    if (v < kMinIntervalMs || v > kMaxIntervalMs) {
      return InvalidArgument(
          fmt::format("{}: {} not in {}..{}", name, v, kMinIntervalMs, kMaxIntervalMs));
    }
  }
  const uint32_t mult = s.multiplier() ? s.multiplier() : 3;
  if (mult > 255) return InvalidArgument(fmt::format("settings.multiplier: {} > 255", mult));
  p.desired_min_tx = milliseconds(tx);
  p.required_min_rx = milliseconds(rx);
  p.detect_mult = static_cast<uint8_t>(mult);
  p.passive = s.passive();
  if (s.auth_key_id() > 255) return InvalidArgument("settings.auth_key_id: > 255");
  p.auth.type = static_cast<AuthType>(s.auth_type());
  p.auth.key_id = static_cast<uint8_t>(s.auth_key_id());
  p.auth.secret = s.auth_key();
  if (Status st = CheckAuthConfig(p.auth); !st.ok()) {
    return InvalidArgument("settings.auth_key: " + st.message());
  }
  return p;
}

v1::SessionState StateToProto(SessionState s) {
  switch (s) {
    case SessionState::kAdminDown:
      return v1::SESSION_STATE_ADMIN_DOWN;
    case SessionState::kDown:
      return v1::SESSION_STATE_DOWN;
    case SessionState::kInit:
      return v1::SESSION_STATE_INIT;
    case SessionState::kUp:
      return v1::SESSION_STATE_UP;
  }
  return v1::SESSION_STATE_UNSPECIFIED;
}

uint32_t Ms(std::chrono::microseconds d) {
  return static_cast<uint32_t>(duration_cast<milliseconds>(d).count());
}

}  // namespace

BfdService::BfdService(ipc::Router& router, Clock& clock, BfdSockets& sockets)
    : router_(router),
      clock_(clock),
      sockets_(sockets),
      log_(MakeLogger("bfd")),
      table_(clock,
             {.transmit =
                  [this](const SessionKey& key, std::vector<uint8_t> bytes) {
                    if (Status s = sockets_.Send(key, bytes); !s.ok()) {
                      log_->debug("{}: {}", key.ToString(), s.ToString());
                    }
                  },
              .state_changed = [this](const SessionKey& key, const BfdSession& s, SessionState from,
                                      Diag) { OnStateChange(key, s, from); },
              .removed =
                  [this](const SessionKey& key) {
                    sockets_.Forget(key);
                    log_->info("session {} removed", key.ToString());
                  }}) {}

BfdService::~BfdService() { *alive_ = false; }

void BfdService::AddSession(const v1::AddSessionRequest& req,
                            ipc::Responder<v1::AddSessionReply> reply) {
  auto key = KeyFromProto(req.key());
  if (!key.ok()) return reply.Fail(key.status());
  auto params = ParamsFromProto(req.settings());
  if (!params.ok()) return reply.Fail(params.status());
  if (!key->vr.empty()) {
    if (Status s = sockets_.OpenVr(key->vr); !s.ok()) {
      return reply.Fail(FailedPrecondition(
          fmt::format("VR {}: cannot listen on its VRF device: {}", key->vr, s.message())));
    }
  }
  const std::string client = req.client().empty() ? kConfigClient : req.client();
  const bool fresh = table_.Find(*key) == nullptr;
  const BfdSession& s = table_.Add(*key, client, *params);
  if (fresh) log_->info("session {} for {}", key->ToString(), client);
  if (client != kConfigClient && watched_.insert(client).second) {
    router_.WatchInstance(
        req.client(),
        [this, alive = alive_](const std::string&, const std::string& instance, bool is_alive) {
          if (*alive && !is_alive) DropClient(instance, "the Finder reports its death");
        });
  }
  v1::AddSessionReply r;
  r.set_local_discriminator(s.local_discr());
  reply(r);
  SendEvent(client, *key, s, false);
}

void BfdService::RemoveSession(const v1::RemoveSessionRequest& req,
                               ipc::Responder<v1::RemoveSessionReply> reply) {
  auto key = KeyFromProto(req.key());
  if (!key.ok()) return reply.Fail(key.status());
  const std::string client = req.client().empty() ? kConfigClient : req.client();
  if (!table_.Remove(*key, client)) {
    return reply.Fail(NotFound(fmt::format("{} holds no session {}", client, key->ToString())));
  }
  reply(v1::RemoveSessionReply());
}

void BfdService::ListSessions(const v1::ListSessionsRequest& req,
                              ipc::Responder<v1::ListSessionsReply> reply) {
  v1::ListSessionsReply r;
  const auto now = clock_.now();
  for (const auto& [key, e] : table_.entries()) {
    if (!req.vr().empty() && key.vr != req.vr()) continue;
    const BfdSession& s = *e.session;
    v1::Session* out = r.add_sessions();
    KeyToProto(key, out->mutable_key());
    out->set_state(StateToProto(s.state()));
    out->set_remote_state(StateToProto(s.remote_state()));
    out->set_local_diag(DiagName(s.local_diag()));
    out->set_remote_diag(DiagName(s.remote_diag()));
    out->set_local_discriminator(s.local_discr());
    out->set_remote_discriminator(s.remote_discr());
    v1::SessionSettings* set = out->mutable_settings();
    set->set_min_tx_ms(Ms(s.params().desired_min_tx));
    set->set_min_rx_ms(Ms(s.params().required_min_rx));
    set->set_multiplier(s.params().detect_mult);
    set->set_passive(s.params().passive);
    set->set_auth_type(static_cast<v1::AuthType>(s.params().auth.type));
    set->set_auth_key_id(s.params().auth.key_id);
    out->set_tx_interval_ms(Ms(s.tx_interval()));
    out->set_detection_time_ms(Ms(s.detection_time()));
    out->set_remote_min_rx_ms(Ms(s.remote_min_rx()));
    out->set_remote_min_tx_ms(Ms(s.remote_desired_tx()));
    out->set_remote_multiplier(s.remote_detect_mult());
    out->set_since_ms(
        static_cast<uint64_t>(duration_cast<milliseconds>(now - s.last_state_change()).count()));
    for (const auto& [client, p] : e.clients) out->add_clients(client);
    const SessionCounters& c = s.counters();
    out->set_packets_in(c.packets_in);
    out->set_packets_out(c.packets_out);
    out->set_auth_failures(c.auth_failures);
    out->set_up_transitions(c.up_transitions);
    out->set_down_transitions(c.down_transitions);
    out->set_removing(e.linger_until.has_value());
  }
  reply(r);
}

void BfdService::SetAdminDown(const v1::SetAdminDownRequest& req,
                              ipc::Responder<v1::SetAdminDownReply> reply) {
  auto key = KeyFromProto(req.key());
  if (!key.ok()) return reply.Fail(key.status());
  if (!table_.SetAdminDown(*key, req.down())) {
    return reply.Fail(NotFound("no session " + key->ToString()));
  }
  log_->info("session {} {}", key->ToString(), req.down() ? "held AdminDown" : "released");
  reply(v1::SetAdminDownReply());
}

void BfdService::GetStats(const v1::GetStatsRequest&, ipc::Responder<v1::GetStatsReply> reply) {
  v1::GetStatsReply r;
  r.set_sessions(table_.entries().size());
  uint64_t up = 0;
  for (const auto& [key, e] : table_.entries()) up += e.session->state() == SessionState::kUp;
  r.set_sessions_up(up);
  r.set_dropped_malformed(table_.drops().malformed);
  r.set_dropped_no_session(table_.drops().no_session);
  r.set_dropped_bad_ttl(table_.drops().bad_ttl);
  r.set_dropped_wrong_source(table_.drops().wrong_source);
  r.set_send_errors(sockets_.send_errors());
  reply(r);
}

void BfdService::OnStateChange(const SessionKey& key, const BfdSession& s, SessionState from) {
  const bool went_down = from == SessionState::kUp;
  if (went_down) {
    log_->warn("session {} down: {}", key.ToString(), DiagName(s.local_diag()));
  } else if (s.state() == SessionState::kUp) {
    log_->info("session {} up", key.ToString());
  }
  const SessionTable::Entry* e = table_.Find(key);
  if (e == nullptr) return;
  if (e->clients.empty() && s.state() == SessionState::kAdminDown) return;
  for (const auto& [client, p] : e->clients) SendEvent(client, key, s, went_down);
}

void BfdService::SendEvent(const std::string& client, const SessionKey& key, const BfdSession& s,
                           bool went_down) {
  if (client == kConfigClient) return;
  bcpb::SessionEventRequest ev;
  KeyToProto(key, ev.mutable_key());
  ev.set_state(StateToProto(s.state()));
  if (s.state() != SessionState::kUp) ev.set_diag(DiagName(s.local_diag()));
  ev.set_went_down(went_down);
  bcpb::BfdClientClient stub(router_, client);
  stub.SessionEvent(
      ev, [this, client, alive = alive_](const Status& st, const bcpb::SessionEventReply&) {
        if (!*alive || st.ok()) return;
        if (st.code() == StatusCode::kUnavailable || st.code() == StatusCode::kNotFound) {
          DropClient(client, st.ToString());
        } else {
          log_->warn("session event to {} failed: {}", client, st.ToString());
        }
      });
}

void BfdService::DropClient(const std::string& client, const std::string& why) {
  const size_t n = table_.RemoveClient(client);
  if (n > 0) log_->info("client {} gone ({}): let go of {} sessions", client, why, n);
}

}  // namespace strata::bfd
