// BfdSession: one BFD session in asynchronous mode (RFC 5880 6.8), knowing neither sockets nor
// real time: packets come in through Receive() already decoded and matched to the session, go
// out through the transmit hook, and time comes from a Clock (common/clock.h).
//
// State machine (6.8.6): Down -> Init on the peer's Down, Down/Init -> Up on the peer's Init/Up,
// Up -> Down on the peer's Down (diag "neighbor signaled session down") or AdminDown, any state
// but AdminDown -> Down when no valid packet came for the Detection Time (diag "control
// detection time expired"). AdminDown() holds the session down on our side (diag
// "administratively down") and tells the peer, which goes Down without declaring a failure.
// Timers (6.8.2 to 6.8.4, 6.8.7): packets go every max(DesiredMinTx, peer's RequiredMinRx),
// less 0 to 25 % jitter (10 to 25 % with Detect Mult 1), at least one second apart while not Up
// (6.8.3); the Detection Time is the peer's Detect Mult x max(our RequiredMinRx, the peer's
// DesiredMinTx). A change of our intervals while Up runs a Poll Sequence; a slower transmit rate
// and a faster receive rate take effect only when the peer answers it with the Final bit. A
// packet with the Poll bit is answered at once with the Final bit. A peer in Demand mode (both
// Up) is sent no periodic packets. Echo mode is not used (RequiredMinEchoRx 0).
// Threading: single-threaded; hooks run synchronously from Receive, timers and setters.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <span>

#include "bfd/bfd_auth.h"
#include "bfd/control_packet.h"
#include "common/clock.h"

namespace strata::bfd {

using std::chrono::microseconds;

struct SessionParams {
  microseconds desired_min_tx{300'000};
  microseconds required_min_rx{300'000};
  uint8_t detect_mult = 3;
  // Wait for the peer's first packet before sending (RFC 5880 6.1 passive role).
  bool passive = false;
  AuthConfig auth;

  bool operator==(const SessionParams&) const = default;
};
// The slowest rate a session sends at before it is Up (RFC 5880 6.8.3).
inline constexpr microseconds kSlowTx{1'000'000};

struct SessionCounters {
  uint64_t packets_in = 0;
  uint64_t packets_out = 0;
  uint64_t auth_failures = 0;
  uint64_t up_transitions = 0;
  uint64_t down_transitions = 0;  // from Up
};

class BfdSession {
 public:
  struct Hooks {
    // Sends a packet's bytes to the peer.
    std::function<void(std::vector<uint8_t>)> transmit{};
    // The session's state changed (local state, and the diagnostic it now sends).
    std::function<void(SessionState from, SessionState to, Diag diag)> state_changed{};
  };

  // Starts in Down; sends its first packet (unless passive) at once. REQUIRES: local_discr != 0,
  // CheckAuthConfig(params.auth) ok, `clock` outlives the session.
  BfdSession(Clock& clock, uint32_t local_discr, SessionParams params, Hooks hooks, uint32_t seed);

  // A packet for this session. `bytes` are the packet's as received (for authentication).
  void Receive(const ControlPacket& p, std::span<const uint8_t> bytes);
  // New intervals, multiplier or key; a Poll Sequence when Up and the intervals change.
  void SetParams(const SessionParams& params);
  // Holds the session in AdminDown (true) or lets it come up again (false).
  void SetAdminDown(bool down);

  SessionState state() const { return state_; }
  SessionState remote_state() const { return remote_state_; }
  Diag local_diag() const { return local_diag_; }
  Diag remote_diag() const { return remote_diag_; }
  uint32_t local_discr() const { return local_discr_; }
  uint32_t remote_discr() const { return remote_discr_; }
  const SessionParams& params() const { return params_; }
  // The interval packets go at now (before jitter), and the time without a packet after which
  // the session fails; zero while not known (no packet received).
  microseconds tx_interval() const;
  microseconds detection_time() const;
  microseconds remote_min_rx() const { return remote_min_rx_; }
  microseconds remote_desired_tx() const { return remote_desired_tx_; }
  uint8_t remote_detect_mult() const { return remote_detect_mult_; }
  bool polling() const { return poll_; }
  const SessionCounters& counters() const { return counters_; }
  Clock::TimePoint last_state_change() const { return last_change_; }

 private:
  // DesiredMinTxInterval as sent in packets now (slow while not Up).
  microseconds advertised_tx() const;
  void SetState(SessionState to, Diag diag);
  void StartPoll();
  void FinishPoll();
  void Transmit(bool final);
  void ScheduleTransmit();
  void ArmDetection();
  void OnDetectionExpired();
  bool periodic_allowed() const;

  Clock& clock_;
  Hooks hooks_;
  std::minstd_rand rng_;
  BfdAuth auth_;
  SessionParams params_;
  uint32_t local_discr_;
  uint32_t remote_discr_ = 0;
  SessionState state_ = SessionState::kDown;
  SessionState remote_state_ = SessionState::kDown;
  Diag local_diag_ = Diag::kNone;
  Diag remote_diag_ = Diag::kNone;
  bool admin_down_ = false;
  microseconds remote_min_rx_{1};  // RFC 5880 6.8.1: 1 until the peer says otherwise
  microseconds remote_desired_tx_{0};
  uint8_t remote_detect_mult_ = 0;
  bool remote_demand_ = false;
  // Poll Sequence (6.8.3): the values in force until the peer's Final.
  bool poll_ = false;
  microseconds tx_in_force_{0};  // DesiredMinTx for our own timing
  microseconds rx_in_force_{0};  // RequiredMinRx for the Detection Time
  std::unique_ptr<Timer> tx_timer_;
  bool tx_armed_ = false;
  microseconds scheduled_interval_{0};  // tx_interval() when the next packet was scheduled
  std::unique_ptr<Timer> detect_timer_;
  SessionCounters counters_;
  Clock::TimePoint last_change_;
};

}  // namespace strata::bfd
