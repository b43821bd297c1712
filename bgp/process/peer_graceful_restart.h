// PeerGracefulRestart: the graceful restart helper of one peer (RFC 4724 4.2), the timers and
// per-family decisions around BgpPipeline::peer_down_graceful / sweep_stale.
//
//   session lost without a NOTIFICATION (TCP loss, or our Hold Timer Expired), GR negotiated:
//       routes kept stale; restart timer = the peer's advertised restart time
//   restart timer ends with the peer still down: every stale route withdrawn
//   session back: restart timer stopped; no GR in the new OPEN: all stale routes withdrawn;
//       a family not listed or without the F bit: its stale routes withdrawn at once;
//       stale timer (speaker-wide stale_time) started
//   End-of-RIB for a family: its stale routes not re-announced are withdrawn
//   stale timer ends: every stale route left is withdrawn
// Long-lived graceful restart (RFC 9494), when both sides sent the LLGR capability (and the peer
// GR with it): a family the peer listed with a long-lived stale time (LLST) is not withdrawn when
// the restart timer ends, or at once when the family has no graceful restart (restart time 0, not
// listed, or GR turned off for the peer): its routes are re-announced with LLGR_STALE
// (BgpPipeline::mark_llgr_stale; NO_LLGR routes are withdrawn) and kept for the LLST (the
// peer's, capped by ours); when that timer ends they are withdrawn. A new session stops the LLST
// timers and goes on as above (a family is kept if the GR or the LLGR capability sets its F bit).
// Withdrawals go through the pipeline's deletion stages (background slices). The RFC 8538 N bit
// is not used: a NOTIFICATION always ends graceful restart.
// Threading: the io_context thread. REQUIRES: the pipeline outlives this object.
#pragma once

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "bgp/pipeline/bgp_pipeline.h"
#include "bgp/wire/codec_options.h"
#include "common/log.h"

namespace strata::bgp {

// Speaker-wide graceful restart settings.
struct GracefulRestartConfig {
  uint16_t restart_time = 120;  // seconds advertised in our capability (12 bits)
  // Seconds a helper keeps a restarted peer's stale routes waiting for its End-of-RIB.
  uint32_t stale_time = 360;
  // Seconds a restarting speaker defers its route selection (towards the RIB and its peers)
  // waiting for its peers' End-of-RIB (RFC 4724 4.1 selection_deferral_timer; FRR's
  // select-defer-time). The RIB keeps our stale routes that long too (RibIpcSink).
  uint32_t selection_deferral_time = 360;
  friend bool operator==(const GracefulRestartConfig&, const GracefulRestartConfig&) = default;
  // The times the sessions are built with (the deferral is not one of them).
  bool SameSessionTimes(const GracefulRestartConfig& o) const {
    return restart_time == o.restart_time && stale_time == o.stale_time;
  }
};

class PeerGracefulRestart {
 public:
  // `long_lived_stale_time`: ours (the most we keep long-lived stale routes), 0: no LLGR;
  // `graceful_restart`: GR is configured for the peer (else only LLGR, if negotiated, applies).
  PeerGracefulRestart(boost::asio::io_context& io, BgpPipeline& pipeline, PeerId id,
                      std::string name, std::chrono::milliseconds stale_time,
                      std::chrono::seconds long_lived_stale_time = std::chrono::seconds(0),
                      bool graceful_restart = true);
  ~PeerGracefulRestart();

  // The session is established (after pipeline peer_up).
  void OnEstablished(const NegotiatedSession& session);
  // The session is gone. True if its routes were kept stale (peer_down_graceful done); false if
  // the caller must call peer_down. `notification_received` / `notification_sent`: since the
  // session came up; `sent_hold_expired`: the NOTIFICATION we sent was Hold Timer Expired.
  bool OnDown(bool notification_received, bool notification_sent, bool sent_hold_expired);
  // End-of-RIB for `family` from the current session.
  void OnEndOfRib(AfiSafi family);

  bool negotiated() const { return negotiated_; }
  uint16_t peer_restart_time() const { return peer_restart_time_; }
  // The peer is restarting: its routes are held stale while it is down or until End-of-RIB.
  bool helping() const;
  uint64_t stale_routes() const;
  // RFC 9494: the current (or last) session negotiated LLGR.
  bool llgr_negotiated() const { return llgr_negotiated_; }
  // Routes kept long-lived stale (with LLGR_STALE) now.
  uint64_t llgr_stale_routes() const;
  // Time until the last running long-lived stale timer ends; nullopt if none runs.
  std::optional<std::chrono::seconds> llgr_time_left() const;
  uint64_t sweeps() const { return sweeps_; }

 private:
  void sweep(std::optional<Family> family, const char* why);
  // The graceful restart time of `f` is over: LLGR (if the family has a long-lived stale time)
  // or withdrawal.
  void enter_long_lived(AfiSafi f);
  std::chrono::seconds long_lived_stale_time(AfiSafi f) const;
  void start_timer(std::unique_ptr<boost::asio::steady_timer>& timer,
                   std::chrono::milliseconds after, std::function<void()> on_end);

  boost::asio::io_context& io_;
  BgpPipeline& pipeline_;
  PeerId id_;
  std::string name_;
  std::chrono::milliseconds stale_time_;
  std::chrono::seconds local_llst_;
  bool gr_configured_;
  std::shared_ptr<spdlog::logger> log_;
  bool negotiated_ = false;  // the current (or last) session negotiated GR
  uint16_t peer_restart_time_ = 0;
  std::vector<AfiSafi> peer_gr_families_;  // listed in the last session's capability
  std::unique_ptr<boost::asio::steady_timer> restart_timer_;
  std::unique_ptr<boost::asio::steady_timer> stale_timer_;
  bool llgr_negotiated_ = false;  // the current (or last) session negotiated LLGR
  std::vector<LongLivedGracefulRestartCapability::Family> peer_llgr_families_;
  std::array<std::unique_ptr<boost::asio::steady_timer>, 2> llgr_timers_;  // IPv4, IPv6 unicast
  uint64_t sweeps_ = 0;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::bgp
