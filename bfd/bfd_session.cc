#include "bfd/bfd_session.h"

#include <algorithm>

namespace strata::bfd {

BfdSession::BfdSession(Clock& clock, uint32_t local_discr, SessionParams params, Hooks hooks,
                       uint32_t seed)
    : clock_(clock),
      hooks_(std::move(hooks)),
      rng_(seed),
      auth_(params.auth, seed | 1),
      params_(std::move(params)),
      local_discr_(local_discr),
      last_change_(clock.now()) {
  tx_in_force_ = advertised_tx();
  rx_in_force_ = params_.required_min_rx;
  tx_timer_ = clock_.make_timer([this] {
    tx_armed_ = false;
    Transmit(false);
    ScheduleTransmit();
  });
  detect_timer_ = clock_.make_timer([this] { OnDetectionExpired(); });
  if (periodic_allowed()) {
    tx_timer_->start_at(clock_.now());  // the first packet at once, from the event loop
    tx_armed_ = true;
  }
}

microseconds BfdSession::advertised_tx() const {
  return state_ == SessionState::kUp ? params_.desired_min_tx
                                     : std::max(params_.desired_min_tx, kSlowTx);
}

microseconds BfdSession::tx_interval() const { return std::max(tx_in_force_, remote_min_rx_); }

microseconds BfdSession::detection_time() const {
  if (remote_detect_mult_ == 0) return microseconds(0);
  return remote_detect_mult_ * std::max(rx_in_force_, remote_desired_tx_);
}

bool BfdSession::periodic_allowed() const {
  if (remote_min_rx_.count() == 0) return false;  // the peer wants no packets (6.8.7)
  if (params_.passive && remote_discr_ == 0) return false;
  // Demand mode active on the peer (6.8.7).
  return !(remote_demand_ && state_ == SessionState::kUp && remote_state_ == SessionState::kUp);
}

void BfdSession::Transmit(bool final) {
  ControlPacket p;
  p.diag = local_diag_;
  p.state = state_;
  p.poll = poll_ && !final;  // never both (6.8.7)
  p.final = final;
  p.detect_mult = params_.detect_mult;
  p.my_discriminator = local_discr_;
  p.your_discriminator = remote_discr_;
  p.desired_min_tx_us = static_cast<uint32_t>(advertised_tx().count());
  p.required_min_rx_us = static_cast<uint32_t>(params_.required_min_rx.count());
  p.required_min_echo_rx_us = 0;
  ++counters_.packets_out;
  hooks_.transmit(auth_.Sign(std::move(p)));
}

void BfdSession::ScheduleTransmit() {
  if (!periodic_allowed()) {
    tx_timer_->stop();
    tx_armed_ = false;
    return;
  }
  // Jitter (6.8.7): 75 to 100 % of the interval, 75 to 90 % with Detect Mult 1.
  const int top = params_.detect_mult == 1 ? 90 : 100;
  std::uniform_int_distribution<int> pct(75, top);
  scheduled_interval_ = tx_interval();
  const auto interval = scheduled_interval_ * pct(rng_) / 100;
  tx_timer_->start_at(clock_.now() + interval);
  tx_armed_ = true;
}

void BfdSession::ArmDetection() {
  const microseconds dt = detection_time();
  if (state_ == SessionState::kAdminDown || dt.count() == 0) {
    detect_timer_->stop();
    return;
  }
  detect_timer_->start_at(clock_.now() + dt);
}

void BfdSession::OnDetectionExpired() {
  // No valid packet for a Detection Time: the peer is forgotten (6.8.1, 6.8.4).
  remote_discr_ = 0;
  remote_state_ = SessionState::kDown;
  remote_detect_mult_ = 0;
  remote_demand_ = false;
  auth_.ForgetSequence();
  if (state_ == SessionState::kInit || state_ == SessionState::kUp) {
    SetState(SessionState::kDown, Diag::kDetectionTimeExpired);
  } else if (!periodic_allowed()) {
    tx_timer_->stop();
    tx_armed_ = false;
  }
}

void BfdSession::SetState(SessionState to, Diag diag) {
  const SessionState from = state_;
  if (to == from) return;
  state_ = to;
  local_diag_ = diag;
  last_change_ = clock_.now();
  if (to == SessionState::kUp) {
    ++counters_.up_transitions;
    // DesiredMinTx drops from the slow rate to the configured one: use it at once (sending
    // faster is always safe) and tell the peer with a Poll Sequence (6.8.3).
    const bool changed = tx_in_force_ != params_.desired_min_tx;
    tx_in_force_ = params_.desired_min_tx;
    rx_in_force_ = params_.required_min_rx;
    if (changed) poll_ = true;
  } else {
    if (from == SessionState::kUp) ++counters_.down_transitions;
    poll_ = false;
    tx_in_force_ = advertised_tx();
    rx_in_force_ = params_.required_min_rx;
  }
  if (to == SessionState::kAdminDown) detect_timer_->stop();
  // A state change is sent at once rather than at the next tick, so the peer follows quickly.
  if (!params_.passive || remote_discr_ != 0) Transmit(false);
  ScheduleTransmit();
  if (hooks_.state_changed) hooks_.state_changed(from, to, diag);
}

void BfdSession::FinishPoll() {
  poll_ = false;
  tx_in_force_ = advertised_tx();
  rx_in_force_ = params_.required_min_rx;
  if (tx_armed_ && tx_interval() != scheduled_interval_) ScheduleTransmit();
}

void BfdSession::Receive(const ControlPacket& p, std::span<const uint8_t> bytes) {
  if (Status s = auth_.Verify(p, bytes); !s.ok()) {
    ++counters_.auth_failures;
    return;
  }
  ++counters_.packets_in;
  remote_discr_ = p.my_discriminator;
  remote_state_ = p.state;
  remote_diag_ = p.diag;
  remote_demand_ = p.demand;
  remote_min_rx_ = microseconds(p.required_min_rx_us);
  remote_desired_tx_ = microseconds(p.desired_min_tx_us);
  remote_detect_mult_ = p.detect_mult;
  if (p.final && poll_) FinishPoll();
  ArmDetection();
  if (state_ != SessionState::kAdminDown) {
    if (p.state == SessionState::kAdminDown) {
      if (state_ != SessionState::kDown) SetState(SessionState::kDown, Diag::kNeighborDown);
    } else if (state_ == SessionState::kDown) {
      if (p.state == SessionState::kDown) {
        SetState(SessionState::kInit, Diag::kNone);
      } else if (p.state == SessionState::kInit) {
        SetState(SessionState::kUp, Diag::kNone);
      }
    } else if (state_ == SessionState::kInit) {
      if (p.state == SessionState::kInit || p.state == SessionState::kUp) {
        SetState(SessionState::kUp, Diag::kNone);
      }
    } else if (state_ == SessionState::kUp && p.state == SessionState::kDown) {
      SetState(SessionState::kDown, Diag::kNeighborDown);
    }
  }
  if (p.poll) Transmit(true);  // answered at once, whatever the rate (6.8.7)
  // The peer's RequiredMinRx or Demand bit may have started or stopped the periodic packets, or
  // changed their interval (a peer that asked for a slow rate until Up, as FRR does, expects
  // the fast one as soon as its Poll Sequence ends, not after our pending slow interval).
  if (periodic_allowed() != tx_armed_ || (tx_armed_ && tx_interval() != scheduled_interval_)) {
    ScheduleTransmit();
  }
}

void BfdSession::SetParams(const SessionParams& params) {
  const SessionParams old = params_;
  params_ = params;
  if (params.auth != old.auth) auth_ = BfdAuth(params.auth, rng_() | 1);
  if (state_ == SessionState::kUp &&
      (params.desired_min_tx != old.desired_min_tx ||
       params.required_min_rx != old.required_min_rx || params.detect_mult != old.detect_mult)) {
    // A slower transmit rate and a faster receive rate wait for the peer's Final (6.8.3).
    if (params.desired_min_tx <= tx_in_force_) tx_in_force_ = params.desired_min_tx;
    if (params.required_min_rx >= rx_in_force_) rx_in_force_ = params.required_min_rx;
    poll_ = true;
    Transmit(false);
    ScheduleTransmit();
    return;
  }
  if (state_ != SessionState::kUp) {
    tx_in_force_ = advertised_tx();
    rx_in_force_ = params_.required_min_rx;
  }
  if (periodic_allowed() != tx_armed_) ScheduleTransmit();
}

void BfdSession::SetAdminDown(bool down) {
  if (down == (state_ == SessionState::kAdminDown)) return;
  SetState(down ? SessionState::kAdminDown : SessionState::kDown,
           down ? Diag::kAdminDown : Diag::kNone);
}

}  // namespace strata::bfd
