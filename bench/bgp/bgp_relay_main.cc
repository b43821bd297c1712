// strata-bgp-relay: the floor of strata-bgp-bench, a BGP speaker that does no route processing.
//
// It listens on --listen:179, accepts any peer, answers OPEN with its own (AS --as, the peer's
// hold time, four-octet AS, IPv4 unicast, extended messages) and KEEPALIVE, and copies every
// UPDATE from any other peer to the --target peer byte for byte: no decision, no attribute
// rewrite, no table. It remembers only which IPv4 prefixes each peer has announced, so that when
// a peer's session ends it can withdraw them toward the target, --slice prefixes per turn of its
// event loop (the other peers' UPDATEs are read between slices). One thread, epoll, blocking
// writes to the target. What it times is what any single-threaded daemon on this machine pays
// to take one message in and send one out: two wake-ups, a read and a write.
//
// Not a router: it assumes (as the bench does) that the peers announce disjoint prefixes, and
// it does not check the peers' hold timers.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "bgp/wire/message_codec.h"
#include "bgp/wire/message_header.h"
#include "bgp/wire/open_message.h"
#include "bgp/wire/update_packer.h"

namespace {

using namespace strata;
using Clock = std::chrono::steady_clock;

constexpr uint16_t kHoldTime = 240;

struct Peer {
  int fd = -1;
  std::string addr;
  bgp::CodecOptions codec;
  bool established = false;
  std::vector<uint8_t> in;  // bytes read, not yet framed
  std::unordered_set<uint64_t> announced;
};

uint64_t Key(uint32_t addr, int len) { return (uint64_t{addr} << 8) | static_cast<uint64_t>(len); }

// Calls fn(addr, len) for each IPv4 prefix in an NLRI-encoded field; false if it is malformed.
template <typename Fn>
bool EachPrefix(const uint8_t* p, size_t n, Fn fn) {
  size_t i = 0;
  while (i < n) {
    const int len = p[i++];
    const size_t bytes = (static_cast<size_t>(len) + 7) / 8;
    if (len > 32 || i + bytes > n) return false;
    uint32_t a = 0;
    for (size_t b = 0; b < bytes; ++b) a |= uint32_t{p[i + b]} << (24 - 8 * b);
    i += bytes;
    fn(a, len);
  }
  return true;
}

class Relay {
 public:
  Relay(std::string listen, uint32_t as, std::string target, size_t slice)
      : listen_addr_(std::move(listen)), as_(as), target_addr_(std::move(target)), slice_(slice) {}

  bool Listen() {
    lfd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    const int one = 1;
    ::setsockopt(lfd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(179);
    if (::inet_pton(AF_INET, listen_addr_.c_str(), &sa.sin_addr) != 1 ||
        ::bind(lfd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || ::listen(lfd_, 16) != 0) {
      std::fprintf(stderr, "listen %s:179: %s\n", listen_addr_.c_str(), std::strerror(errno));
      return false;
    }
    ep_ = ::epoll_create1(EPOLL_CLOEXEC);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = lfd_;
    return ::epoll_ctl(ep_, EPOLL_CTL_ADD, lfd_, &ev) == 0;
  }

  void Run() {
    auto next_keepalive = Clock::now() + std::chrono::seconds(kHoldTime / 3);
    epoll_event evs[16];
    while (true) {
      const int timeout = pending_.empty() ? 1000 : 0;
      const int n = ::epoll_wait(ep_, evs, 16, timeout);
      if (n < 0 && errno != EINTR) return;
      for (int i = 0; i < n; ++i) {
        if (evs[i].data.fd == lfd_) {
          Accept();
        } else if (auto it = peers_.find(evs[i].data.fd); it != peers_.end()) {
          if (!Read(*it->second)) Close(it->first);
        }
      }
      WithdrawSlice();
      if (Clock::now() >= next_keepalive) {
        next_keepalive = Clock::now() + std::chrono::seconds(kHoldTime / 3);
        for (auto& [fd, p] : peers_) {
          if (p->established) Write(*p, bgp::EncodeKeepalive());
        }
      }
    }
  }

 private:
  void Accept() {
    sockaddr_in sa{};
    socklen_t len = sizeof sa;
    const int fd = ::accept4(lfd_, reinterpret_cast<sockaddr*>(&sa), &len, SOCK_CLOEXEC);
    if (fd < 0) return;
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    auto p = std::make_unique<Peer>();
    p->fd = fd;
    char buf[INET_ADDRSTRLEN] = {};
    ::inet_ntop(AF_INET, &sa.sin_addr, buf, sizeof buf);
    p->addr = buf;
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    ::epoll_ctl(ep_, EPOLL_CTL_ADD, fd, &ev);
    if (p->addr == target_addr_) target_ = fd;
    bgp::Capabilities caps = Caps();
    Write(*p, bgp::EncodeOpen(
                  bgp::OpenMessage::Make(as_, kHoldTime, *IpAddr::Parse(listen_addr_), caps)));
    peers_[fd] = std::move(p);
  }

  bgp::Capabilities Caps() const {
    bgp::Capabilities caps;
    caps.multiprotocol = {bgp::kIpv4Unicast};
    caps.extended_message = true;
    caps.four_octet_as = as_;
    return caps;
  }

  // Reads what the socket has and handles every whole message; false when the session ends.
  bool Read(Peer& p) {
    uint8_t buf[1 << 16];
    const ssize_t r = ::recv(p.fd, buf, sizeof buf, MSG_DONTWAIT);
    if (r == 0) return false;
    if (r < 0) return errno == EAGAIN || errno == EINTR;
    p.in.insert(p.in.end(), buf, buf + r);
    size_t at = 0;
    while (p.in.size() - at >= bgp::kHeaderSize) {
      const size_t len = (size_t{p.in[at + 16]} << 8) | p.in[at + 17];
      if (len < bgp::kHeaderSize) return false;
      if (p.in.size() - at < len) break;
      if (!Handle(p, {p.in.data() + at, len})) return false;
      at += len;
    }
    p.in.erase(p.in.begin(), p.in.begin() + static_cast<ptrdiff_t>(at));
    return true;
  }

  bool Handle(Peer& p, std::span<const uint8_t> msg) {
    const auto type = static_cast<bgp::MessageType>(msg[18]);
    if (type == bgp::MessageType::kUpdate) {
      if (p.fd == target_) return true;  // nothing goes back to the feeders
      Track(p, msg.subspan(bgp::kHeaderSize));
      if (target_ >= 0) Write(*peers_.at(target_), msg);
      return true;
    }
    if (type == bgp::MessageType::kOpen) {
      auto m = bgp::DecodeMessage(msg, p.codec);
      if (!m.ok()) return false;
      const auto* o = std::get_if<bgp::OpenMessage>(&m.value());
      if (o == nullptr) return false;
      p.codec =
          bgp::Negotiate(Caps(), kHoldTime, o->caps, o->hold_time, bgp::PeerType::kExternal).codec;
      p.established = true;
      Write(p, bgp::EncodeKeepalive());
      return true;
    }
    return type != bgp::MessageType::kNotification;
  }

  // Withdrawn routes out, NLRI in (IPv4 unicast in the fields of RFC 4271, as the bench sends).
  static void Track(Peer& p, std::span<const uint8_t> body) {
    if (body.size() < 4) return;
    const size_t wlen = (size_t{body[0]} << 8) | body[1];
    if (2 + wlen + 2 > body.size()) return;
    EachPrefix(body.data() + 2, wlen, [&](uint32_t a, int l) { p.announced.erase(Key(a, l)); });
    const size_t alen = (size_t{body[2 + wlen]} << 8) | body[3 + wlen];
    const size_t nlri = 4 + wlen + alen;
    if (nlri > body.size()) return;
    EachPrefix(body.data() + nlri, body.size() - nlri,
               [&](uint32_t a, int l) { p.announced.insert(Key(a, l)); });
  }

  void Close(int fd) {
    auto it = peers_.find(fd);
    ::epoll_ctl(ep_, EPOLL_CTL_DEL, fd, nullptr);
    ::close(fd);
    if (fd == target_) {
      target_ = -1;
      pending_.clear();
    } else if (target_ >= 0) {
      for (uint64_t k : it->second->announced) pending_.push_back(k);
    }
    peers_.erase(it);
  }

  void WithdrawSlice() {
    if (pending_.empty() || target_ < 0) return;
    Peer& t = *peers_.at(target_);
    batch_.clear();
    while (!pending_.empty() && batch_.size() < slice_) {
      const uint64_t k = pending_.front();
      pending_.pop_front();
      batch_.emplace_back(IpAddr::V4(static_cast<uint32_t>(k >> 8)), static_cast<int>(k & 0xff));
    }
    auto msgs = bgp::PackWithdrawals(bgp::kIpv4Unicast, batch_, t.codec);
    if (!msgs.ok()) return;
    for (const auto& m : *msgs) Write(t, m);
  }

  // Blocking write of a whole message (the target reads as fast as it can).
  static void Write(Peer& p, std::span<const uint8_t> bytes) {
    while (!bytes.empty()) {
      const ssize_t w = ::send(p.fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (w < 0) {
        if (errno == EINTR) continue;
        if (errno != EAGAIN) return;
        pollfd pf{p.fd, POLLOUT, 0};
        ::poll(&pf, 1, 1000);
        continue;
      }
      bytes = bytes.subspan(static_cast<size_t>(w));
    }
  }

  std::string listen_addr_;
  uint32_t as_;
  std::string target_addr_;
  size_t slice_;
  int lfd_ = -1, ep_ = -1, target_ = -1;
  std::map<int, std::unique_ptr<Peer>> peers_;
  std::deque<uint64_t> pending_;
  std::vector<IpPrefix> batch_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"strata-bgp-relay: copies UPDATEs to one peer without processing them"};
  std::string listen, target;
  uint32_t as = 0;
  size_t slice = 200;
  app.add_option("--listen", listen, "local IPv4 address (port 179)")->required();
  app.add_option("--as", as, "local AS")->required();
  app.add_option("--target", target, "address of the peer that gets every UPDATE")->required();
  app.add_option("--slice", slice, "withdrawals per event-loop turn after a peer goes down")
      ->capture_default_str()
      ->check(CLI::Range(size_t{1}, size_t{1} << 20));
  CLI11_PARSE(app, argc, argv);
  Relay relay(listen, as, target, slice);
  if (!relay.Listen()) return 1;
  relay.Run();
  return 0;
}
