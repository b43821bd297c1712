// NlSocket: one NETLINK_ROUTE socket (libmnl), used two ways.
//
// - Requests (route batches, dumps): Transact() sends many messages in one sendmsg and collects
//   one ACK per message; Dump() sends one dump request and hands every answer to a callback.
//   Both block briefly: the kernel handles route requests inside sendmsg, so the ACKs are queued
//   by the time recv runs (a receive timeout guards against a kernel that never answers).
// - Multicast monitoring: StartReading() reads asynchronously on the io_context through a
//   posix::stream_descriptor and hands every message to a callback; ENOBUFS (the kernel dropped
//   events) is reported to the error callback so that the owner can resynchronise.
//
// Threading: the io_context thread. Must outlive pending reads (the destructor cancels them).
#pragma once

#include <linux/netlink.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "common/asio.h"
#include "common/status.h"

struct mnl_socket;

namespace strata::fea::netlink {

class NlSocket {
 public:
  // Opens and binds a NETLINK_ROUTE socket subscribed to the RTMGRP_* bits in `groups`.
  static StatusOr<std::unique_ptr<NlSocket>> Open(unsigned groups);
  ~NlSocket();
  NlSocket(const NlSocket&) = delete;
  NlSocket& operator=(const NlSocket&) = delete;

  uint32_t NextSeq() { return seq_++; }
  // Reserves n consecutive sequence numbers and returns the first.
  uint32_t ReserveSeq(uint32_t n) {
    const uint32_t first = seq_;
    seq_ += n;
    return first;
  }

  // Sends `msgs` (whole netlink messages with NLM_F_ACK and sequence numbers first_seq,
  // first_seq+1, ...; `count` of them) and returns one errno per message (0 = success).
  StatusOr<std::vector<int>> Transact(std::span<const uint8_t> msgs, uint32_t first_seq,
                                      size_t count);
  // Sends a dump request and calls on_msg for each answer until NLMSG_DONE.
  Status Dump(std::span<const uint8_t> request, uint32_t seq,
              const std::function<Status(const nlmsghdr*)>& on_msg);

  using MessageCallback = std::function<void(const nlmsghdr*)>;
  using ErrorCallback = std::function<void(const Status&)>;
  // Starts asynchronous reading of multicast messages on `io`.
  void StartReading(boost::asio::io_context& io, MessageCallback on_msg, ErrorCallback on_error);

 private:
  explicit NlSocket(mnl_socket* nl);
  void ReadSome();
  StatusOr<size_t> Receive();

  mnl_socket* nl_;
  uint32_t portid_ = 0;
  uint32_t seq_ = 1;
  std::vector<uint8_t> buf_;
  std::unique_ptr<boost::asio::posix::stream_descriptor> stream_;
  MessageCallback on_msg_;
  ErrorCallback on_error_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::fea::netlink
