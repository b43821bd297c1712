#include "bgp/session/peer_session.h"

#include "bgp/session/asio_address.h"
#include "bgp/session/asio_timer.h"
#include "common/log.h"

namespace strata::bgp {
namespace {

TcpConnection::Options SocketOptions(const PeerConfig& config, bool with_key) {
  TcpConnection::Options o;
  o.ttl = config.ttl();
  o.min_ttl = config.min_ttl();
  if (with_key) o.md5_key = config.md5_password;
  o.bind_device = config.bind_device;
  return o;
}

}  // namespace

StatusOr<std::unique_ptr<PeerSession>> PeerSession::Create(boost::asio::io_context& io,
                                                           const PeerConfig& config,
                                                           SessionConsumer* consumer) {
  if (Status st = config.Validate(); !st.ok()) return st;
  return std::unique_ptr<PeerSession>(new PeerSession(io, config, consumer));
}

PeerSession::PeerSession(boost::asio::io_context& io, const PeerConfig& config,
                         SessionConsumer* consumer)
    : io_(io), consumer_(consumer) {
  fsm_ = std::make_unique<SessionFsm>(config, static_cast<SessionEnv&>(*this), consumer);
}

PeerSession::~PeerSession() {
  for (auto& [id, conn] : conns_) conn->Abort();
  if (pending_) pending_->second->Abort();
  fsm_.reset();  // its timers go before the connections' owner does
}

size_t PeerSession::write_queue_bytes() const {
  const auto id = fsm_->established_connection();
  if (!id) return 0;
  auto it = conns_.find(*id);
  return it == conns_.end() ? 0 : it->second->queued_bytes();
}

void PeerSession::AcceptIncoming(boost::asio::ip::tcp::socket socket) {
  auto conn = std::make_shared<TcpConnection>(std::move(socket));
  if (Status st = conn->SetOptions(SocketOptions(fsm_->config(), /*with_key=*/false)); !st.ok()) {
    MakeLogger("bgp.session")
        ->warn("{}: accepted connection: {}", fsm_->config().Name(), st.ToString());
    conn->Abort();
    return;
  }
  const ConnId id = next_id_++;
  conns_[id] = conn;
  StartReading(id, conn);
  fsm_->OnTcpConnected(id, /*outgoing=*/false);
}

void PeerSession::SetReadPaused(bool paused) {
  read_paused_ = paused;
  for (auto& [id, conn] : conns_) conn->SetReadPaused(paused);
}

std::optional<IpAddr> PeerSession::local_address() const {
  const auto id = fsm_->established_connection();
  if (!id) return std::nullopt;
  auto it = conns_.find(*id);
  if (it == conns_.end()) return std::nullopt;
  auto addr = it->second->local_address();
  if (!addr) return std::nullopt;
  // An IPv4 session on a dual-stack socket reports a mapped address.
  if (addr->is_v6() && addr->to_v6().is_v4_mapped()) {
    return FromAsio(boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, addr->to_v6()));
  }
  return FromAsio(*addr);
}

std::chrono::steady_clock::time_point PeerSession::Now() {
  return std::chrono::steady_clock::now();
}

std::unique_ptr<FsmTimer> PeerSession::MakeTimer(std::string /*name*/,
                                                 std::function<void()> on_expiry) {
  return std::make_unique<AsioTimer>(io_, std::move(on_expiry));
}

void PeerSession::Connect() {
  const PeerConfig& config = fsm_->config();
  const ConnId id = next_id_++;
  auto conn = std::make_shared<TcpConnection>(io_);
  pending_.emplace(id, conn);
  std::optional<boost::asio::ip::address> local;
  if (config.local_address) local = ToAsio(*config.local_address);
  conn->AsyncConnect(boost::asio::ip::tcp::endpoint(ToAsio(config.peer_address), config.peer_port),
                     local, SocketOptions(config, /*with_key=*/true),
                     [this, id](const boost::system::error_code& ec) { OnConnectDone(id, ec); });
}

void PeerSession::OnConnectDone(ConnId id, const boost::system::error_code& ec) {
  if (!pending_ || pending_->first != id) return;
  auto conn = std::move(pending_->second);
  pending_.reset();
  if (ec) {
    conn->Abort();
    fsm_->OnConnectFailed(ec.message());
    return;
  }
  conns_[id] = conn;
  StartReading(id, conn);
  fsm_->OnTcpConnected(id, /*outgoing=*/true);
}

void PeerSession::AbortConnect() {
  if (!pending_) return;
  pending_->second->Abort();
  pending_.reset();
}

void PeerSession::StartReading(ConnId id, const std::shared_ptr<TcpConnection>& conn) {
  TcpConnection::Handlers h;
  h.on_bytes = [this, id](std::span<const uint8_t> bytes) { fsm_->OnBytes(id, bytes); };
  h.on_closed = [this, id](std::string_view reason) {
    auto it = conns_.find(id);
    if (it == conns_.end()) return;
    it->second->Abort();
    conns_.erase(it);
    fsm_->OnTcpClosed(id, reason);
    CheckFlow();
  };
  h.on_written = [this] { CheckFlow(); };
  conn->SetReadPaused(read_paused_);
  conn->StartReading(std::move(h));
}

void PeerSession::Send(ConnId id, std::vector<uint8_t> message) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  it->second->Send(std::move(message));
  CheckFlow();
}

void PeerSession::Close(ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  it->second->CloseAfterFlush();
  conns_.erase(it);
  CheckFlow();
}

void PeerSession::CheckFlow() {
  if (!fsm_->established_connection()) {
    blocked_ = false;
    return;
  }
  const size_t queued = write_queue_bytes();
  const PeerConfig& config = fsm_->config();
  if (!blocked_ && queued >= config.write_high_water) {
    blocked_ = true;
    if (consumer_) consumer_->OnWriteBlocked();
  } else if (blocked_ && queued <= config.write_low_water) {
    blocked_ = false;
    if (consumer_) consumer_->OnWritable();
  }
}

}  // namespace strata::bgp
