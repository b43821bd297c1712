// NexthopResolverStage: annotates one branch's routes with the IGP metric of their next hop.
//
// Why a stage of its own (XORP paper 5.1.1): the answers come asynchronously from the RIB, and
// the decision process must not wait. Routes whose next hop is not answered yet are held here
// (not sent, looked up as null) and sent once the NexthopCache reports an answer. A route whose
// next hop is unreachable (or that has none) is unusable: it is not passed to decision, and is
// sent as soon as an answer makes it reachable. The zero address as next hop in a route of the
// speaker's own pseudo-peer (PeerInfo::local) means "ourselves": such a route is usable at once,
// with metric 0; in any other route it is unusable.
// RFC 4271 6.3: a next hop that is one of our own addresses, or the network or broadcast address
// of a connected IPv4 subnet, is unusable, and so is one from a single-hop external peer
// (PeerInfo::directly_connected) that is neither the peer's own address nor on a connected
// subnet. The RIB's answer says
// whether the route to the next hop is connected, and our address there (NexthopAnswer).
//
// No table per prefix (the branch's routes are stored once, in PeerIn). What was sent for a
// prefix is derived: the parent's route (lookup_route upstream; by the contract, what the parent
// sent here) annotated with the answer *as sent* for its next hop. That answer is kept per next
// hop (a full table has a few hundred), with a count of the routes using it (one cache user per
// next hop and resolver) and, while the first answer is pending, the list of routes waiting.
//  - First answer: the waiting routes whose parent's route still has that next hop are sent, in
//    prefix order; nothing else changes.
//  - A changed answer (the IGP moved): a walk visits the parent's prefixes in order (`walk`, in
//    background slices when a scheduler is set, like a policy change's re-filtering) and
//    re-annotates the routes of the next hops that changed. Until the walk passes a prefix, its
//    route keeps the old answer, for messages too: lookups, adds and deletes of a prefix the walk
//    has not reached use the old answer, those it has passed the new one. An answer changing
//    again during a walk waits for the next walk (started when this one ends).
// Annotation: a route is annotated in place the first time it passes (BgpRoute::annotated), so
// in the steady state the route sent is PeerIn's object itself; a route sent with another
// annotation is a copy (sharing the attribute set), kept in a side table so lookups answer the
// same object. This is BIRD's way (routes re-evaluated by walking the table on an IGP change)
// rather than XORP's (an index next hop -> routes): it saves a table of a million entries for
// an event that is rare and already long.
// Threading: single-threaded.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/nexthop_cache.h"
#include "common/task_scheduler.h"

namespace strata::bgp {

class NexthopResolverStage : public BgpStage, public NexthopClient {
 public:
  struct Counters {
    uint64_t held = 0;          // routes waiting for a first answer
    uint64_t unresolvable = 0;  // routes not passed because their next hop is unreachable
    uint64_t reevaluated = 0;   // annotations changed by later answers
  };
  // The prefixes the parent may hold a route for.
  using WalkFn = PrefixWalk;
  struct Background {
    TaskScheduler* scheduler = nullptr;  // null: walks run to the end at once
    size_t slice = 200;                  // prefixes visited per slice; REQUIRES: > 0
    std::function<bool()> throttle;      // while true, slices do nothing (stay scheduled)
    std::string name = "nexthop-walk";
  };

  NexthopResolverStage(std::string label, BgpStage* parent, NexthopCache& cache, WalkFn walk);
  ~NexthopResolverStage() override;

  void set_background(Background background) { background_ = std::move(background); }

  std::string name() const override { return "nexthop:" + label_; }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;
  BgpRouteRef lookup_route(const IpPrefix& prefix) const override;
  void replace_parent(BgpStage* old_parent, BgpStage* new_parent) override;

  void nexthops_changed(const IpPrefix& region) override;

  // What the stage does with the parent's route for `prefix`, as last sent: kNone (no route),
  // kPending (waiting for the RIB's first answer), kUnreachable (held
  // back: its next hop does not resolve, or it has none) or kReachable (passed on). For operators'
  // views.
  enum class State { kNone, kPending, kUnreachable, kReachable };
  State state(const IpPrefix& prefix) const;

  // Held and unresolvable are current counts (unresolvable by the answers as last settled).
  Counters counters() const;
  // Routes received from upstream and not deleted.
  size_t size() const { return routes_; }
  bool walking() const { return walking_; }
  // Routes sent with another annotation than their own (copies in the side table).
  size_t copies() const { return copies_.size(); }

 private:
  // An answer as the stage applies it.
  struct Answer {
    enum Kind : uint8_t { kPending, kUnreachable, kReachable };
    Kind kind = kPending;
    uint32_t metric = 0;
    bool connected = false;  // reached over a connected subnet of ours
    // nh is our own address, or the network or broadcast address of its connected subnet: no
    // peer's route may use it (our own routes may).
    bool not_a_peer = false;
    // The cache's answer applied to next hop nh.
    static Answer Of(const IpAddr& nh, const std::optional<NexthopAnswer>& a);
    bool operator==(const Answer&) const = default;
  };
  struct Nexthop {
    size_t count = 0;  // routes from upstream with this next hop
    Answer sent;       // the answer routes were sent with (those the walk has not passed)
    Answer target;     // while `walking`: the answer for the prefixes the walk has passed
    bool walking = false;
    // While sent is kPending: routes waiting for the answer (stale ones are skipped then).
    std::vector<BgpRouteRef> waiting;
  };
  static std::optional<IpAddr> NexthopOf(const BgpRoute& r);
  static bool IsSelf(const BgpRoute& r);
  // Whether r may be sent under answer a (the RFC 4271 6.3 rules above).
  static bool Usable(const BgpRoute& r, const Answer& a);

  // The answer route `r` (the parent's route for its prefix) was sent with; kPending for
  // unchained routes without a next hop (never sent), kReachable/0 for our own.
  Answer sent_answer(const BgpRoute& r) const;
  // The answer routes of n were sent with at prefix p (the walk's target once it passed p).
  Answer AnswerAt(const Nexthop& n, const IpPrefix& p) const;
  // What was (or is to be) sent for r under answer a: null unless reachable (and, from a
  // single-hop external peer, connected); r itself when its own annotation is a's, else the copy
  // in copies_ (made if needed).
  BgpRouteRef annotated(const BgpRouteRef& r, const Answer& a) const;
  // Counts a route with next hop nh (NexthopOf(r); null: none), registering nh with the cache
  // for the first one; returns nh's state (null without one).
  Nexthop* chain(const BgpRoute& r, const IpAddr* nh);
  // Uncounts it; returns the next hop whose last route it was, for the caller to release.
  std::optional<IpAddr> unchain(const BgpRoute& r);
  // What to send for a route just received (recording it as waiting if its answer is pending).
  BgpRouteRef receive(const BgpRouteRef& r);
  // Forgets the copy kept for p unless it is `out`, what was just sent for p.
  void settle(const IpPrefix& p, const BgpRouteRef& out);
  // Waiting routes: by prefix, one each.
  static void SortUnique(std::vector<BgpRouteRef>& routes);
  // Drops the waiting routes whose prefix no longer has a route with next hop nh upstream.
  void compact_waiting(const IpAddr& nh, Nexthop& n);

  // Answers arriving while a message is handled are applied after it (see nexthops_changed).
  void begin_message() { ++in_message_; }
  void end_message();
  void apply(const IpPrefix& region);
  void release_waiting(const IpAddr& nh, Nexthop& n, const Answer& a);
  // Marks the next hops whose answer changed as walking (false: none did).
  bool prepare_walk();
  void start_walk();
  bool walk_slice(size_t budget);
  void visit(const IpPrefix& p);
  void finish_walk();

  std::string label_;
  BgpStage* parent_;
  NexthopCache& cache_;
  WalkFn walk_;
  Background background_;
  std::map<IpAddr, Nexthop> nexthops_;
  std::map<IpAddr, Nexthop>::iterator last_ = nexthops_.end();  // consecutive routes share one
  size_t routes_ = 0;
  size_t unchained_ = 0;  // routes without a usable next hop field (not ours): never sent
  // Routes sent with an annotation other than their own, by prefix.
  mutable absl::flat_hash_map<IpPrefix, BgpRouteRef, std::hash<IpPrefix>> copies_;
  int in_message_ = 0;
  std::vector<IpPrefix> deferred_;  // regions answered during a message
  bool walking_ = false;
  std::optional<IpPrefix> cursor_;  // the walk has passed every prefix <= cursor
  uint64_t reevaluated_ = 0;
  TaskHandle task_;  // last: cancelled before the rest goes
};

}  // namespace strata::bgp
