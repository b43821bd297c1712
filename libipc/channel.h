// Channel: one connection of the lean transport (frames over a Unix or TCP stream socket).
//
// A channel is symmetric: either end may send calls and replies, so the Finder can push lifetime
// events down the same connection a component registered on. Calls sent on one channel are
// written and delivered in order, with any number in flight; frames produced while handling one
// batch of input are coalesced into one write. When the peer goes away every call still waiting
// fails with UNAVAILABLE ("target died during the call"), and calls past their deadline fail with
// DEADLINE_EXCEEDED.
//
// What a peer may make the channel spend is bounded (libipc/ipc_limits.h): frames over the
// limit close the connection, the receive buffer grows only with bytes actually read (a length
// prefix alone allocates nothing), and on an accepted connection a frame, the first included,
// must complete within the frame timeout.
//
// Threading: all methods run on the io_context thread that owns the socket. Owned by shared_ptr;
// asynchronous operations keep the channel alive until they complete.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/asio.h"
#include "common/status.h"
#include "libipc/frame.h"
#include "libipc/ipc_limits.h"
#include "libipc/peer_credentials.h"

namespace strata::ipc {

using Clock = std::chrono::steady_clock;

struct ChannelOptions {
  IpcLimits limits;
  // Accepted by a listener (the peer chose us): calls are held to limits.CallLimit and the
  // frame timeout applies from the start. Otherwise we connected: replies may be as large as
  // limits.max_reply_frame_bytes and no timeout applies (the caller's deadlines do).
  bool accepted = false;
  // The peer's process, for a Unix socket.
  std::optional<PeerCredentials> credentials;
};

class Channel : public std::enable_shared_from_this<Channel> {
 public:
  using Socket = boost::asio::generic::stream_protocol::socket;
  // A call arrived. The frame's views are valid only during the handler: copy or parse them.
  using CallHandler = std::function<void(const std::shared_ptr<Channel>&, const CallFrame&)>;
  // The reply to a call we sent; `payload` is valid only during the callback.
  using ReplyCallback = std::function<void(const Status&, std::string_view payload)>;
  using CloseHandler = std::function<void(Channel&, const Status& why)>;

  using Options = ChannelOptions;

  Channel(Socket socket, std::string peer, Options options = {});
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  // Starts reading. `on_close` runs once, when either side closes or the stream breaks.
  void Start(CallHandler on_call, CloseHandler on_close);

  // Sends a call. `cb` runs exactly once, on this thread, never before SendCall returns.
  template <typename WritePayload>
  void SendCall(std::string_view method, std::string_view key, WritePayload&& write_payload,
                ReplyCallback cb, Clock::duration timeout);
  template <typename WritePayload>
  void SendReply(uint64_t id, const Status& status, WritePayload&& write_payload);

  // Closes the socket and fails every call still waiting with `why`.
  void Close(const Status& why);

  bool closed() const { return closed_; }
  const std::string& peer() const { return peer_; }
  size_t pending_calls() const { return pending_.size(); }
  uint64_t calls_received() const { return calls_received_; }
  // The peer's process, when the transport tells (Unix sockets).
  const std::optional<PeerCredentials>& credentials() const { return options_.credentials; }
  // Bytes the receive buffer holds allocated (bounded by what the peer sent, see above).
  size_t buffer_bytes() const { return in_.size(); }
  // Released when the channel closes or is destroyed (a listener's connection slot).
  void set_slot(std::shared_ptr<void> slot) { slot_ = std::move(slot); }

  // An opaque value the owner attaches (the Finder keeps its connection record here).
  uint64_t tag = 0;

 private:
  struct Pending {
    ReplyCallback cb;
    Clock::time_point deadline;
  };

  void FailLater(ReplyCallback cb, Status why);
  void ScheduleWrite();
  void StartWrite();
  void StartRead();
  void HandleInput();
  void ArmDeadlineTimer();
  void ExpireCalls();
  void ArmFrameTimer();

  Socket socket_;
  std::string peer_;
  Options options_;
  uint32_t unknown_method_limit_;  // for a frame whose method is not in yet
  std::shared_ptr<void> slot_;
  CallHandler on_call_;
  CloseHandler on_close_;
  bool closed_ = false;
  bool started_ = false;

  std::vector<char> in_;
  size_t in_begin_ = 0;
  size_t in_end_ = 0;

  std::string out_;
  std::string writing_;
  bool write_in_flight_ = false;
  bool write_scheduled_ = false;

  uint64_t next_id_ = 1;
  uint64_t calls_received_ = 0;
  std::unordered_map<uint64_t, Pending> pending_;
  boost::asio::steady_timer deadline_timer_;
  bool deadline_timer_armed_ = false;
  // Accepted channels: waiting for a frame to complete since `frame_since_`.
  bool awaiting_frame_ = false;
  Clock::time_point frame_since_;
  boost::asio::steady_timer frame_timer_;
  bool frame_timer_armed_ = false;
};

template <typename WritePayload>
void Channel::SendCall(std::string_view method, std::string_view key, WritePayload&& write_payload,
                       ReplyCallback cb, Clock::duration timeout) {
  if (closed_) {
    FailLater(std::move(cb), Unavailable("connection to " + peer_ + " is closed"));
    return;
  }
  const uint64_t id = next_id_++;
  AppendCallFrame(out_, id, method, key, std::forward<WritePayload>(write_payload));
  pending_.emplace(id, Pending{std::move(cb), Clock::now() + timeout});
  ArmDeadlineTimer();
  ScheduleWrite();
}

template <typename WritePayload>
void Channel::SendReply(uint64_t id, const Status& status, WritePayload&& write_payload) {
  if (closed_) return;
  AppendReplyFrame(out_, id, status, std::forward<WritePayload>(write_payload));
  ScheduleWrite();
}

// Opens a connection to an endpoint of a lean family: protocol "sunix" with a socket path, or
// "stcp" with "host:port". `done` runs on the io_context thread.
void ConnectChannel(boost::asio::io_context& io, const std::string& protocol,
                    const std::string& address,
                    std::function<void(StatusOr<std::shared_ptr<Channel>>)> done,
                    const IpcLimits& limits = {});

// Parses "host:port" / "[v6]:port" into a TCP endpoint.
StatusOr<boost::asio::ip::tcp::endpoint> ParseTcpEndpoint(const std::string& address);

}  // namespace strata::ipc
