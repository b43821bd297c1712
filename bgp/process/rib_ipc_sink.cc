#include "bgp/process/rib_ipc_sink.h"

#include <boost/asio/post.hpp>
#include <vector>

#include "common/profiler.h"
#include "libipc/arena_options.h"
#include "libipc/common_convert.h"
#include "libipc/interfaces/rib.strata.h"

namespace strata::bgp {
namespace {
ProfilePoint& profile_queued = Profiler::Get().Point(kProfileBgpRibQueued);
ProfilePoint& profile_sent = Profiler::Get().Point(kProfileBgpRibSent);
}  // namespace

namespace rpb = strata::rib::v1;

namespace {
rpb::AddOriginTableRequest TableRequest(const RibIpcSink::Options& options, RibOrigin origin,
                                        bool deferring) {
  rpb::AddOriginTableRequest req;
  req.set_protocol(std::string(RibOriginName(origin)));
  req.set_kind(rpb::PROTOCOL_KIND_EGP);
  req.set_owner(options.owner);
  req.set_graceful_restart(options.graceful_restart);
  req.set_restart_time_s(options.restart_time_s);
  // Restarting: we say when we are done (graceful_restart_done), not the RIB's timer.
  if (deferring && options.graceful_restart)
    req.set_selection_deferral_s(options.selection_deferral_s);
  return req;
}
}  // namespace

RibIpcSink::RibIpcSink(ipc::Router& router, Options options, SkipFn skip)
    : router_(router),
      options_(std::move(options)),
      skip_(std::move(skip)),
      log_(MakeLogger(options_.owner + ".rib")) {
  if (options_.max_batch == 0) options_.max_batch = 1;
  if (options_.max_in_flight == 0) options_.max_in_flight = 1;
}

RibIpcSink::~RibIpcSink() = default;

std::optional<RibIpcSink::Want> RibIpcSink::WantOf(RibOrigin origin, const BgpRoute& route,
                                                   const RibMultipath& multipath) const {
  const auto& nh = route.path().next_hop;
  if ((skip_ && skip_(route)) || !nh) return std::nullopt;
  return Want{origin, *nh, route.igp_metric, multipath.nexthops, false};
}

void RibIpcSink::change(const IpPrefix& prefix, std::optional<Want> had, std::optional<Want> want) {
  if (!taking()) return;  // the resend when taking again brings the prefix as it is then
  if (profile_queued.enabled()) {
    profile_queued.Record((want ? "add " : "delete ") + prefix.ToString());
  }
  queue_.push_back(Change{prefix, std::move(had), std::move(want)});
  if (feed_ && !feed_paused_ && queued() >= 2 * options_.max_batch * options_.max_in_flight) {
    feed_paused_ = true;
    feed_->pause();
  }
}

void RibIpcSink::forget() {
  queue_ = {};
  head_ = 0;
  sent_count_ = 0;
  if (feed_ && feed_paused_) feed_->resume();
  feed_paused_ = false;
}

void RibIpcSink::start_taking() {
  if (!taking()) return;
  if (feed_) feed_->resend();
  flush();
}

void RibIpcSink::add_route(RibOrigin origin, const BgpRouteRef& route,
                           const RibMultipath& multipath) {
  change(route->prefix, std::nullopt, WantOf(origin, *route, multipath));
}

void RibIpcSink::replace_route(RibOrigin origin, const BgpRouteRef& old_route,
                               const BgpRouteRef& new_route, const RibMultipath& multipath) {
  std::optional<Want> had = WantOf(origin, *old_route);
  if (had) had->multipath_unknown = multipath.enabled;
  change(new_route->prefix, std::move(had), WantOf(origin, *new_route, multipath));
}

void RibIpcSink::delete_route(RibOrigin origin, const BgpRouteRef& route) {
  change(route->prefix, WantOf(origin, *route), std::nullopt);
}

void RibIpcSink::clear() {
  if (deferring_ || !rib_up_) {
    // Nothing sent (restarting: the stale routes stay until graceful_restart_done; no RIB:
    // its tables are wiped at registration).
    forget();
    return;
  }
  // Our routes go with the tables; the next pipeline's are sent once they are back.
  ++generation_;
  ready_ = false;
  in_flight_ = 0;
  forget();
  add_tables(/*delete_first=*/true);
}

bool RibIpcSink::can_send() const {
  return taking() && queued() > 0 && in_flight_ < options_.max_in_flight;
}

void RibIpcSink::flush() {
  if (!can_send()) return;
  send_round();
  if (!can_send() || flush_posted_) return;
  flush_posted_ = true;
  boost::asio::post(router_.io(), [this, alive = std::weak_ptr<bool>(alive_)] {
    if (alive.expired()) return;
    flush_posted_ = false;
    flush();
  });
}

void RibIpcSink::send_round() {
  // Per table: deletes, replaces, adds.
  // The requests live on an arena for the round (serialized by the calls below).
  google::protobuf::Arena arena(ipc::BatchArenaOptions());
  rpb::DeleteRoutesRequest* del[2];
  rpb::ReplaceRoutesRequest* rep[2];
  rpb::AddRoutesRequest* add[2];
  for (int t = 0; t < 2; ++t) {
    const std::string name(RibOriginName(t == 0 ? RibOrigin::kEbgp : RibOrigin::kIbgp));
    del[t] = google::protobuf::Arena::CreateMessage<rpb::DeleteRoutesRequest>(&arena);
    rep[t] = google::protobuf::Arena::CreateMessage<rpb::ReplaceRoutesRequest>(&arena);
    add[t] = google::protobuf::Arena::CreateMessage<rpb::AddRoutesRequest>(&arena);
    del[t]->set_protocol(name);
    rep[t]->set_protocol(name);
    add[t]->set_protocol(name);
  }
  auto index = [](RibOrigin o) { return o == RibOrigin::kEbgp ? 0 : 1; };
  auto entry = [](const IpPrefix& p, const Want& w, rpb::RouteEntry* e) {
    ipc::PrefixToProto(p, e->mutable_prefix());
    ipc::AddrToProto(w.nexthop, e->mutable_nexthop());
    e->set_metric(w.metric);
    for (const IpAddr& a : w.multipath) ipc::AddrToProto(a, e->add_multipath_nexthops());
  };
  // Up to max_batch prefixes, each once: the RIB checks a call whole.
  round_.clear();
  merged_.clear();
  while (head_ < queue_.size() && merged_.size() < options_.max_batch) {
    Change& c = queue_[head_++];
    auto [it, fresh] = round_.try_emplace(c.prefix, static_cast<uint32_t>(merged_.size()));
    if (fresh) {
      merged_.push_back(std::move(c));
    } else {
      merged_[it->second].want = std::move(c.want);
    }
  }
  // The taken changes go once they are half the vector (amortized O(1), capacity kept).
  if (head_ == queue_.size()) {
    queue_.clear();
    head_ = 0;
  } else if (head_ * 2 >= queue_.size()) {
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<ptrdiff_t>(head_));
    head_ = 0;
  }
  for (const Change& c : merged_) {
    const IpPrefix& prefix = c.prefix;
    const std::optional<Want>& w = c.want;
    const std::optional<Want>& s = c.had;
    if (w == s) continue;
    if (w && s && w->origin == s->origin) {
      entry(prefix, *w, rep[index(w->origin)]->add_routes());
    } else {
      if (s) ipc::PrefixToProto(prefix, del[index(s->origin)]->add_prefixes());
      if (w) entry(prefix, *w, add[index(w->origin)]->add_routes());
    }
    if (profile_sent.enabled()) profile_sent.Record((w ? "add " : "delete ") + prefix.ToString());
    if (w && !s) ++sent_count_;
    if (!w) --sent_count_;
  }
  if (feed_paused_ && queued() < options_.max_batch * options_.max_in_flight) {
    feed_paused_ = false;
    if (feed_) feed_->resume();
  }
  rpb::RibClient client(router_, options_.rib_target);
  const uint64_t gen = generation_;
  auto alive = std::weak_ptr<bool>(alive_);
  for (int t = 0; t < 2; ++t) {
    if (del[t]->prefixes_size() > 0) {
      ++in_flight_;
      ++counters_.calls_sent;
      client.DeleteRoutes(*del[t],
                          [this, gen, alive](const Status& s, const rpb::DeleteRoutesReply& r) {
                            if (!alive.expired()) call_done(gen, s, r.applied(), "delete_routes");
                          });
    }
    if (rep[t]->routes_size() > 0) {
      ++in_flight_;
      ++counters_.calls_sent;
      client.ReplaceRoutes(*rep[t],
                           [this, gen, alive](const Status& s, const rpb::ReplaceRoutesReply& r) {
                             if (!alive.expired()) call_done(gen, s, r.applied(), "replace_routes");
                           });
    }
    if (add[t]->routes_size() > 0) {
      ++in_flight_;
      ++counters_.calls_sent;
      client.AddRoutes(*add[t], [this, gen, alive](const Status& s, const rpb::AddRoutesReply& r) {
        if (!alive.expired()) call_done(gen, s, r.applied(), "add_routes");
      });
    }
  }
}

void RibIpcSink::call_done(uint64_t gen, const Status& s, uint32_t applied, const char* what) {
  if (gen != generation_) return;
  --in_flight_;
  if (!s.ok()) {
    ++counters_.calls_failed;
    log_->warn("{} to {} failed: {}", what, options_.rib_target, s.ToString());
    resync(s);
    return;
  }
  counters_.routes_sent += applied;
  flush();
}

void RibIpcSink::resync(const Status& why) {
  ++generation_;
  ++counters_.resyncs;
  ready_ = false;
  in_flight_ = 0;
  forget();
  if (!rib_up_) return;
  if (why.code() == StatusCode::kUnavailable) {
    // The RIB is probably dying; its lifetime event will bring us back. Retry later otherwise.
    auto timer = std::make_shared<boost::asio::steady_timer>(router_.io(), std::chrono::seconds(1));
    timer->async_wait([this, timer, gen = generation_,
                       alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code&) {
      if (!alive.expired() && gen == generation_ && rib_up_ && !ready_) register_tables();
    });
    return;
  }
  register_tables();
}

void RibIpcSink::rib_event(bool alive) {
  if (alive == rib_up_) return;
  rib_up_ = alive;
  ++generation_;
  ready_ = false;
  in_flight_ = 0;
  forget();
  if (alive) {
    log_->info("{} is up: registering tables, then sending every route", options_.rib_target);
    register_tables();
  } else {
    log_->warn("{} is gone: our routes are sent again when it is back", options_.rib_target);
    // Still restarting, we keep deferring: the next RIB gets our final choices and then
    // graceful_restart_done, not a partial table it would take for complete (docs/restart.md).
  }
}

void RibIpcSink::register_tables() {
  if (options_.graceful_restart && !registered_once_) {
    ask_restart_state();
    return;
  }
  add_tables(/*delete_first=*/true);
}

void RibIpcSink::ask_restart_state() {
  const uint64_t gen = generation_;
  rpb::RibClient client(router_, options_.rib_target);
  rpb::GetRestartStateRequest req;
  req.add_protocols(std::string(RibOriginName(RibOrigin::kEbgp)));
  req.add_protocols(std::string(RibOriginName(RibOrigin::kIbgp)));
  client.GetRestartState(req, [this, gen, alive = std::weak_ptr<bool>(alive_)](
                                  const Status& s, const rpb::GetRestartStateReply& r) {
    if (alive.expired() || gen != generation_) return;
    if (!s.ok()) log_->warn("get_restart_state failed ({}): starting afresh", s.ToString());
    registered_once_ = true;
    // Our routes outlived us in the RIB (strata-bgp restarted), or the forwarding state of the
    // VR outlived the RIB (the FEA keeps it while the RIB rebuilds its table; docs/restart.md):
    // either way peers may keep ours, and selection waits for theirs.
    const bool restarting = s.ok() && (r.stale_routes() > 0 || r.recovering());
    if (restarting) {
      if (r.stale_routes() > 0) {
        log_->info("{} holds {} stale routes of ours: restarting, route changes deferred",
                   options_.rib_target, r.stale_routes());
      } else {
        log_->info("{} recovers the VR's forwarding state: restarting, route changes deferred",
                   options_.rib_target);
      }
      deferring_ = true;
    }
    if (options_.on_restart_state) options_.on_restart_state(restarting);
    add_tables(/*delete_first=*/!restarting);
  });
}

void RibIpcSink::set_restart_time(uint32_t seconds) {
  if (seconds == options_.restart_time_s) return;
  options_.restart_time_s = seconds;
  // Not registered yet: the registration to come carries it.
  if (!rib_up_ || !registered_once_) return;
  rpb::RibClient client(router_, options_.rib_target);
  for (RibOrigin o : {RibOrigin::kEbgp, RibOrigin::kIbgp}) {
    client.AddOriginTable(TableRequest(options_, o, deferring_),
                          [this, alive = std::weak_ptr<bool>(alive_)](
                              const Status& s, const rpb::AddOriginTableReply&) {
                            if (alive.expired() || s.ok()) return;
                            ++counters_.calls_failed;
                            log_->warn("add_origin_table (restart time) failed: {}", s.ToString());
                          });
  }
}

void RibIpcSink::add_tables(bool delete_first) {
  registered_once_ = true;
  const uint64_t gen = generation_;
  auto alive = std::weak_ptr<bool>(alive_);
  auto remaining = std::make_shared<int>(2);
  rpb::RibClient client(router_, options_.rib_target);
  for (RibOrigin o : {RibOrigin::kEbgp, RibOrigin::kIbgp}) {
    const std::string name(RibOriginName(o));
    if (delete_first) {
      rpb::DeleteOriginTableRequest del;
      del.set_protocol(name);
      // Wipes what an earlier incarnation of ours left (NOT_FOUND on a fresh RIB is fine).
      client.DeleteOriginTable(del, [](const Status&, const rpb::DeleteOriginTableReply&) {});
    }
    client.AddOriginTable(
        TableRequest(options_, o, deferring_),
        [this, gen, alive, remaining, name](const Status& s, const rpb::AddOriginTableReply&) {
          if (alive.expired() || gen != generation_) return;
          if (!s.ok()) {
            ++counters_.calls_failed;
            log_->warn("add_origin_table {} failed: {}", name, s.ToString());
            resync(Unavailable("retry"));
            return;
          }
          if (--*remaining == 0) {
            ready_ = true;
            log_->info("origin tables ebgp and ibgp registered with {}", options_.rib_target);
            start_taking();
            // Once the table has reached the RIB, say so: a RIB that restarted waits for it
            // before it gives its table to the FEA (docs/restart.md). Restarting, we say it
            // when our selection is done (graceful_restart_done()).
            if (!deferring_) {
              restart_done_pending_ = true;
              try_send_restart_done();
            }
          }
        });
  }
}

}  // namespace strata::bgp

namespace strata::bgp {

void RibIpcSink::graceful_restart_done() {
  if (deferring_) {
    deferring_ = false;
    log_->info("restart over: the routes selected now go to {}", options_.rib_target);
    start_taking();
  }
  restart_done_pending_ = true;
  try_send_restart_done();
}

void RibIpcSink::try_send_restart_done() {
  if (!restart_done_pending_) return;
  if (!ready_ || queued() > 0 || in_flight_ > 0 || (feed_ && feed_->resending())) {
    restart_done_timer_ =
        std::make_unique<boost::asio::steady_timer>(router_.io(), std::chrono::milliseconds(100));
    restart_done_timer_->async_wait(
        [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
          if (!ec && !alive.expired()) try_send_restart_done();
        });
    return;
  }
  restart_done_pending_ = false;
  rpb::RibClient client(router_, options_.rib_target);
  for (RibOrigin o : {RibOrigin::kEbgp, RibOrigin::kIbgp}) {
    rpb::GracefulRestartDoneRequest req;
    req.set_protocol(std::string(RibOriginName(o)));
    client.GracefulRestartDone(
        req, [this, name = req.protocol(), alive = std::weak_ptr<bool>(alive_)](
                 const Status& s, const rpb::GracefulRestartDoneReply& r) {
          if (alive.expired()) return;
          if (!s.ok()) {
            log_->warn("graceful_restart_done {}: {}", name, s.ToString());
            return;
          }
          log_->info("graceful_restart_done {}: {} stale routes withdrawn", name, r.swept());
        });
  }
}

}  // namespace strata::bgp
