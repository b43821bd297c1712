#include "bgp/process/peer_graceful_restart.h"

#include <algorithm>
#include <utility>

namespace strata::bgp {
namespace {

std::optional<Family> UnicastFamily(AfiSafi f) {
  if (f == kIpv4Unicast) return Family::kIpv4;
  if (f == kIpv6Unicast) return Family::kIpv6;
  return std::nullopt;
}

bool Has(const std::vector<AfiSafi>& v, AfiSafi f) {
  return std::find(v.begin(), v.end(), f) != v.end();
}

}  // namespace

PeerGracefulRestart::PeerGracefulRestart(boost::asio::io_context& io, BgpPipeline& pipeline,
                                         PeerId id, std::string name,
                                         std::chrono::milliseconds stale_time)
    : io_(io),
      pipeline_(pipeline),
      id_(id),
      name_(std::move(name)),
      stale_time_(stale_time),
      log_(MakeLogger("bgp.gr")) {}

PeerGracefulRestart::~PeerGracefulRestart() { *alive_ = false; }

uint64_t PeerGracefulRestart::stale_routes() const {
  auto c = pipeline_.counters(id_);
  return c.ok() ? c->stale : 0;
}

void PeerGracefulRestart::OnEstablished(const NegotiatedSession& s) {
  restart_timer_.reset();
  const bool had_stale = stale_routes() > 0;
  negotiated_ = s.graceful_restart;
  peer_restart_time_ = s.peer_restart_time;
  if (!had_stale) {
    peer_gr_families_ = s.peer_gr_families;
    return;
  }
  if (!s.graceful_restart) {
    sweep(std::nullopt, "the new session did not negotiate graceful restart");
  } else {
    for (AfiSafi f : {kIpv4Unicast, kIpv6Unicast}) {
      if (!Has(s.peer_forwarding_preserved, f)) sweep(UnicastFamily(f), "forwarding not kept");
    }
  }
  peer_gr_families_ = s.peer_gr_families;
  if (stale_routes() > 0) start_timer(stale_timer_, stale_time_, "stale timer");
}

bool PeerGracefulRestart::OnDown(bool notification_received, bool notification_sent,
                                 bool sent_hold_expired) {
  if (!negotiated_ || notification_received || (notification_sent && !sent_hold_expired)) {
    restart_timer_.reset();
    stale_timer_.reset();
    return false;
  }
  if (Status s = pipeline_.peer_down_graceful(id_); !s.ok()) return false;
  // Families the peer did not list cannot be kept.
  for (AfiSafi f : {kIpv4Unicast, kIpv6Unicast}) {
    if (!Has(peer_gr_families_, f)) sweep(UnicastFamily(f), "family not in the capability");
  }
  log_->info("{}: graceful restart: keeping {} routes stale for up to {} s", name_, stale_routes(),
             peer_restart_time_);
  stale_timer_.reset();
  start_timer(restart_timer_, std::chrono::seconds(peer_restart_time_), "restart timer");
  return true;
}

void PeerGracefulRestart::OnEndOfRib(AfiSafi family) {
  if (stale_routes() == 0) return;
  if (auto f = UnicastFamily(family)) sweep(f, "End-of-RIB");
  if (stale_routes() == 0) stale_timer_.reset();
}

void PeerGracefulRestart::sweep(std::optional<Family> family, const char* why) {
  const uint64_t before = stale_routes();
  if (before == 0) return;
  (void)pipeline_.sweep_stale(id_, family);
  ++sweeps_;
  log_->info("{}: graceful restart: {}: withdrawing {} stale {} routes", name_, why,
             before - stale_routes(),
             family ? (*family == Family::kIpv4 ? "IPv4" : "IPv6") : "(all families)");
}

void PeerGracefulRestart::start_timer(std::unique_ptr<boost::asio::steady_timer>& timer,
                                      std::chrono::milliseconds after, const char* why) {
  timer = std::make_unique<boost::asio::steady_timer>(io_, after);
  auto* which = &timer;
  timer->async_wait(
      [this, which, why, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
        if (ec || alive.expired()) return;
        which->reset();
        sweep(std::nullopt, why);
      });
}

}  // namespace strata::bgp
