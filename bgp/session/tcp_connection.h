// TcpConnection: one TCP connection to a BGP peer: connect (with an optional local address),
// socket options (TTL for eBGP single-hop or multihop, GTSM minimum TTL, TCP MD5 key, TCP_NODELAY),
// a read loop that hands raw bytes up, and a write queue whose size is accounted for flow control.
//
// Lifetime: held by shared_ptr; pending operations keep it alive. The owner's callbacks are
// called until Detach(), Abort() or CloseAfterFlush(), never after, so the owner may go away
// once it has called one of them. Threading: the io_context thread only.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/asio.h"
#include "common/status.h"

namespace strata::bgp {

class TcpConnection : public std::enable_shared_from_this<TcpConnection> {
 public:
  using tcp = boost::asio::ip::tcp;
  struct Handlers {
    std::function<void(std::span<const uint8_t>)> on_bytes;
    std::function<void(std::string_view reason)> on_closed;  // peer closed or error
    std::function<void()> on_written;                        // the queue shrank
  };

  explicit TcpConnection(boost::asio::io_context& io);
  explicit TcpConnection(tcp::socket socket);
  ~TcpConnection();

  // What is set on the socket besides TCP_NODELAY.
  struct Options {
    uint8_t ttl = 64;         // TTL / hop limit of our packets
    uint8_t min_ttl = 0;      // GTSM: lowest TTL accepted (0: no check)
    std::string md5_key;      // RFC 2385 key for the remote address (connecting sockets); "" none
    std::string bind_device;  // SO_BINDTODEVICE (connecting sockets: before bind); "" none
  };
  // Opens, binds to the device and to `local` if set, applies the options (the MD5 key before
  // connect()) and connects; `done` gets the outcome.
  void AsyncConnect(const tcp::endpoint& remote,
                    const std::optional<boost::asio::ip::address>& local, const Options& options,
                    std::function<void(const boost::system::error_code&)> done);
  // Applies TTL, minimum TTL and TCP_NODELAY (accepted sockets: their MD5 key is the
  // listener's).
  Status SetOptions(const Options& options);
  void StartReading(Handlers handlers);
  // Input flow control: while paused no further read is issued (a read already under way still
  // delivers its bytes); resuming issues one if reading had started. The peer's TCP window then
  // fills and it stops sending, so a router that cannot keep up holds routes in the peer rather
  // than in its own queues.
  void SetReadPaused(bool paused);
  bool read_paused() const { return read_paused_; }

  void Send(std::vector<uint8_t> bytes);
  // The local address of the connected socket (nullopt when not connected).
  std::optional<boost::asio::ip::address> local_address() const;
  // Bytes queued and not yet written.
  size_t queued_bytes() const { return queued_bytes_; }

  // Stops callbacks; writes what is queued (for at most `linger`), then closes.
  void CloseAfterFlush(std::chrono::milliseconds linger = std::chrono::milliseconds(2000));
  // Stops callbacks and closes now.
  void Abort();

 private:
  void ReadMore();
  void WriteMore();
  void CloseSocket();

  tcp::socket socket_;
  boost::asio::steady_timer linger_timer_;
  Handlers handlers_;
  std::function<void(const boost::system::error_code&)> connect_done_;
  std::array<uint8_t, 65536> read_buffer_;
  std::deque<std::vector<uint8_t>> queue_;
  std::vector<uint8_t> writing_;  // the batch being written
  size_t queued_bytes_ = 0;
  bool detached_ = false;
  bool closing_ = false;
  bool started_ = false;  // StartReading was called
  bool reading_ = false;  // a read is under way
  bool read_paused_ = false;
};

}  // namespace strata::bgp
