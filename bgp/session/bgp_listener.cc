#include "bgp/session/bgp_listener.h"

#include "bgp/session/asio_address.h"
#include "bgp/session/socket_security.h"
#include "common/log.h"

namespace strata::bgp {

boost::system::error_code BgpListener::Listen(const tcp::endpoint& ep) {
  auto acceptor = std::make_unique<tcp::acceptor>(io_);
  boost::system::error_code ec;
  acceptor->open(ep.protocol(), ec);
  if (!ec && !device_.empty() && !BindToDevice(acceptor->native_handle(), device_).ok()) {
    ec = boost::asio::error::no_such_device;
  }
  if (!ec) acceptor->set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec && ep.address().is_v6()) acceptor->set_option(boost::asio::ip::v6_only(true), ec);
  // SYN-ACKs go out with the listener's TTL: 255 lets a GTSM peer (RFC 5082) accept them, as
  // FRR's listeners do. Accepted sockets get the peer's own TTL.
  if (!ec) acceptor->set_option(boost::asio::ip::unicast::hops(255), ec);
  if (!ec) acceptor->bind(ep, ec);
  if (!ec) acceptor->listen(boost::asio::socket_base::max_listen_connections, ec);
  if (!ec) acceptors_.push_back(std::move(acceptor));
  return ec;
}

void BgpListener::StartAccepting() {
  for (size_t i = 0; i < acceptors_.size(); ++i) Accept(i);
}

namespace {

Status ListenError(const boost::asio::ip::tcp::endpoint& ep, const boost::system::error_code& ec) {
  return Unavailable("listen on " + ep.address().to_string() + " port " +
                     std::to_string(ep.port()) + ": " + ec.message());
}

}  // namespace

StatusOr<std::unique_ptr<BgpListener>> BgpListener::Open(
    boost::asio::io_context& io, const std::vector<tcp::endpoint>& endpoints,
    const std::string& device) {
  std::unique_ptr<BgpListener> l(new BgpListener(io, device));
  for (const tcp::endpoint& ep : endpoints) {
    if (const auto ec = l->Listen(ep)) return ListenError(ep, ec);
  }
  l->StartAccepting();
  return l;
}

StatusOr<std::unique_ptr<BgpListener>> BgpListener::OpenDualStack(boost::asio::io_context& io,
                                                                  uint16_t port,
                                                                  const std::string& device) {
  // With port 0 the IPv6 socket takes the port the kernel gave the IPv4 one; another socket may
  // hold that port on IPv6 only, so a few fresh ports are tried.
  const int attempts = port == 0 ? 8 : 1;
  Status last;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    std::unique_ptr<BgpListener> l(new BgpListener(io, device));
    const tcp::endpoint v4(tcp::v4(), port);
    if (const auto ec = l->Listen(v4)) return ListenError(v4, ec);
    boost::system::error_code e;
    const tcp::endpoint v6(tcp::v6(), l->acceptors_[0]->local_endpoint(e).port());
    const auto ec = l->Listen(v6);
    namespace errc = boost::system::errc;
    if (ec == errc::address_family_not_supported || ec == errc::address_not_available) {
      MakeLogger("bgp.session")
          ->warn("no IPv6 on this host ({}): listening on IPv4 only", ec.message());
    } else if (ec == errc::address_in_use && port == 0) {
      last = ListenError(v6, ec);
      continue;
    } else if (ec) {
      return ListenError(v6, ec);
    }
    l->StartAccepting();
    return l;
  }
  return last;
}

BgpListener::~BgpListener() {
  *alive_ = false;
  for (auto& a : acceptors_) {
    boost::system::error_code ec;
    a->close(ec);
  }
}

std::vector<BgpListener::tcp::endpoint> BgpListener::endpoints() const {
  std::vector<tcp::endpoint> out;
  for (const auto& a : acceptors_) {
    boost::system::error_code ec;
    out.push_back(a->local_endpoint(ec));
  }
  return out;
}

Status BgpListener::SetKey(const IpAddr& remote, std::string_view key) {
  const boost::asio::ip::address addr = ToAsio(remote);
  for (auto& a : acceptors_) {
    boost::system::error_code ec;
    const bool v6 = a->local_endpoint(ec).protocol() == tcp::v6();
    if (ec) return Internal("listener endpoint: " + ec.message());
    if (!v6 && addr.is_v6()) continue;  // an IPv4 socket never sees this peer
    if (v6 && addr.is_v4()) continue;   // IPv6 listeners are IPv6-only
    if (Status s = SetTcpMd5Key(a->native_handle(), v6, addr, key); !s.ok()) return s;
  }
  return Status::Ok();
}

Status BgpListener::AddPeer(const IpAddr& remote, AcceptFn accept, std::string_view md5_key) {
  if (!md5_key.empty() || keys_.contains(remote)) {
    if (Status s = SetKey(remote, md5_key); !s.ok()) return s;
    if (md5_key.empty()) {
      keys_.erase(remote);
    } else {
      keys_[remote] = std::string(md5_key);
    }
  }
  peers_[remote] = std::move(accept);
  return Status::Ok();
}

void BgpListener::RemovePeer(const IpAddr& remote) {
  peers_.erase(remote);
  if (keys_.erase(remote) > 0) {
    if (Status s = SetKey(remote, {}); !s.ok()) {
      MakeLogger("bgp.session")
          ->warn("removing the MD5 key of {}: {}", remote.ToString(), s.ToString());
    }
  }
}

void BgpListener::Accept(size_t index) {
  acceptors_[index]->async_accept([this, index, alive = std::weak_ptr<bool>(alive_)](
                                      const boost::system::error_code& ec, tcp::socket socket) {
    auto token = alive.lock();
    if (!token || !*token) return;  // `this` is gone
    if (ec == boost::asio::error::operation_aborted) return;
    if (!ec) {
      boost::system::error_code e;
      const auto remote = socket.remote_endpoint(e);
      auto it = e ? peers_.end() : peers_.find(FromAsio(remote.address()));
      if (it == peers_.end()) {
        ++rejected_;
        MakeLogger("bgp.session")
            ->info("rejecting connection from unknown {}",
                   e ? std::string("address") : remote.address().to_string());
        socket.close(e);
      } else {
        it->second(std::move(socket));
      }
    }
    Accept(index);
  });
}

}  // namespace strata::bgp
