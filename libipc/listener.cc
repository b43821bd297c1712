#include "libipc/listener.h"

#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

#include "libipc/socket_files.h"

namespace strata::ipc {

namespace asio = boost::asio;

Listener::Listener(asio::io_context& io, std::string protocol)
    : io_(io), protocol_(std::move(protocol)), acceptor_(io) {}

Listener::~Listener() { Close(); }

StatusOr<std::unique_ptr<Listener>> Listener::Open(asio::io_context& io,
                                                   const std::string& protocol,
                                                   const std::string& address,
                                                   AcceptHandler on_accept) {
  std::unique_ptr<Listener> l(new Listener(io, protocol));
  l->on_accept_ = std::move(on_accept);
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
    ::chmod(address.c_str(), 0600);
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
        if (protocol_ == "stcp") {
          boost::system::error_code ignored;
          socket.set_option(asio::ip::tcp::no_delay(true), ignored);
        }
        on_accept_(std::make_shared<Channel>(std::move(socket), protocol_ + " client"));
        Accept();
      });
}

void Listener::Close() {
  if (!acceptor_.is_open()) return;
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  if (protocol_ == "sunix") ::unlink(address_.c_str());
}

}  // namespace strata::ipc
