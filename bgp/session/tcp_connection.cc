#include "bgp/session/tcp_connection.h"

#include <netinet/in.h>

#include "bgp/session/socket_security.h"

namespace strata::bgp {
namespace {

constexpr size_t kMaxBatch = 65536;

}  // namespace

TcpConnection::TcpConnection(boost::asio::io_context& io) : socket_(io), linger_timer_(io) {}

TcpConnection::TcpConnection(tcp::socket socket)
    : socket_(std::move(socket)), linger_timer_(socket_.get_executor()) {}

TcpConnection::~TcpConnection() { CloseSocket(); }

std::optional<boost::asio::ip::address> TcpConnection::local_address() const {
  boost::system::error_code ec;
  const tcp::endpoint ep = socket_.local_endpoint(ec);
  if (ec) return std::nullopt;
  return ep.address();
}

void TcpConnection::AsyncConnect(const tcp::endpoint& remote,
                                 const std::optional<boost::asio::ip::address>& local,
                                 const Options& options,
                                 std::function<void(const boost::system::error_code&)> done) {
  connect_done_ = std::move(done);
  boost::system::error_code ec;
  socket_.open(remote.protocol(), ec);
  // The device first: in a VRF, the local address is only ours through its device.
  if (!ec && !options.bind_device.empty() &&
      !BindToDevice(socket_.native_handle(), options.bind_device).ok()) {
    ec = boost::asio::error::no_such_device;
  }
  if (!ec && local) socket_.bind(tcp::endpoint(*local, 0), ec);
  if (!ec) {
    Status st = SetOptions(options);
    if (st.ok() && !options.md5_key.empty()) {
      st = SetTcpMd5Key(socket_.native_handle(), remote.protocol() == tcp::v6(), remote.address(),
                        options.md5_key);
    }
    if (!st.ok()) ec = boost::asio::error::invalid_argument;
  }
  if (ec) {
    // Report asynchronously, as SessionEnv promises.
    boost::asio::post(socket_.get_executor(), [self = shared_from_this(), ec] {
      if (!self->detached_ && self->connect_done_) self->connect_done_(ec);
    });
    return;
  }
  socket_.async_connect(remote, [self = shared_from_this()](const boost::system::error_code& e) {
    if (!self->detached_ && self->connect_done_) self->connect_done_(e);
  });
}

Status TcpConnection::SetOptions(const Options& options) {
  boost::system::error_code ec;
  socket_.set_option(tcp::no_delay(true), ec);
  if (ec) return Internal("TCP_NODELAY: " + ec.message());
  // IP_TTL for IPv4, IPV6_UNICAST_HOPS for IPv6.
  socket_.set_option(boost::asio::ip::unicast::hops(options.ttl), ec);
  if (ec) return Internal("TTL: " + ec.message());
  if (options.min_ttl != 0) {
    const bool v6 = socket_.local_endpoint(ec).protocol() == tcp::v6();
    if (ec) return Internal("local endpoint: " + ec.message());
    return SetMinTtl(socket_.native_handle(), v6, options.min_ttl);
  }
  return Status::Ok();
}

void TcpConnection::StartReading(Handlers handlers) {
  handlers_ = std::move(handlers);
  started_ = true;
  ReadMore();
}

void TcpConnection::SetReadPaused(bool paused) {
  read_paused_ = paused;
  if (!paused && started_ && !reading_ && !detached_) ReadMore();
}

void TcpConnection::ReadMore() {
  if (read_paused_ || reading_) return;
  reading_ = true;
  socket_.async_read_some(
      boost::asio::buffer(read_buffer_),
      [self = shared_from_this()](const boost::system::error_code& ec, size_t n) {
        self->reading_ = false;
        if (self->detached_) return;
        if (ec) {
          self->detached_ = true;
          if (self->handlers_.on_closed) {
            self->handlers_.on_closed(ec == boost::asio::error::eof ? "closed by peer"
                                                                    : ec.message());
          }
          return;
        }
        if (self->handlers_.on_bytes) self->handlers_.on_bytes({self->read_buffer_.data(), n});
        if (!self->detached_) self->ReadMore();
      });
}

void TcpConnection::Send(std::vector<uint8_t> bytes) {
  if (closing_ || !socket_.is_open()) return;
  queued_bytes_ += bytes.size();
  queue_.push_back(std::move(bytes));
  if (writing_.empty()) WriteMore();
}

void TcpConnection::WriteMore() {
  writing_.clear();
  while (!queue_.empty() &&
         (writing_.empty() || writing_.size() + queue_.front().size() <= kMaxBatch)) {
    writing_.insert(writing_.end(), queue_.front().begin(), queue_.front().end());
    queue_.pop_front();
  }
  if (writing_.empty()) {
    if (closing_) CloseSocket();
    return;
  }
  boost::asio::async_write(
      socket_, boost::asio::buffer(writing_),
      [self = shared_from_this()](const boost::system::error_code& ec, size_t) {
        self->queued_bytes_ -= self->writing_.size();
        if (ec) {
          self->writing_.clear();
          self->queue_.clear();
          self->queued_bytes_ = 0;
          // The read side reports the failure; a closing connection just goes.
          if (self->closing_) self->CloseSocket();
          return;
        }
        if (!self->detached_ && self->handlers_.on_written) self->handlers_.on_written();
        self->WriteMore();
      });
}

void TcpConnection::CloseAfterFlush(std::chrono::milliseconds linger) {
  detached_ = true;  // the handlers stay: one of them may be running now
  if (closing_) return;
  closing_ = true;
  if (writing_.empty()) {
    CloseSocket();
    return;
  }
  linger_timer_.expires_after(linger);
  linger_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec) self->CloseSocket();
  });
}

void TcpConnection::Abort() {
  detached_ = true;  // the handlers stay: one of them may be running now
  closing_ = true;
  CloseSocket();
}

void TcpConnection::CloseSocket() {
  linger_timer_.cancel();
  if (!socket_.is_open()) return;
  boost::system::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
}

}  // namespace strata::bgp
