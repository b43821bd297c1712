#include "bench/bgp/bgp_tester_session.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "bench/bgp/thread_priority.h"
#include "bgp/wire/message_codec.h"
#include "bgp/wire/message_header.h"
#include "bgp/wire/open_message.h"

namespace strata::bench {
namespace {

using namespace std::chrono_literals;
constexpr uint16_t kHoldTime = 240;

sockaddr_in Addr(const std::string& ip, uint16_t port) {
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(port);
  ::inet_pton(AF_INET, ip.c_str(), &sa.sin_addr);
  return sa;
}

}  // namespace

TesterSession::TesterSession(std::string local, uint32_t local_as, RouteCounter* counter)
    : local_(std::move(local)), local_as_(local_as), counter_(counter), buf_(1 << 20) {}

Status TesterSession::Connect(const std::string& router, uint32_t router_as, int timeout_s) {
  const auto deadline = Clock::now() + std::chrono::seconds(timeout_s);
  while (true) {
    Status s = Handshake(router, router_as, timeout_s, deadline);
    if (s.ok() || s.code() != StatusCode::kUnavailable || Clock::now() > deadline) return s;
    // Closed during OPEN: a router may accept a connection before its peer is configured and
    // close it (gobgpd right after it starts). Start again until the deadline.
    ::close(fd_);
    fd_ = -1;
    begin_ = end_ = 0;
    codec_ = bgp::CodecOptions();
    std::this_thread::sleep_for(200ms);
  }
}

Status TesterSession::Handshake(const std::string& router, uint32_t router_as, int timeout_s,
                                std::chrono::steady_clock::time_point deadline) {
  while (true) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    const sockaddr_in la = Addr(local_, 0), ra = Addr(router, 179);
    if (::bind(fd_, reinterpret_cast<const sockaddr*>(&la), sizeof la) != 0) {
      ::close(fd_);
      fd_ = -1;
      return Status(StatusCode::kInternal, "bind " + local_ + ": " + std::strerror(errno));
    }
    if (::connect(fd_, reinterpret_cast<const sockaddr*>(&ra), sizeof ra) == 0) break;
    ::close(fd_);
    fd_ = -1;
    if (Clock::now() > deadline) {
      return Status(StatusCode::kDeadlineExceeded, "connect to " + router + " from " + local_);
    }
    std::this_thread::sleep_for(100ms);
  }
  timeval tv{};
  tv.tv_sec = timeout_s;
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  bgp::Capabilities caps;
  caps.multiprotocol = {bgp::kIpv4Unicast};
  caps.route_refresh = true;
  caps.extended_message = true;
  caps.four_octet_as = local_as_;
  const IpAddr id = *IpAddr::Parse(local_);
  const auto open = bgp::EncodeOpen(bgp::OpenMessage::Make(local_as_, kHoldTime, id, caps));
  if (Status s = WriteLocked(open); !s.ok()) return s;
  bool got_open = false;
  while (true) {
    if (!ReadMessage()) {
      return Status(StatusCode::kUnavailable, "session from " + local_ + " closed in OPEN");
    }
    auto m = bgp::DecodeMessage(msg_, codec_);
    if (!m.ok()) return Status(StatusCode::kInternal, m.error().ToString());
    if (const auto* o = std::get_if<bgp::OpenMessage>(&m.value())) {
      if (o->PeerAs() != router_as) return Status(StatusCode::kInternal, "router AS mismatch");
      const auto n =
          bgp::Negotiate(caps, kHoldTime, o->caps, o->hold_time, bgp::PeerType::kExternal);
      codec_ = n.codec;
      hold_time_ = n.hold_time;
      got_open = true;
      if (Status s = WriteLocked(bgp::EncodeKeepalive()); !s.ok()) return s;
    } else if (std::holds_alternative<bgp::KeepaliveMessage>(m.value()) && got_open) {
      break;
    } else if (const auto* n = std::get_if<bgp::ReceivedNotification>(&m.value())) {
      return Status(StatusCode::kUnavailable, "NOTIFICATION " + n->notification.ToString());
    }
  }
  tv.tv_sec = 0;
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  up_ = true;
  reader_ = std::thread([this] { ReadLoop(); });
  keepalive_ = std::thread([this] { KeepaliveLoop(); });
  return Status::Ok();
}

bool TesterSession::SetReaderRealtime(bool on) {
  if (!reader_.joinable()) return false;
  return SetThreadRealtime(reader_.native_handle(), on);
}

bool TesterSession::ReadMessage() {
  while (true) {
    const size_t have = end_ - begin_;
    if (have >= bgp::kHeaderSize) {
      const size_t len = (static_cast<size_t>(buf_[begin_ + 16]) << 8) | buf_[begin_ + 17];
      if (len < bgp::kHeaderSize) return false;
      if (have >= len) {
        msg_.assign(buf_.begin() + static_cast<long>(begin_),
                    buf_.begin() + static_cast<long>(begin_ + len));
        begin_ += len;
        return true;
      }
    }
    if (begin_ > 0) {
      std::memmove(buf_.data(), buf_.data() + begin_, have);
      begin_ = 0;
      end_ = have;
    }
    const ssize_t r = ::read(fd_, buf_.data() + end_, buf_.size() - end_);
    if (r <= 0) {
      if (r < 0 && errno == EINTR) continue;
      return false;
    }
    end_ += static_cast<size_t>(r);
  }
}

void TesterSession::ReadLoop() {
  while (ReadMessage()) {
    const auto type = static_cast<bgp::MessageType>(msg_[18]);
    if (type == bgp::MessageType::kUpdate) {
      if (counter_ != nullptr) {
        counter_->OnUpdate(std::span<const uint8_t>(msg_).subspan(bgp::kHeaderSize));
      }
    } else if (type == bgp::MessageType::kNotification) {
      auto m = bgp::DecodeMessage(msg_, codec_);
      if (m.ok()) {
        if (const auto* n = std::get_if<bgp::ReceivedNotification>(&m.value())) {
          error_ = "NOTIFICATION " + n->notification.ToString();
        }
      }
      break;
    }
  }
  up_ = false;
}

void TesterSession::KeepaliveLoop() {
  const auto every = std::chrono::seconds(hold_time_ == 0 ? 30 : hold_time_ / 3);
  std::unique_lock lock(stop_mu_);
  while (!stopping_) {
    if (stop_cv_.wait_for(lock, every, [this] { return stopping_.load(); })) break;
    std::lock_guard w(write_mu_);
    (void)WriteLocked(bgp::EncodeKeepalive());
  }
}

Status TesterSession::WriteLocked(std::span<const uint8_t> bytes) {
  while (!bytes.empty()) {
    const ssize_t w = ::write(fd_, bytes.data(), bytes.size());
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status(StatusCode::kUnavailable, std::string("write: ") + std::strerror(errno));
    }
    bytes = bytes.subspan(static_cast<size_t>(w));
  }
  return Status::Ok();
}

Status TesterSession::Send(std::span<const uint8_t> bytes) {
  std::lock_guard w(write_mu_);
  return WriteLocked(bytes);
}

void TesterSession::Close() {
  {
    std::lock_guard lock(stop_mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (fd_ >= 0) {
    {
      std::lock_guard w(write_mu_);
      (void)WriteLocked(bgp::EncodeNotification(
          bgp::MakeShutdownNotification(bgp::CeaseSubcode::kAdministrativeShutdown, "bench")));
    }
    ::shutdown(fd_, SHUT_RDWR);
  }
  if (reader_.joinable()) reader_.join();
  if (keepalive_.joinable()) keepalive_.join();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  up_ = false;
}

}  // namespace strata::bench
