#include "fea/netlink/nl_socket.h"

#include <errno.h>
#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

#include "fea/netlink/link_codec.h"

namespace strata::fea::netlink {
namespace {

constexpr size_t kRecvBuf = 64 * 1024;
constexpr int kSocketBuf = 4 * 1024 * 1024;

Status Errno(const char* what) {
  return Status(StatusCode::kInternal, std::string(what) + ": " + std::strerror(errno));
}

}  // namespace

StatusOr<std::unique_ptr<NlSocket>> NlSocket::Open(unsigned groups) {
  mnl_socket* nl = mnl_socket_open(NETLINK_ROUTE);
  if (nl == nullptr) return Errno("netlink socket");
  if (mnl_socket_bind(nl, groups, MNL_SOCKET_AUTOPID) < 0) {
    Status s = Errno("netlink bind");
    mnl_socket_close(nl);
    return s;
  }
  const int fd = mnl_socket_get_fd(nl);
  int size = kSocketBuf;
  // Best effort: a large receive buffer makes ENOBUFS on event bursts rarer.
  (void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
  int one = 1;
  // ACKs carry only the header of the request, not all of it.
  (void)setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
  timeval tv{2, 0};
  (void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  return std::unique_ptr<NlSocket>(new NlSocket(nl));
}

NlSocket::NlSocket(mnl_socket* nl) : nl_(nl), portid_(mnl_socket_get_portid(nl)) {
  buf_.resize(kRecvBuf);
}

NlSocket::~NlSocket() {
  *alive_ = false;
  if (stream_) {
    boost::system::error_code ec;
    stream_->cancel(ec);
    stream_->release();  // the fd belongs to mnl_socket
  }
  mnl_socket_close(nl_);
}

StatusOr<size_t> NlSocket::Receive() {
  const ssize_t n = mnl_socket_recvfrom(nl_, buf_.data(), buf_.size());
  if (n < 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      return Status(StatusCode::kDeadlineExceeded, "netlink: no answer from the kernel");
    }
    if (errno == ENOBUFS) return Status(StatusCode::kResourceExhausted, "netlink: ENOBUFS");
    return Errno("netlink recv");
  }
  return static_cast<size_t>(n);
}

StatusOr<std::vector<int>> NlSocket::Transact(std::span<const uint8_t> msgs, uint32_t first_seq,
                                              size_t count) {
  std::vector<int> result(count, 0);
  std::vector<bool> seen(count, false);
  if (count == 0) return result;
  if (mnl_socket_sendto(nl_, msgs.data(), msgs.size()) < 0) return Errno("netlink send");
  size_t acked = 0;
  while (acked < count) {
    auto n = Receive();
    if (!n.ok()) return n.status();
    Status s = ForEachMessage(buf_.data(), *n, [&](const nlmsghdr* nlh) -> Status {
      if (nlh->nlmsg_type != NLMSG_ERROR || nlh->nlmsg_pid != portid_) return Status();
      const uint32_t i = nlh->nlmsg_seq - first_seq;
      if (i >= count || seen[i]) return Status();
      if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(nlmsgerr))) {
        return Status(StatusCode::kDataLoss, "short netlink ACK");
      }
      const auto* err = static_cast<const nlmsgerr*>(mnl_nlmsg_get_payload(nlh));
      result[i] = -err->error;
      seen[i] = true;
      ++acked;
      return Status();
    });
    if (!s.ok()) return s;
  }
  return result;
}

Status NlSocket::Dump(std::span<const uint8_t> request, uint32_t seq,
                      const std::function<Status(const nlmsghdr*)>& on_msg) {
  if (mnl_socket_sendto(nl_, request.data(), request.size()) < 0) return Errno("netlink send");
  bool done = false;
  Status first_error;
  while (!done) {
    auto n = Receive();
    if (!n.ok()) return n.status();
    Status s = ForEachMessage(buf_.data(), *n, [&](const nlmsghdr* nlh) -> Status {
      if (nlh->nlmsg_seq != seq || nlh->nlmsg_pid != portid_) return Status();
      if (nlh->nlmsg_type == NLMSG_DONE) {
        done = true;
        return Status();
      }
      if (nlh->nlmsg_type == NLMSG_ERROR) {
        const auto* err = static_cast<const nlmsgerr*>(mnl_nlmsg_get_payload(nlh));
        done = true;
        if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(nlmsgerr)) && err->error != 0) {
          return Status(StatusCode::kInternal,
                        std::string("netlink dump: ") + std::strerror(-err->error));
        }
        return Status();
      }
      // A malformed answer spoils one entry, not the dump: keep the first error for the caller.
      if (Status e = on_msg(nlh); !e.ok() && first_error.ok()) first_error = e;
      return Status();
    });
    if (!s.ok()) return s;
  }
  return first_error;
}

void NlSocket::StartReading(boost::asio::io_context& io, MessageCallback on_msg,
                            ErrorCallback on_error) {
  on_msg_ = std::move(on_msg);
  on_error_ = std::move(on_error);
  const int fd = mnl_socket_get_fd(nl_);
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  stream_ = std::make_unique<boost::asio::posix::stream_descriptor>(io, fd);
  ReadSome();
}

void NlSocket::ReadSome() {
  stream_->async_wait(boost::asio::posix::stream_descriptor::wait_read,
                      [this, alive = alive_](const boost::system::error_code& ec) {
                        if (!*alive || ec == boost::asio::error::operation_aborted) return;
                        if (ec) {
                          on_error_(Status(StatusCode::kInternal, "netlink: " + ec.message()));
                          return;
                        }
                        for (;;) {
                          auto n = Receive();
                          if (!n.ok()) {
                            if (n.status().code() == StatusCode::kDeadlineExceeded) break;
                            const bool overflow =
                                n.status().code() == StatusCode::kResourceExhausted;
                            on_error_(n.status());
                            if (!*alive || !overflow) return;
                            continue;  // ENOBUFS: the owner resyncs; keep reading
                          }
                          Status s = ForEachMessage(buf_.data(), *n, [&](const nlmsghdr* nlh) {
                            on_msg_(nlh);
                            return Status();
                          });
                          if (!s.ok()) on_error_(s);
                          if (!*alive) return;
                        }
                        ReadSome();
                      });
}

}  // namespace strata::fea::netlink
