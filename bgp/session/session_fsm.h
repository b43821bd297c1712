// SessionFsm: the BGP finite state machine of one peer (RFC 4271 8), free of sockets and of real
// time: inputs are the event methods below, outputs go to a SessionEnv (connect, send, close,
// timers) and a SessionConsumer (UPDATEs, route refresh, up/down). PeerSession binds it to Asio;
// tests drive it with a fake clock.
//
// Model: the peer has up to two TCP connections at once (one we opened, one we accepted), each
// with its own OPEN exchange, hold, keepalive and DelayOpen timers. The reported state is that
// of the most advanced connection, or Idle/Connect/Active when there is none. When an OPEN
// arrives while the other connection is in OpenConfirm, the collision is resolved by BGP
// identifier (RFC 4271 6.8; AS number on a tie, RFC 6286): the connection opened by the higher
// identifier survives, the other is closed with Cease / Connection Collision Resolution. An OPEN
// on a new connection while one is Established closes the new one the same way.
//
// After an error (NOTIFICATION sent or received, hold timer expiry, loss of an Established
// session) the peer waits in Idle for the IdleHold time, which doubles on each error up to
// idle_hold_max and resets after stable_time Established or on a manual Start. A TCP failure
// before Established only returns to Active with the ConnectRetry timer.
//
// Threading: single-threaded; all events and timer callbacks come from the owner's io_context
// thread. Consumer callbacks may call Start, Stop and the send methods.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bgp/session/message_framer.h"
#include "bgp/session/open_negotiator.h"
#include "bgp/session/peer_config.h"
#include "bgp/session/peer_counters.h"
#include "bgp/session/session_consumer.h"
#include "bgp/session/session_env.h"
#include "bgp/session/session_state.h"
#include "bgp/wire/attribute_set.h"
#include "bgp/wire/message_codec.h"
#include "bgp/wire/path_attributes.h"
#include "bgp/wire/update_packer.h"
#include "common/ip_prefix.h"
#include "common/status.h"

namespace spdlog {
class logger;
}

namespace strata::bgp {

class SessionFsm {
 public:
  // REQUIRES: config.Validate() is ok; env and consumer (which may be null) outlive the FSM.
  SessionFsm(const PeerConfig& config, SessionEnv& env, SessionConsumer* consumer);
  ~SessionFsm();
  SessionFsm(const SessionFsm&) = delete;
  SessionFsm& operator=(const SessionFsm&) = delete;

  // ManualStart: leave Idle and connect (or wait, if passive). No-op when started.
  void Start();
  // ManualStop: NOTIFICATION Cease with `subcode` on every connection (Administrative Shutdown
  // and Reset carry `communication`, RFC 8203), close them, stay Idle until Start.
  void Stop(CeaseSubcode subcode = CeaseSubcode::kAdministrativeShutdown,
            std::string_view communication = {});

  // A TCP connection came up: the outstanding Connect() when `outgoing`, else an accepted one.
  // The FSM closes it through the env if it does not want it.
  void OnTcpConnected(ConnId conn, bool outgoing);
  // The outstanding Connect() failed.
  void OnConnectFailed(std::string_view reason);
  // The connection was closed by the peer or failed.
  void OnTcpClosed(ConnId conn, std::string_view reason);
  // Bytes read from the connection, in stream order.
  void OnBytes(ConnId conn, std::span<const uint8_t> bytes);

  // Sending; each fails with FailedPrecondition unless Established (and, for a family, unless
  // it was negotiated). `message` is a whole encoded UPDATE.
  Status SendUpdate(std::vector<uint8_t> message);
  Status Announce(const PathAttributes& attrs, AfiSafi family, std::span<const IpPrefix> prefixes);
  // The same for a shared attribute set. For IPv4 unicast the connection keeps the encoded
  // attributes of the last kEncodedBases sets it sent (by the set's hash, holding a reference),
  // so that the next UPDATE with a set is its bytes and the prefixes.
  Status Announce(const AttributeSetPtr& attrs, AfiSafi family, std::span<const IpPrefix> prefixes);
  static constexpr size_t kEncodedBases = 64;
  Status Withdraw(AfiSafi family, std::span<const IpPrefix> prefixes);
  Status SendEndOfRib(AfiSafi family);
  Status SendRouteRefresh(AfiSafi family,
                          RouteRefreshSubtype subtype = RouteRefreshSubtype::kNormal);

  SessionState state() const { return state_; }
  bool started() const { return started_; }
  const PeerConfig& config() const { return config_; }
  // The graceful restart capability of the OPENs sent from now on (a restarting speaker clears
  // its R and F bits once it is done); a session already up is unaffected.
  void SetGracefulRestart(std::optional<GracefulRestartCapability> cap);
  const OpenNegotiator& negotiator() const { return negotiator_; }
  const PeerCounters& counters() const { return counters_; }
  // The negotiated parameters and the peer's OPEN; null unless Established.
  const NegotiatedSession* negotiated() const;
  const OpenMessage* remote_open() const;
  std::optional<ConnId> established_connection() const;
  size_t connection_count() const { return conns_.size(); }
  // The IdleHold time the next error will wait.
  std::chrono::milliseconds next_idle_hold() const { return backoff_; }

 private:
  enum class ConnState : uint8_t { kDelayOpen, kOpenSent, kOpenConfirm, kEstablished };
  // Why a connection went away, which decides what the peer does next.
  enum class LossKind : uint8_t { kTcp, kError, kCollision, kAdmin };
  struct Conn;

  Conn* Find(ConnId id);
  // Sends each packed UPDATE (SendUpdate); the packer's error or the first send's.
  Status SendUpdates(StatusOr<EncodedMessages> messages);
  Conn* Other(ConnId id);
  Conn* EstablishedConn() const;
  void HandleMessage(ConnId id, std::span<const uint8_t> bytes);
  void HandleOpen(Conn& c, const OpenMessage& open);
  void HandleKeepalive(Conn& c);
  void HandleUpdate(Conn& c, UpdateDecodeResult&& update);
  void HandleRouteRefresh(Conn& c, const RouteRefreshMessage& rr);
  // RFC 6608 subcode for a message that is not expected in the connection's state.
  void UnexpectedMessage(Conn& c, std::string_view what);
  // Returns true if `fresh` lost a collision (and is gone).
  bool ResolveCollision(Conn& fresh);
  void EnterEstablished(Conn& c);
  void SendOpen(Conn& c);
  void SendMessage(Conn& c, MessageType type, std::vector<uint8_t> bytes);
  // Sends `n` on the connection, then drops it.
  void Fail(ConnId id, const NotificationMessage& n, LossKind kind, std::string reason);
  void Drop(ConnId id, LossKind kind, std::string reason);
  void StartConnecting();
  void EnterIdleHold();
  void UpdateState();
  void OnHoldExpired(ConnId id);
  void OnKeepaliveExpired(ConnId id);
  void OnDelayOpenExpired(ConnId id);
  void OnConnectRetryExpired();
  void OnIdleHoldExpired();

  PeerConfig config_;
  SessionEnv& env_;
  SessionConsumer* consumer_;
  OpenNegotiator negotiator_;
  std::shared_ptr<spdlog::logger> log_;
  std::string name_;
  // Timers call back into this object; they are owned by it, so never outlive it.
  std::unique_ptr<FsmTimer> connect_retry_;
  std::unique_ptr<FsmTimer> idle_hold_;
  std::vector<std::unique_ptr<Conn>> conns_;  // at most two
  SessionState state_ = SessionState::kIdle;
  bool started_ = false;
  bool connecting_ = false;
  std::chrono::milliseconds backoff_;
  PeerCounters counters_;
};

}  // namespace strata::bgp
