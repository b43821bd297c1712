// PeerSession: one BGP neighbor on real sockets: a SessionFsm bound to Asio TCP connections and
// timers. The process creates one per configured neighbor, registers it with a BgpListener for
// incoming connections, and gives it the pipeline's SessionConsumer.
//
// Flow control: the write queue of the Established connection is accounted; when it reaches
// PeerConfig::write_high_water the consumer gets OnWriteBlocked, and OnWritable once it drains
// to write_low_water. writable() tells the same at any time.
//
// Threading: everything on the io_context thread. Destroying the session closes its sockets
// without a NOTIFICATION; call Stop() first for a clean shutdown.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "bgp/session/peer_config.h"
#include "bgp/session/session_consumer.h"
#include "bgp/session/session_env.h"
#include "bgp/session/session_fsm.h"
#include "bgp/session/tcp_connection.h"
#include "common/asio.h"

namespace strata::bgp {

class PeerSession : private SessionEnv {
 public:
  // Fails if the configuration does not validate. `consumer` may be null and must outlive the
  // session.
  static StatusOr<std::unique_ptr<PeerSession>> Create(boost::asio::io_context& io,
                                                       const PeerConfig& config,
                                                       SessionConsumer* consumer);
  ~PeerSession() override;

  void Start() { fsm_->Start(); }
  void Stop(CeaseSubcode subcode = CeaseSubcode::kAdministrativeShutdown,
            std::string_view communication = {}) {
    fsm_->Stop(subcode, communication);
  }
  // An accepted connection from this peer's address (BgpListener calls this).
  void AcceptIncoming(boost::asio::ip::tcp::socket socket);

  Status SendUpdate(std::vector<uint8_t> message) { return fsm_->SendUpdate(std::move(message)); }
  Status Announce(const PathAttributes& attrs, AfiSafi family, std::span<const IpPrefix> prefixes) {
    return fsm_->Announce(attrs, family, prefixes);
  }
  Status Announce(const AttributeSetPtr& attrs, AfiSafi family,
                  std::span<const IpPrefix> prefixes) {
    return fsm_->Announce(attrs, family, prefixes);
  }
  Status Withdraw(AfiSafi family, std::span<const IpPrefix> prefixes) {
    return fsm_->Withdraw(family, prefixes);
  }
  Status SendEndOfRib(AfiSafi family) { return fsm_->SendEndOfRib(family); }
  void SetGracefulRestart(std::optional<GracefulRestartCapability> cap) {
    fsm_->SetGracefulRestart(std::move(cap));
  }
  Status SendRouteRefresh(AfiSafi family,
                          RouteRefreshSubtype subtype = RouteRefreshSubtype::kNormal) {
    return fsm_->SendRouteRefresh(family, subtype);
  }

  // Input flow control (TcpConnection::SetReadPaused) on every connection of the session, and
  // on those it makes or accepts while paused.
  void SetReadPaused(bool paused);
  bool read_paused() const { return read_paused_; }

  // False while the write queue is above its high-water mark (after OnWriteBlocked).
  bool writable() const { return !blocked_; }
  size_t write_queue_bytes() const;
  // Our address on the Established connection (the next hop we advertise), if any.
  std::optional<IpAddr> local_address() const;
  SessionState state() const { return fsm_->state(); }
  const SessionFsm& fsm() const { return *fsm_; }
  const PeerConfig& config() const { return fsm_->config(); }

 private:
  PeerSession(boost::asio::io_context& io, const PeerConfig& config, SessionConsumer* consumer);

  // SessionEnv.
  std::chrono::steady_clock::time_point Now() override;
  std::unique_ptr<FsmTimer> MakeTimer(std::string name, std::function<void()> on_expiry) override;
  void Connect() override;
  void AbortConnect() override;
  void Send(ConnId conn, std::vector<uint8_t> message) override;
  void Close(ConnId conn) override;

  void StartReading(ConnId id, const std::shared_ptr<TcpConnection>& conn);
  void OnConnectDone(ConnId id, const boost::system::error_code& ec);
  void CheckFlow();

  boost::asio::io_context& io_;
  SessionConsumer* consumer_;
  std::unique_ptr<SessionFsm> fsm_;
  // Connection callbacks capture `this`; every connection is detached (Abort or
  // CloseAfterFlush) before it leaves these maps or the session dies.
  std::map<ConnId, std::shared_ptr<TcpConnection>> conns_;
  std::optional<std::pair<ConnId, std::shared_ptr<TcpConnection>>> pending_;
  ConnId next_id_ = 1;
  bool blocked_ = false;
  bool read_paused_ = false;
};

}  // namespace strata::bgp
