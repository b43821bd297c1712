// RibIpcSink: the pipeline's RibSink over the RIB's route IPC (rib/1.0 add_routes,
// replace_routes, delete_routes on origin tables "ebgp" and "ibgp", both EGP, owned by us).
//
// The sink keeps what the RIB should hold per prefix (origin table, next hop, metric) and what it
// has been sent. Changes are coalesced per prefix until end_batch; a flush turns the dirty
// prefixes into up to max_batch-entry calls (delete, replace and add per table), with at most
// max_in_flight rounds outstanding (pipelined on one connection, so they apply in order).
// The RIB checks batches whole, so every call is computed against the sent state: a move between
// tables is a delete from one and an add to the other.
// RIB lifetime: nothing is sent until rib.<vr> is up and both tables are registered (each time
// it comes up: delete_origin_table then add_origin_table, so stale routes of an earlier
// incarnation of ours go; with graceful restart, see Options); then every wanted route is sent
// again. A failed call re-registers the tables the same way and re-sends everything (counted as a
// resync). Routes for which `skip` is true (our own networks) are not given to the RIB. Threading:
// the io_context thread.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "bgp/pipeline/rib_sink.h"
#include "common/log.h"
#include "libipc/router.h"
#include "rib/route_trie.h"

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
    // 4.1): changes are queued (coalesced per prefix) and reach the RIB only when
    // graceful_restart_done says every peer's End-of-RIB is in (or the deferral timer ended),
    // so the RIB and the kernel keep the stale routes and see only the final choices.
    bool graceful_restart = false;
    // With graceful_restart: how long the RIB keeps our routes stale after we die (our
    // advertised restart time, so peers and kernel agree). 0: the RIB's --restart-timeout.
    uint32_t restart_time_s = 0;
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

  void add_route(RibOrigin origin, const BgpRouteRef& route) override;
  void replace_route(RibOrigin origin, const BgpRouteRef& old_route,
                     const BgpRouteRef& new_route) override;
  void delete_route(RibOrigin origin, const BgpRouteRef& route) override;
  void end_batch() override { flush(); }
  void prefetch(std::span<const IpPrefix> prefixes) override { routes_.warm(prefixes); }

  // Finder lifetime event of the RIB instance.
  void rib_event(bool alive);
  // Every wanted route goes (the pipeline is being rebuilt).
  void clear();
  // The restart is over: the deferred changes are sent, and once everything queued has reached
  // the RIB, rib/1.0 graceful_restart_done for both tables, so routes not re-announced go.
  void graceful_restart_done();
  // The restart time changed (configuration): the tables are registered again with it.
  void set_restart_time(uint32_t seconds);
  // For the registrations to come (on_restart_state may call it before the first one).
  void set_selection_deferral(uint32_t seconds) { options_.selection_deferral_s = seconds; }
  // Restarting: changes wait for graceful_restart_done (see Options::graceful_restart).
  bool deferring() const { return deferring_; }

  bool ready() const { return ready_; }
  size_t queued() const { return dirty_.size(); }
  size_t in_flight() const { return in_flight_; }
  size_t installed() const { return sent_count_; }
  const Counters& counters() const { return counters_; }

 private:
  // What the RIB should hold for a prefix: its origin table, next hop and metric. The next hop
  // is an index into nexthops_ (a full table has a few hundred distinct next hops for a million
  // prefixes), so a slot is 16 bytes instead of two 20-byte addresses and their options.
  struct Want {
    RibOrigin origin = RibOrigin::kEbgp;
    uint32_t nexthop = 0;  // NexthopIndex handle
    uint32_t metric = 0;
    friend bool operator==(const Want&, const Want&) = default;
  };
  // One prefix: what the RIB should hold and what it has been sent; dirty while queued.
  // 16 bytes: the flags ride in the top bits of the next hop handles (at most 2^29 distinct next
  // hops; a slot of its own for them made it 20, 4 MB more at a million prefixes).
  class Slot {
   public:
    std::optional<Want> wanted() const { return get(wanted_); }
    std::optional<Want> sent() const { return get(sent_); }
    bool dirty() const { return wanted_.nexthop & kDirty; }
    void set_dirty(bool d) {
      wanted_.nexthop = d ? wanted_.nexthop | kDirty : wanted_.nexthop & ~kDirty;
    }
    // The previous want's next hop reference is the caller's to drop.
    void set_wanted(const std::optional<Want>& w) { put(wanted_, w); }
    void set_sent(const std::optional<Want>& w) { put(sent_, w); }

   private:
    static constexpr uint32_t kHas = uint32_t{1} << 31;
    static constexpr uint32_t kIbgp = uint32_t{1} << 30;
    static constexpr uint32_t kDirty = uint32_t{1} << 29;  // in wanted_ only
    static constexpr uint32_t kHandle = kDirty - 1;
    struct Packed {
      uint32_t nexthop = 0;  // handle and flags
      uint32_t metric = 0;
    };
    static std::optional<Want> get(const Packed& p) {
      if (!(p.nexthop & kHas)) return std::nullopt;
      return Want{(p.nexthop & kIbgp) ? RibOrigin::kIbgp : RibOrigin::kEbgp, p.nexthop & kHandle,
                  p.metric};
    }
    static void put(Packed& p, const std::optional<Want>& w) {
      const uint32_t keep = p.nexthop & kDirty;
      if (!w) {
        p = Packed{keep, 0};
        return;
      }
      if (w->nexthop > kHandle) std::abort();  // more next hops than a slot can name
      p = Packed{keep | kHas | (w->origin == RibOrigin::kIbgp ? kIbgp : 0) | w->nexthop, w->metric};
    }

    Packed wanted_;
    Packed sent_;
  };
  static_assert(sizeof(Slot) == 16);
  // Next hop addresses by counted handle: one entry per distinct next hop in use.
  class NexthopIndex {
   public:
    uint32_t Ref(const IpAddr& a);
    void AddRef(uint32_t handle) { ++refs_[handle]; }
    void Unref(uint32_t handle);
    const IpAddr& at(uint32_t handle) const { return addrs_[handle]; }
    size_t size() const { return index_.size(); }

   private:
    std::vector<IpAddr> addrs_;
    std::vector<uint32_t> refs_;
    std::vector<uint32_t> free_;
    absl::flat_hash_map<IpAddr, uint32_t, std::hash<IpAddr>> index_;
  };
  void unref(const std::optional<Want>& w) {
    if (w) nexthops_.Unref(w->nexthop);
  }
  // `want` carries a next hop reference, which the slot takes over.
  void set_want(const IpPrefix& prefix, std::optional<Want> want);
  void mark_dirty(const IpPrefix& prefix, Slot& slot);
  // Every sent route counts as not sent (the RIB's state is unknown or gone).
  void forget_sent();
  // Drops the sent (or wanted) side of every slot, queueing the slots that had one.
  void drop_all(bool sent_side);
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
  // One trie (slab nodes, no malloc per prefix) for both states and a FIFO of the dirty
  // prefixes (each queued once) with their slots (slab values do not move, and a dirty slot is
  // erased only when taken off the FIFO), so a round does not descend the trie again.
  rib::RouteTrie<Slot> routes_;
  NexthopIndex nexthops_;
  std::deque<std::pair<IpPrefix, Slot*>> dirty_;
  size_t wanted_count_ = 0;
  size_t sent_count_ = 0;
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
