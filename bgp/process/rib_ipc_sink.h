// RibIpcSink: the pipeline's RibSink over the RIB's route IPC (rib/1.0 add_routes,
// replace_routes, delete_routes on origin tables "ebgp" and "ibgp", both EGP, owned by us).
//
// No table of its own: like a peer's output (no Adj-RIB-Out), the sink keeps only the changes
// not yet sent. Each change says what the RIB holds for the prefix (the old route: everything
// given before has been sent or is queued) and what it should hold; a flush turns the queue
// into rounds of up to max_batch prefixes (the changes of a prefix in one round coalesced),
// each round up to six calls (delete, replace and add per table), with at most max_in_flight
// rounds outstanding (pipelined on one connection, so they apply in order). While more than
// 2 x max_batch x max_in_flight changes are queued the feed is paused (the pipeline's RIB
// branch then lags in the fanout's queue, which is cheaper per change). The RIB checks batches
// whole, so every call is computed against what it holds: a move between tables is a delete from
// one and an add to the other. RIB lifetime: nothing is sent until rib.<vr> is up and both tables
// are registered (each time it comes up: delete_origin_table then add_origin_table, so stale routes
// of an earlier incarnation of ours go; with graceful restart, see Options); changes meanwhile are
// dropped, and once registered the feed resends the whole table (RibFeed::resend), after which
// graceful_restart_done tells the RIB our table is complete (docs/restart.md). A failed call
// re-registers the tables the same way and has everything resent (counted as a resync). Routes
// for which `skip` is true (our own networks) are not given to the RIB. Threading: the
// io_context thread.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "bgp/pipeline/rib_sink.h"
#include "common/log.h"
#include "libipc/router.h"

namespace strata::bgp {

class RibIpcSink : public RibSink {
 public:
  struct Options {
    std::string rib_target;  // "rib.<vr>"
    std::string owner;       // our instance, "bgp.<vr>"
    size_t max_batch = 1000;
    size_t max_in_flight = 4;
    // RFC 4724: register the tables with graceful restart (the RIB keeps our routes stale when
    // we die). At the first registration the RIB is asked whether our tables hold stale routes
    // (we are restarting: they are kept, not deleted, and replaced as we re-announce) and
    // on_restart_state is told, once. While restarting, route selection is deferred (RFC 4724
    // 4.1): changes are dropped, and only when graceful_restart_done says every peer's
    // End-of-RIB is in (or the deferral timer ended) does the feed resend the table as selected
    // then, so the RIB and the kernel keep the stale routes and see only the final choices.
    bool graceful_restart = false;
    // With graceful_restart: how long the RIB keeps our routes stale after we die (our
    // advertised restart time, so peers and kernel agree). 0: the RIB's --restart-timeout.
    uint32_t restart_time_s = 0;
    // Told once, at the first registration, whether we restart: the RIB holds stale routes of
    // ours, or recovers the VR's forwarding state (rib/1.0/get_restart_state).
    std::function<void(bool restarting)> on_restart_state;
    // With graceful_restart, while restarting: how long our route selection is deferred at most
    // (BgpSpeaker's selection deferral time). Sent with the registration, so the RIB keeps our
    // stale routes until graceful_restart_done rather than sweeping them at the restart time.
    uint32_t selection_deferral_s = 0;
  };
  struct Counters {
    uint64_t routes_sent = 0;  // entries applied by the RIB
    uint64_t calls_sent = 0;
    uint64_t calls_failed = 0;
    uint64_t resyncs = 0;
  };
  using SkipFn = std::function<bool(const BgpRoute&)>;

  RibIpcSink(ipc::Router& router, Options options, SkipFn skip = nullptr);
  ~RibIpcSink() override;

  void add_route(RibOrigin origin, const BgpRouteRef& route,
                 const RibMultipath& multipath) override;
  void replace_route(RibOrigin origin, const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     const RibMultipath& multipath) override;
  void delete_route(RibOrigin origin, const BgpRouteRef& route) override;
  void end_batch() override { flush(); }
  void attach(RibFeed* feed) override {
    feed_ = feed;
    feed_paused_ = false;  // a new feed is not paused
  }
  void detach(RibFeed* feed) override {
    if (feed_ != feed) return;
    feed_ = nullptr;
    feed_paused_ = false;
  }

  // Finder lifetime event of the RIB instance.
  void rib_event(bool alive);
  // Every route given goes (the pipeline is being rebuilt): the tables are registered afresh
  // (while restarting, the stale routes stay: nothing was sent).
  void clear();
  // The restart is over: the feed resends the table as selected now, and once all of it has
  // reached the RIB, rib/1.0 graceful_restart_done for both tables, so routes not re-announced
  // go.
  void graceful_restart_done();
  // The restart time changed (configuration): the tables are registered again with it.
  void set_restart_time(uint32_t seconds);
  // For the registrations to come (on_restart_state may call it before the first one).
  void set_selection_deferral(uint32_t seconds) { options_.selection_deferral_s = seconds; }
  // Restarting: changes wait for graceful_restart_done (see Options::graceful_restart).
  bool deferring() const { return deferring_; }

  bool ready() const { return ready_; }
  // Changes taken and not yet sent.
  size_t queued() const { return queue_.size() - head_; }
  size_t in_flight() const { return in_flight_; }
  size_t installed() const { return sent_count_; }
  const Counters& counters() const { return counters_; }

 private:
  // What the RIB holds, or should hold, for a prefix: its origin table, next hop and metric.
  struct Want {
    RibOrigin origin = RibOrigin::kEbgp;
    IpAddr nexthop;
    uint32_t metric = 0;
    std::vector<IpAddr> multipath;  // the other members' next hops
    // What the RIB holds: its multipath next hops are not known (RibMultipath), so it never
    // equals what it should hold and a replace is sent.
    bool multipath_unknown = false;
    friend bool operator==(const Want&, const Want&) = default;
  };
  // A change of one prefix: what the RIB holds (after the changes queued before) and what it
  // should.
  struct Change {
    IpPrefix prefix;
    std::optional<Want> had;
    std::optional<Want> want;
  };
  // What the RIB gets for `route` (nothing for our own networks and routes without next hop).
  std::optional<Want> WantOf(RibOrigin origin, const BgpRoute& route,
                             const RibMultipath& multipath = {}) const;
  // Changes are taken while registered and not deferring (else the resend brings them).
  bool taking() const { return ready_ && !deferring_; }
  void change(const IpPrefix& prefix, std::optional<Want> had, std::optional<Want> want);
  // Drops the pending changes and resumes the feed (what the RIB holds is unknown or gone).
  void forget();
  // Changes are taken again: the feed resends everything.
  void start_taking();
  // Sends one round if the window allows and posts itself for the next: one round per event
  // loop turn, so a peer's update never waits behind max_in_flight rounds built in one go.
  void flush();
  bool can_send() const;
  void send_round();
  void register_tables();
  void call_done(uint64_t gen, const Status& s, uint32_t applied, const char* what);
  void resync(const Status& why);
  void ask_restart_state();
  void add_tables(bool delete_first);
  void try_send_restart_done();

  ipc::Router& router_;
  Options options_;
  SkipFn skip_;
  std::shared_ptr<spdlog::logger> log_;
  RibFeed* feed_ = nullptr;
  bool feed_paused_ = false;
  // The changes taken, in order; a round coalesces those of a prefix (round_, merged_: kept for
  // their capacity). No map across rounds: a queue's inserts and erases fill a hash table with
  // tombstones, and a prefix changed again after its round goes in the next one.
  // From head_ on (a vector, not a deque: no block allocation every few changes).
  std::vector<Change> queue_;
  size_t head_ = 0;
  absl::flat_hash_map<IpPrefix, uint32_t, std::hash<IpPrefix>> round_;
  std::vector<Change> merged_;
  size_t sent_count_ = 0;  // prefixes the RIB holds from us
  bool rib_up_ = false;
  bool ready_ = false;
  bool flush_posted_ = false;
  size_t in_flight_ = 0;     // calls outstanding
  uint64_t generation_ = 0;  // bumped on RIB death and resync: older replies are ignored
  Counters counters_;
  bool registered_once_ = false;
  bool restart_done_pending_ = false;
  bool deferring_ = false;
  std::unique_ptr<boost::asio::steady_timer> restart_done_timer_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::bgp
