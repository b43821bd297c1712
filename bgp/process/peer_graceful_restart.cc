#include "bgp/process/peer_graceful_restart.h"

#include <algorithm>
#include <utility>

namespace strata::bgp {
namespace {

constexpr AfiSafi kUnicast[] = {kIpv4Unicast, kIpv6Unicast};

std::optional<Family> UnicastFamily(AfiSafi f) {
  if (f == kIpv4Unicast) return Family::kIpv4;
  if (f == kIpv6Unicast) return Family::kIpv6;
  return std::nullopt;
}

size_t TimerIndex(AfiSafi f) { return f == kIpv6Unicast ? 1 : 0; }

bool Has(const std::vector<AfiSafi>& v, AfiSafi f) {
  return std::find(v.begin(), v.end(), f) != v.end();
}

bool LlgrForwarding(const NegotiatedSession& s, AfiSafi f) {
  return std::any_of(s.peer_llgr_families.begin(), s.peer_llgr_families.end(),
                     [f](const auto& l) { return l.afi_safi == f && l.forwarding_preserved; });
}

}  // namespace

PeerGracefulRestart::PeerGracefulRestart(boost::asio::io_context& io, BgpPipeline& pipeline,
                                         PeerId id, std::string name,
                                         std::chrono::milliseconds stale_time,
                                         std::chrono::seconds long_lived_stale_time,
                                         bool graceful_restart)
    : io_(io),
      pipeline_(pipeline),
      id_(id),
      name_(std::move(name)),
      stale_time_(stale_time),
      local_llst_(long_lived_stale_time),
      gr_configured_(graceful_restart),
      log_(MakeLogger("bgp.gr")) {}

PeerGracefulRestart::~PeerGracefulRestart() { *alive_ = false; }

uint64_t PeerGracefulRestart::stale_routes() const {
  auto c = pipeline_.counters(id_);
  return c.ok() ? c->stale : 0;
}

uint64_t PeerGracefulRestart::llgr_stale_routes() const {
  auto c = pipeline_.counters(id_);
  return c.ok() ? c->llgr_stale : 0;
}

bool PeerGracefulRestart::helping() const {
  return restart_timer_ || stale_timer_ || llgr_timers_[0] || llgr_timers_[1];
}

std::optional<std::chrono::seconds> PeerGracefulRestart::llgr_time_left() const {
  std::optional<std::chrono::seconds> left;
  const auto now = boost::asio::steady_timer::clock_type::now();
  for (const auto& t : llgr_timers_) {
    if (!t) continue;
    auto s = std::chrono::ceil<std::chrono::seconds>(std::max(t->expiry() - now, now - now));
    if (!left || s > *left) left = s;
  }
  return left;
}

std::chrono::seconds PeerGracefulRestart::long_lived_stale_time(AfiSafi f) const {
  if (!llgr_negotiated_) return std::chrono::seconds(0);
  for (const auto& l : peer_llgr_families_) {
    if (l.afi_safi == f) return std::min(std::chrono::seconds(l.stale_time), local_llst_);
  }
  return std::chrono::seconds(0);
}

void PeerGracefulRestart::OnEstablished(const NegotiatedSession& s) {
  restart_timer_.reset();
  for (auto& t : llgr_timers_) t.reset();
  const bool had_stale = stale_routes() > 0;
  negotiated_ = s.graceful_restart;
  peer_restart_time_ = s.peer_restart_time;
  llgr_negotiated_ = s.long_lived_graceful_restart && local_llst_.count() > 0;
  peer_llgr_families_ = s.peer_llgr_families;
  if (!had_stale) {
    peer_gr_families_ = s.peer_gr_families;
    return;
  }
  if (!s.graceful_restart && !s.long_lived_graceful_restart) {
    sweep(std::nullopt, "the new session did not negotiate graceful restart");
  } else {
    for (AfiSafi f : kUnicast) {
      if (!Has(s.peer_forwarding_preserved, f) && !LlgrForwarding(s, f)) {
        sweep(UnicastFamily(f), "forwarding not kept");
      }
    }
  }
  peer_gr_families_ = s.peer_gr_families;
  if (stale_routes() > 0) {
    start_timer(stale_timer_, stale_time_, [this] { sweep(std::nullopt, "stale timer"); });
  }
}

bool PeerGracefulRestart::OnDown(bool notification_received, bool notification_sent,
                                 bool sent_hold_expired) {
  if ((!negotiated_ && !llgr_negotiated_) || notification_received ||
      (notification_sent && !sent_hold_expired)) {
    restart_timer_.reset();
    stale_timer_.reset();
    for (auto& t : llgr_timers_) t.reset();
    return false;
  }
  if (Status s = pipeline_.peer_down_graceful(id_); !s.ok()) return false;
  stale_timer_.reset();
  // Families the peer listed in its GR capability wait for the restart timer; the others go
  // long-lived stale at once, or are withdrawn.
  const bool restart_phase = negotiated_ && gr_configured_ && peer_restart_time_ > 0;
  bool waiting = false;
  for (AfiSafi f : kUnicast) {
    if (restart_phase && Has(peer_gr_families_, f)) {
      waiting = true;
    } else {
      enter_long_lived(f);
    }
  }
  if (waiting) {
    log_->info("{}: graceful restart: keeping {} routes stale for up to {} s", name_,
               stale_routes(), peer_restart_time_);
    start_timer(restart_timer_, std::chrono::seconds(peer_restart_time_), [this] {
      for (AfiSafi f : kUnicast) {
        if (Has(peer_gr_families_, f)) enter_long_lived(f);
      }
    });
  }
  return true;
}

void PeerGracefulRestart::enter_long_lived(AfiSafi f) {
  const std::chrono::seconds llst = long_lived_stale_time(f);
  if (llst.count() == 0) {
    sweep(UnicastFamily(f), llgr_negotiated_ ? "restart time over, no long-lived stale time"
                                             : "restart time over or family not kept");
    return;
  }
  (void)pipeline_.mark_llgr_stale(id_, UnicastFamily(f));
  log_->info("{}: long-lived graceful restart: {}: keeping {} routes LLGR-stale for up to {} s",
             name_, f.ToString(), llgr_stale_routes(), llst.count());
  const auto family = UnicastFamily(f);
  start_timer(llgr_timers_[TimerIndex(f)], llst,
              [this, family] { sweep(family, "long-lived stale timer"); });
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
                                      std::chrono::milliseconds after,
                                      std::function<void()> on_end) {
  timer = std::make_unique<boost::asio::steady_timer>(io_, after);
  auto* which = &timer;
  timer->async_wait([which, on_end = std::move(on_end),
                     alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
    if (ec || alive.expired()) return;
    which->reset();
    on_end();
  });
}

}  // namespace strata::bgp
