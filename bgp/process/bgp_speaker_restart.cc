// BgpSpeaker's graceful restart part (RFC 4724): the capability each peer advertises, and the
// restarting speaker's wait for its peers' End-of-RIB (selection deferral, section 4.1).
//
// How the process knows it restarted: the RIB still holds routes of our origin tables marked
// stale (we register them with graceful restart, so when strata-bgp dies they stay, in the RIB
// and the kernel, until we say we are done or our restart time ends). BgpProcess holds
// the sessions until it has asked the RIB (RibIpcSink::Options::on_restart_state) and then calls
// SetRestarting. No state file is needed, and a fresh RIB means a fresh start.
//
// Route selection is deferred (section 4.1) until every graceful restart peer (established, not
// restarting itself) sent End-of-RIB, or the selection deferral timer ends: towards the RIB
// (RibIpcSink queues) and towards every peer (each BgpPeer's OutputGate holds its Adj-RIB-Out).
// Then, once the pipeline has settled (no background slice left, no next hop question open; at
// most kSettleLimit), each peer gets its table once followed by End-of-RIB, and the RIB its
// final choices followed by graceful_restart_done.
#include <algorithm>

#include "bgp/process/bgp_speaker.h"

namespace strata::bgp {

void BgpSpeaker::apply_graceful_restart(PeerSettings& settings) const {
  settings.graceful_restart_config = local_ ? local_->graceful_restart : GracefulRestartConfig{};
  apply_long_lived_graceful_restart(settings);
  if (!settings.graceful_restart) {
    // RFC 9494 4.1: LLGR needs the GR capability: a restart time of 0 and no family asks for
    // no graceful restart, only the long-lived one.
    if (settings.session.long_lived_graceful_restart) {
      settings.session.graceful_restart = GracefulRestartCapability{};
    } else {
      settings.session.graceful_restart.reset();
    }
    return;
  }
  GracefulRestartCapability cap;
  cap.restarting = restarting_;
  cap.restart_time = settings.graceful_restart_config.restart_time;
  // We can keep forwarding across our own restart (the RIB keeps our routes stale), so every
  // family is listed; the F bit says we did keep it, which is only true after a restart.
  for (const AfiSafi& f : settings.session.families) cap.families.push_back({f, restarting_});
  settings.session.graceful_restart = cap;
}

void BgpSpeaker::apply_long_lived_graceful_restart(PeerSettings& settings) const {
  if (settings.long_lived_stale_time == 0) {
    settings.session.long_lived_graceful_restart.reset();
    return;
  }
  // The F bit is left clear: after a restart of ours the peer keeps our long-lived stale routes
  // only until the new session is up (our routes in the RIB are not LLGR-stale).
  LongLivedGracefulRestartCapability cap;
  for (const AfiSafi& f : settings.session.families) {
    cap.families.push_back({f, false, settings.long_lived_stale_time});
  }
  settings.session.long_lived_graceful_restart = cap;
}

void BgpSpeaker::readd_peers() {
  std::vector<PeerSettings> saved;
  for (auto& [addr, p] : peers_) saved.push_back(p->settings());
  for (PeerSettings& ps : saved) {
    const IpAddr addr = ps.session.peer_address;
    if (listener_) listener_->RemovePeer(addr);
    peers_.erase(addr);
    if (Status s = AddPeer(std::move(ps)); !s.ok()) {
      log_->error("re-adding peer {} failed: {}", addr.ToString(), s.ToString());
    }
  }
}

void BgpSpeaker::SetRestarting(bool restarting) {
  const bool was_holding = hold_sessions_;
  hold_sessions_ = false;
  restarting_ = restarting;
  if (restarting) {
    const uint32_t defer = selection_deferral_time();
    log_->info("restarting with routes kept: deferring route selection up to {} s", defer);
    deferral_timer_ = std::make_unique<boost::asio::steady_timer>(io_, std::chrono::seconds(defer));
    deferral_timer_->async_wait(
        [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
          if (ec || alive.expired()) return;
          finish_restart("selection deferral timer ended");
        });
  }
  // Peers held so far were built without knowing: build them again with the right OPEN.
  if (was_holding || restarting) readd_peers();
  check_restart_done();
}

void BgpSpeaker::check_restart_done() {
  if (!restarting_) return;
  if (peers_.empty()) return;  // not configured yet: wait for peers or the timer
  for (const auto& [addr, p] : peers_) {
    if (!p->settings().enabled || !p->settings().graceful_restart) continue;
    // A peer restarting too defers its End-of-RIB until it has ours: not waited for (4.1).
    if (p->established() && p->peer_restarting()) continue;
    if (!p->initial_table_received()) return;
  }
  finish_restart("End-of-RIB from every graceful restart peer");
}

uint32_t BgpSpeaker::selection_deferral_time() const {
  return local_ ? local_->graceful_restart.selection_deferral_time
                : GracefulRestartConfig{}.selection_deferral_time;
}

std::optional<std::chrono::seconds> BgpSpeaker::deferral_remaining() const {
  if (!restarting_ || settling_ || !deferral_timer_) return std::nullopt;
  const auto left = deferral_timer_->expiry() - std::chrono::steady_clock::now();
  return std::max(std::chrono::seconds(0), std::chrono::ceil<std::chrono::seconds>(left));
}

std::vector<IpAddr> BgpSpeaker::awaited_end_of_rib() const {
  std::vector<IpAddr> out;
  if (!restarting_ || settling_) return out;
  for (const auto& [addr, p] : peers_) {
    if (!p->settings().enabled || !p->settings().graceful_restart) continue;
    if (p->established() && p->peer_restarting()) continue;
    if (!p->initial_table_received()) out.push_back(addr);
  }
  return out;
}

bool BgpSpeaker::selection_settled() const {
  if (scheduler_.pending() > 0) return false;
  if (!pipeline_) return true;
  auto pending = [&](PeerId id) {
    auto c = pipeline_->counters(id);
    return c.ok() && c->nexthop_pending > 0;
  };
  if (pending(local_peer_id_)) return false;
  return std::none_of(peers_.begin(), peers_.end(),
                      [&](const auto& kv) { return pending(kv.second->id()); });
}

void BgpSpeaker::finish_restart(const char* why) {
  if (!restarting_ || settling_) return;
  settling_ = true;
  deferral_timer_.reset();
  log_->info("route selection deferral over: {}", why);
  settle_deadline_ = std::chrono::steady_clock::now() + kSettleLimit;
  await_settled();
}

void BgpSpeaker::await_settled() {
  if (!selection_settled() && std::chrono::steady_clock::now() < settle_deadline_) {
    deferral_timer_ =
        std::make_unique<boost::asio::steady_timer>(io_, std::chrono::milliseconds(20));
    deferral_timer_->async_wait(
        [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
          if (!ec && !alive.expired()) await_settled();
        });
    return;
  }
  complete_restart();
}

void BgpSpeaker::complete_restart() {
  restarting_ = false;
  settling_ = false;
  deferral_timer_.reset();
  log_->info("graceful restart done: routes go to peers and the RIB");
  // Later OPENs are those of a speaker that did not just restart: no R bit, no F bits.
  for (auto& [addr, p] : peers_) {
    PeerSettings s = p->settings();
    apply_graceful_restart(s);
    p->SetGracefulRestartCapability(s.session.graceful_restart);
    p->ReleaseOutput();
  }
  if (hooks_.restart_done) hooks_.restart_done();
}

}  // namespace strata::bgp
