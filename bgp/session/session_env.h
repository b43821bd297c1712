// SessionEnv: what the session state machine asks of the world, so that SessionFsm itself knows
// neither sockets nor real time. PeerSession implements it with Asio; tests implement it with a
// fake clock and a recording of every action.
//
// Contract: calls are made from the FSM's thread and may re-enter the FSM only through posted
// work, never synchronously (a Connect() must not call OnTcpConnected before it returns).
// Timers fire their callback on the same thread, never after Stop() or destruction.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace strata::bgp {

// Names one TCP connection to the peer; chosen by the environment, unique per session.
using ConnId = uint64_t;

class FsmTimer {
 public:
  virtual ~FsmTimer() = default;
  // (Re)arms the timer; a running timer is restarted with the new duration.
  virtual void Start(std::chrono::milliseconds duration) = 0;
  virtual void Stop() = 0;
  virtual bool running() const = 0;
};

class SessionEnv {
 public:
  virtual ~SessionEnv() = default;

  virtual std::chrono::steady_clock::time_point Now() = 0;
  // A stopped timer that runs `on_expiry` when it fires. `name` is for tests and logs.
  virtual std::unique_ptr<FsmTimer> MakeTimer(std::string name,
                                              std::function<void()> on_expiry) = 0;
  // Starts one outgoing connection; the result comes later as SessionFsm::OnTcpConnected
  // (outgoing) or OnConnectFailed. At most one attempt is outstanding.
  virtual void Connect() = 0;
  // Abandons the outstanding attempt, if any; no result is reported for it.
  virtual void AbortConnect() = 0;
  // Queues one whole message on the connection.
  virtual void Send(ConnId conn, std::vector<uint8_t> message) = 0;
  // Closes the connection once what was queued is written (bounded in time). No further
  // events are reported for it.
  virtual void Close(ConnId conn) = 0;
};

}  // namespace strata::bgp
