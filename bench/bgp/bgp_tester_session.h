// TesterSession: one BGP session of the benchmark's tester speaker, over a blocking TCP socket.
//
// Connect() binds the local address, connects to the router (retrying while it starts), sends
// OPEN, waits for the router's OPEN and KEEPALIVE (the session is then Established; a session
// closed during OPEN, as gobgpd does right after it starts, is tried again) using the
// project's codec (bgp/wire). A reader thread then frames the stream: UPDATE bodies go to the
// RouteCounter if one is given, NOTIFICATIONs end the session, everything else is dropped. A
// keepalive thread sends KEEPALIVEs every third of the hold time. Send() writes whole messages
// (serialised with the keepalives). Extended messages are offered; codec() says if negotiated.
// Thread-safety: Send/Close from any one thread at a time besides the session's own threads.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "bench/bgp/bgp_route_counter.h"
#include "bgp/wire/codec_options.h"
#include "common/status.h"

namespace strata::bench {

class TesterSession {
 public:
  TesterSession(std::string local, uint32_t local_as, RouteCounter* counter);
  ~TesterSession() { Close(); }
  TesterSession(const TesterSession&) = delete;
  TesterSession& operator=(const TesterSession&) = delete;

  // Blocks until Established or `timeout_s` passes.
  Status Connect(const std::string& router, uint32_t router_as, int timeout_s);
  // Whole encoded messages, back to back.
  Status Send(std::span<const uint8_t> bytes);
  // Sends Cease / Administrative Shutdown and closes the connection.
  void Close();
  bool up() const { return up_.load(); }
  // Runs the reader thread (the one that times what arrives) SCHED_FIFO at the lowest real-time
  // priority, or back at SCHED_OTHER. False if not permitted or not connected.
  bool SetReaderRealtime(bool on);
  const bgp::CodecOptions& codec() const { return codec_; }
  const std::string& error() const { return error_; }

 private:
  void ReadLoop();
  void KeepaliveLoop();
  Status WriteLocked(std::span<const uint8_t> bytes);
  // One attempt: connect (retrying while nothing listens) and exchange OPEN and KEEPALIVE.
  Status Handshake(const std::string& router, uint32_t router_as, int timeout_s,
                   std::chrono::steady_clock::time_point deadline);
  // Reads one whole message into msg_ (blocking). False on EOF or error.
  bool ReadMessage();

  std::string local_;
  uint32_t local_as_;
  RouteCounter* counter_;
  int fd_ = -1;
  bgp::CodecOptions codec_;
  uint16_t hold_time_ = 0;
  std::vector<uint8_t> buf_;
  size_t begin_ = 0, end_ = 0;
  std::vector<uint8_t> msg_;
  std::mutex write_mu_;
  std::mutex stop_mu_;
  std::condition_variable stop_cv_;
  std::atomic<bool> up_{false};
  std::atomic<bool> stopping_{false};
  std::string error_;
  std::thread reader_, keepalive_;
};

}  // namespace strata::bench
