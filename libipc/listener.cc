#include "libipc/listener.h"

#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

#include "libipc/peer_credentials.h"
#include "libipc/socket_files.h"

namespace strata::ipc {

namespace asio = boost::asio;

Listener::Listener(asio::io_context& io, std::string protocol)
    : io_(io), protocol_(std::move(protocol)), acceptor_(io), log_(MakeLogger("ipc")) {}

Listener::~Listener() { Close(); }

StatusOr<std::unique_ptr<Listener>> Listener::Open(asio::io_context& io,
                                                   const std::string& protocol,
                                                   const std::string& address,
                                                   AcceptHandler on_accept,
                                                   const IpcLimits& limits) {
  std::unique_ptr<Listener> l(new Listener(io, protocol));
  l->on_accept_ = std::move(on_accept);
  l->limits_ = limits;
  boost::system::error_code ec;
  asio::generic::stream_protocol::endpoint ep;
  if (protocol == "sunix") {
    if (address.size() >= sizeof(sockaddr_un::sun_path)) {
      return InvalidArgument("socket path '" + address + "' is too long");
    }
    ::unlink(address.c_str());  // a stale socket of a dead process
    ep = asio::local::stream_protocol::endpoint(address);
  } else if (protocol == "stcp") {
    auto t = ParseTcpEndpoint(address);
    if (!t.ok()) return t.status();
    ep = *t;
  } else {
    return InvalidArgument("unknown transport family '" + protocol + "'");
  }
  l->acceptor_.open(ep.protocol(), ec);
  if (!ec) SetCloseOnExec(l->acceptor_.native_handle());
  if (!ec && protocol == "stcp")
    l->acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) l->acceptor_.bind(ep, ec);
  if (!ec) l->acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return Unavailable("cannot listen on " + protocol + "://" + address + ": " + ec.message());
  }
  if (protocol == "sunix") {
    ::chmod(address.c_str(), SocketFileMode(address));
    l->address_ = address;
  } else {
    const auto bound = l->acceptor_.local_endpoint();
    asio::ip::tcp::endpoint t;
    t.resize(bound.size());
    std::memcpy(t.data(), bound.data(), bound.size());
    l->address_ = t.address().is_v6()
                      ? "[" + t.address().to_string() + "]:" + std::to_string(t.port())
                      : t.address().to_string() + ":" + std::to_string(t.port());
  }
  l->Accept();
  return l;
}

void Listener::Accept() {
  acceptor_.async_accept(
      [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec,
                                                  asio::generic::stream_protocol::socket socket) {
        if (alive.expired()) return;
        if (ec) {
          if (ec == asio::error::operation_aborted) return;
          Accept();
          return;
        }
        SetCloseOnExec(socket.native_handle());
        Channel::Options options;
        options.limits = limits_;
        options.accepted = true;
        std::string peer = protocol_ + " client";
        std::string peer_key;
        bool own_user = false;
        if (protocol_ == "stcp") {
          boost::system::error_code ignored;
          socket.set_option(asio::ip::tcp::no_delay(true), ignored);
          const auto remote = socket.remote_endpoint(ignored);
          asio::ip::tcp::endpoint t;
          if (!ignored && remote.size() <= t.capacity()) {
            t.resize(remote.size());
            std::memcpy(t.data(), remote.data(), remote.size());
            peer_key = t.address().to_string();
            peer += " " + t.address().to_string() + ":" + std::to_string(t.port());
          }
        } else {
          options.credentials = PeerCredentialsOf(socket.native_handle());
          if (options.credentials) {
            peer_key = "uid " + std::to_string(options.credentials->uid);
            own_user = options.credentials->uid == ::geteuid();
            peer += " " + options.credentials->ToString();
          }
        }
        auto slot = TakeSlot(peer_key, own_user);
        if (!slot) {
          boost::system::error_code ignored;
          socket.close(ignored);
          Accept();
          return;
        }
        auto ch = std::make_shared<Channel>(std::move(socket), peer, std::move(options));
        ch->set_slot(std::move(slot));
        on_accept_(std::move(ch));
        Accept();
      });
}

std::shared_ptr<void> Listener::TakeSlot(const std::string& peer_key, bool own_user) {
  Counts& c = *counts_;
  const bool per_peer = !own_user && !peer_key.empty();
  const char* over = nullptr;
  if (c.total >= limits_.max_connections) {
    over = "connections in all";
  } else if (per_peer && c.per_peer[peer_key] >= limits_.max_connections_per_peer) {
    over = "connections from one peer";
  }
  if (over != nullptr) {
    ++refused_;
    if (!refusing_) {
      log_->warn("{}://{}: refusing a connection from {}: the limit of {} {} is reached", protocol_,
                 address_, peer_key.empty() ? "an unknown peer" : peer_key,
                 c.total >= limits_.max_connections ? limits_.max_connections
                                                    : limits_.max_connections_per_peer,
                 over);
      refusing_ = true;
    }
    return nullptr;
  }
  refusing_ = false;
  ++c.total;
  if (per_peer) ++c.per_peer[peer_key];
  // Released when the channel closes; the counts outlive the listener if need be.
  struct Slot {
    std::shared_ptr<Counts> counts;
    std::string peer_key;
    bool per_peer;
    ~Slot() {
      --counts->total;
      if (!per_peer) return;
      auto it = counts->per_peer.find(peer_key);
      if (it != counts->per_peer.end() && --it->second == 0) counts->per_peer.erase(it);
    }
  };
  return std::shared_ptr<Slot>(new Slot{counts_, peer_key, per_peer});
}

void Listener::Close() {
  if (!acceptor_.is_open()) return;
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  if (protocol_ == "sunix") ::unlink(address_.c_str());
}

}  // namespace strata::ipc
