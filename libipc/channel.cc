#include "libipc/channel.h"

#include <algorithm>
#include <cstring>

#include "libipc/socket_files.h"

namespace strata::ipc {

namespace asio = boost::asio;

namespace {
// The receive buffer starts small and doubles only when what was read fills it, so it never
// holds more than about twice the bytes the peer actually sent; once drained, a buffer grown
// past kKeepBuffer goes back to the start size.
constexpr size_t kStartBuffer = 16 * 1024;
constexpr size_t kKeepBuffer = 1024 * 1024;
constexpr auto kDeadlineTick = std::chrono::milliseconds(100);
}  // namespace

Channel::Channel(Socket socket, std::string peer, Options options)
    : socket_(std::move(socket)),
      peer_(std::move(peer)),
      options_(std::move(options)),
      unknown_method_limit_(options_.accepted ? options_.limits.LargestCallLimit()
                                              : std::max(options_.limits.LargestCallLimit(),
                                                         options_.limits.max_reply_frame_bytes)),
      in_(kStartBuffer),
      deadline_timer_(socket_.get_executor()),
      frame_timer_(socket_.get_executor()) {}

Channel::~Channel() = default;

void Channel::Start(CallHandler on_call, CloseHandler on_close) {
  on_call_ = std::move(on_call);
  on_close_ = std::move(on_close);
  started_ = true;
  if (options_.accepted && options_.limits.frame_timeout.count() > 0) {
    awaiting_frame_ = true;
    frame_since_ = Clock::now();
    ArmFrameTimer();
  }
  StartRead();
}

void Channel::ArmFrameTimer() {
  if (frame_timer_armed_) return;
  frame_timer_armed_ = true;
  frame_timer_.expires_at(frame_since_ + options_.limits.frame_timeout);
  frame_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    self->frame_timer_armed_ = false;
    if (ec || self->closed_ || !self->awaiting_frame_) return;
    if (Clock::now() - self->frame_since_ >= self->options_.limits.frame_timeout) {
      self->Close(Status(StatusCode::kDeadlineExceeded,
                         "no complete frame from " + self->peer_ + " within " +
                             std::to_string(self->options_.limits.frame_timeout.count()) + " ms"));
      return;
    }
    self->ArmFrameTimer();
  });
}

void Channel::FailLater(ReplyCallback cb, Status why) {
  asio::post(socket_.get_executor(), [cb = std::move(cb), why = std::move(why)] { cb(why, {}); });
}

void Channel::ScheduleWrite() {
  if (write_in_flight_ || write_scheduled_) return;
  write_scheduled_ = true;
  asio::post(socket_.get_executor(), [self = shared_from_this()] {
    self->write_scheduled_ = false;
    self->StartWrite();
  });
}

void Channel::StartWrite() {
  if (closed_ || write_in_flight_ || out_.empty()) return;
  writing_.swap(out_);
  out_.clear();
  write_in_flight_ = true;
  asio::async_write(
      socket_, asio::buffer(writing_),
      [self = shared_from_this()](const boost::system::error_code& ec, size_t) {
        self->write_in_flight_ = false;
        self->writing_.clear();
        if (ec) {
          self->Close(Unavailable("write to " + self->peer_ + " failed: " + ec.message()));
          return;
        }
        self->StartWrite();
      });
}

void Channel::StartRead() {
  if (closed_) return;
  if (in_begin_ == in_end_) {
    in_begin_ = in_end_ = 0;
    if (in_.size() > kKeepBuffer) std::vector<char>(kStartBuffer).swap(in_);
  } else if (in_.size() - in_end_ < in_.size() / 4) {
    // Less than a quarter free: move the partial frame to the front, and if what is held
    // still fills three quarters, double (the peer sent that much; the frame limit bounds it).
    std::memmove(in_.data(), in_.data() + in_begin_, in_end_ - in_begin_);
    in_end_ -= in_begin_;
    in_begin_ = 0;
    if (in_.size() - in_end_ < in_.size() / 4) in_.resize(in_.size() * 2);
  }
  socket_.async_read_some(
      asio::buffer(in_.data() + in_end_, in_.size() - in_end_),
      [self = shared_from_this()](const boost::system::error_code& ec, size_t n) {
        if (ec) {
          self->Close(Unavailable(ec == asio::error::eof
                                      ? "connection to " + self->peer_ + " closed by peer"
                                      : "read from " + self->peer_ + " failed: " + ec.message()));
          return;
        }
        self->in_end_ += n;
        self->HandleInput();
        self->StartRead();
      });
}

void Channel::HandleInput() {
  auto self = shared_from_this();
  bool completed = false;
  while (!closed_ && in_begin_ < in_end_) {
    std::string_view buf(in_.data() + in_begin_, in_end_ - in_begin_);
    const FrameHead head = PeekFrame(buf);
    const uint32_t limit =
        head.have_method ? options_.limits.CallLimit(head.method) : unknown_method_limit_;
    FrameKind kind{};
    CallFrame call;
    ReplyFrame reply;
    auto used = ParseFrame(buf, kind, call, reply, limit);
    if (!used.ok()) {
      Close(
          Status(used.status().code(), "bad frame from " + peer_ + ": " + used.status().message()));
      return;
    }
    if (*used == 0) break;  // incomplete: StartRead makes room as the bytes arrive
    completed = true;
    in_begin_ += *used;
    if (kind == FrameKind::kCall) {
      ++calls_received_;
      on_call_(self, call);
    } else {
      auto it = pending_.find(reply.id);
      if (it == pending_.end()) continue;  // expired already
      ReplyCallback cb = std::move(it->second.cb);
      pending_.erase(it);
      cb(Status(reply.code, std::string(reply.message)), reply.payload);
    }
  }
  if (closed_ || !options_.accepted || options_.limits.frame_timeout.count() <= 0) return;
  if (in_begin_ < in_end_) {
    // A frame has begun: it must complete within the timeout, counted from its first bytes
    // (or from the connection's start, if nothing completed yet).
    if (completed || !awaiting_frame_) frame_since_ = Clock::now();
    awaiting_frame_ = true;
    ArmFrameTimer();
  } else if (completed) {
    awaiting_frame_ = false;
  }
}

void Channel::ArmDeadlineTimer() {
  if (deadline_timer_armed_) return;
  deadline_timer_armed_ = true;
  deadline_timer_.expires_after(kDeadlineTick);
  deadline_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    self->deadline_timer_armed_ = false;
    if (ec || self->closed_) return;
    self->ExpireCalls();
    if (!self->pending_.empty()) self->ArmDeadlineTimer();
  });
}

void Channel::ExpireCalls() {
  const auto now = Clock::now();
  std::vector<ReplyCallback> expired;
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second.deadline <= now) {
      expired.push_back(std::move(it->second.cb));
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto& cb : expired) {
    cb(Status(StatusCode::kDeadlineExceeded, "no reply from " + peer_ + " before the deadline"),
       {});
  }
}

void Channel::Close(const Status& why) {
  if (closed_) return;
  closed_ = true;
  boost::system::error_code ignored;
  socket_.shutdown(Socket::shutdown_both, ignored);
  socket_.close(ignored);
  deadline_timer_.cancel();
  frame_timer_.cancel();
  slot_.reset();
  auto pending = std::move(pending_);
  pending_.clear();
  const Status died(StatusCode::kUnavailable,
                    "target died during the call (" + why.message() + ")");
  for (auto& [id, p] : pending) p.cb(died, {});
  if (on_close_) {
    auto cb = std::move(on_close_);
    on_close_ = nullptr;
    on_call_ = nullptr;
    cb(*this, why);
  }
}

StatusOr<asio::ip::tcp::endpoint> ParseTcpEndpoint(const std::string& address) {
  std::string host;
  std::string port;
  if (!address.empty() && address.front() == '[') {
    const auto close = address.find(']');
    if (close == std::string::npos || close + 1 >= address.size() || address[close + 1] != ':') {
      return InvalidArgument("'" + address + "' is not [ADDRESS]:PORT");
    }
    host = address.substr(1, close - 1);
    port = address.substr(close + 2);
  } else {
    const auto colon = address.rfind(':');
    if (colon == std::string::npos) return InvalidArgument("'" + address + "' is not HOST:PORT");
    host = address.substr(0, colon);
    port = address.substr(colon + 1);
  }
  boost::system::error_code ec;
  auto ip = asio::ip::make_address(host, ec);
  if (ec) return InvalidArgument("'" + host + "' is not an IP address");
  char* end = nullptr;
  const long p = std::strtol(port.c_str(), &end, 10);
  if (port.empty() || *end != '\0' || p < 0 || p > 65535) {
    return InvalidArgument("'" + port + "' is not a port");
  }
  return asio::ip::tcp::endpoint(ip, static_cast<uint16_t>(p));
}

void ConnectChannel(asio::io_context& io, const std::string& protocol, const std::string& address,
                    std::function<void(StatusOr<std::shared_ptr<Channel>>)> done,
                    const IpcLimits& limits) {
  asio::generic::stream_protocol::endpoint ep;
  bool tcp = false;
  if (protocol == "sunix") {
    ep = asio::local::stream_protocol::endpoint(address);
  } else if (protocol == "stcp") {
    auto t = ParseTcpEndpoint(address);
    if (!t.ok()) {
      asio::post(io, [done = std::move(done), s = t.status()] { done(s); });
      return;
    }
    ep = *t;
    tcp = true;
  } else {
    asio::post(io, [done = std::move(done), protocol] {
      done(InvalidArgument("unknown transport family '" + protocol + "'"));
    });
    return;
  }
  auto socket = std::make_shared<Channel::Socket>(io);
  boost::system::error_code opened;
  socket->open(ep.protocol(), opened);
  if (opened) {
    asio::post(io, [done = std::move(done), protocol, address, opened] {
      done(
          Unavailable("cannot connect to " + protocol + "://" + address + ": " + opened.message()));
    });
    return;
  }
  SetCloseOnExec(socket->native_handle());
  socket->async_connect(ep, [socket, done = std::move(done), protocol, address, tcp,
                             limits](const boost::system::error_code& ec) {
    if (ec) {
      done(Unavailable("cannot connect to " + protocol + "://" + address + ": " + ec.message()));
      return;
    }
    if (tcp) {
      boost::system::error_code ignored;
      socket->set_option(asio::ip::tcp::no_delay(true), ignored);
    }
    Channel::Options options;
    options.limits = limits;
    if (!tcp) options.credentials = PeerCredentialsOf(socket->native_handle());
    done(std::make_shared<Channel>(std::move(*socket), protocol + "://" + address,
                                   std::move(options)));
  });
}

}  // namespace strata::ipc
