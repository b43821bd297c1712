// NexthopResolverStage: annotates one branch's routes with the IGP metric of their next hop.
//
// Why a stage of its own (XORP paper 5.1.1): the answers come asynchronously from the RIB, and
// the decision process must not wait. Routes whose next hop is not answered yet are held here
// (not sent, looked up as null) and sent once the NexthopCache reports an answer. A route whose
// next hop is unreachable (or that has none) is unusable: it is held, not passed to decision,
// and sent as soon as an answer makes it reachable. The zero address as next hop means "ourselves"
// (routes the speaker originates): such a route is usable at once, with metric 0.
// When the cache reports a change in a subnet, every route with a next hop inside is
// re-evaluated and replaced (or withdrawn) downstream if its annotation changed.
// Annotation: a route is annotated in place the first time it passes (BgpRoute::annotated), so
// in the steady state the route sent is PeerIn's object itself; only a changed answer for a route
// already sent makes an annotated copy (sharing the attribute set) for the replace downstream.
// State: per prefix one 40-byte entry in a compact trie (slab nodes, no per-entry malloc): the
// route from upstream (a reference to PeerIn's object, not a copy), what was sent downstream
// (nothing, that same object, or, rarely, a copy kept in a side table), and its links in the
// chain of entries with the same next hop. The chains replace an index next hop -> set of
// prefixes: no hash set of 1M prefixes (40 MB at a full table) and no hashing per route; the
// cache counts one user per next hop and resolver (the chain's head), not one per route.
// Threading: single-threaded.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/nexthop_cache.h"
#include "rib/route_trie.h"

namespace strata::bgp {

class NexthopResolverStage : public BgpStage, public NexthopClient {
 public:
  struct Counters {
    uint64_t held = 0;          // routes waiting for a first answer
    uint64_t unresolvable = 0;  // routes held because their next hop is unreachable
    uint64_t reevaluated = 0;   // annotations changed by later answers
  };

  NexthopResolverStage(std::string label, BgpStage* parent, NexthopCache& cache);
  ~NexthopResolverStage() override;

  std::string name() const override { return "nexthop:" + label_; }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;
  BgpRouteRef lookup_route(const IpPrefix& prefix) const override;
  void prefetch(std::span<const IpPrefix> prefixes) override;
  void replace_parent(BgpStage* old_parent, BgpStage* new_parent) override;

  void nexthops_changed(const IpPrefix& region) override;

  // Recomputed on demand (held and unresolvable are current counts).
  Counters counters() const;
  size_t size() const { return entries_.size(); }

 private:
  enum class Sent : uint8_t {
    kNothing,  // held: nothing sent downstream
    kIn,       // `in` itself (annotated in place)
    kCopy,     // another route, in copies_: an annotated copy or an earlier input
  };
  // One prefix's state: the input as received from upstream, what was sent for it, and the
  // entry's links in the chain of entries with the input's next hop (slab values never move).
  // The input and the sent state share one word (a route is 8-byte aligned: three low bits
  // are free), so an entry is 16 bytes (with 4-byte links) instead of 32: 16 MB at a million
  // routes.
  static constexpr uint32_t kNoEntry = rib::RouteTrie<int>::kNoHandle;
  class Entry {
   public:
    explicit Entry(const BgpRouteRef& in) : bits_(Word(in.get())) {
      if (in) intrusive_ptr_add_ref(in.get());
    }
    Entry(Entry&& o) noexcept : prev(o.prev), next(o.next), bits_(std::exchange(o.bits_, 0)) {}
    Entry(const Entry&) = delete;
    Entry& operator=(const Entry&) = delete;
    Entry& operator=(Entry&&) = delete;
    ~Entry() {
      if (route()) intrusive_ptr_release(route());
    }

    const BgpRoute& in() const { return *route(); }
    BgpRouteRef in_ref() const { return BgpRouteRef(route()); }
    bool is_in(const BgpRouteRef& r) const { return r.get() == route(); }
    // REQUIRES: in is not null.
    void set_in(const BgpRouteRef& in) {
      const BgpRouteRef old(route(), /*add_ref=*/false);  // released on return
      intrusive_ptr_add_ref(in.get());
      bits_ = Word(in.get()) | (bits_ & kTags);
    }
    Sent sent() const { return static_cast<Sent>(bits_ & kSentBits); }
    void set_sent(Sent s) { bits_ = (bits_ & ~kSentBits) | static_cast<uintptr_t>(s); }
    // kCopy: made from the input (not an earlier input).
    bool sent_from_in() const { return bits_ & kFromIn; }
    void set_sent_from_in(bool on) { bits_ = on ? (bits_ | kFromIn) : (bits_ & ~kFromIn); }

    // Handles (RouteTrie::at) of the neighbours in the chain: 4 bytes a link, not 8.
    uint32_t prev = kNoEntry;
    uint32_t next = kNoEntry;

   private:
    static constexpr uintptr_t kSentBits = 3;
    static constexpr uintptr_t kFromIn = 4;
    static constexpr uintptr_t kTags = kSentBits | kFromIn;
    static_assert(alignof(BgpRoute) > kTags);
    static uintptr_t Word(const BgpRoute* r) { return reinterpret_cast<uintptr_t>(r); }
    const BgpRoute* route() const { return reinterpret_cast<const BgpRoute*>(bits_ & ~kTags); }
    uintptr_t bits_;
  };
  static_assert(sizeof(Entry) == 16);
  // A chain of entries with one next hop; `count` entries, counted once as a cache user.
  struct Chain {
    uint32_t first = kNoEntry;
    size_t count = 0;
  };
  static std::optional<IpAddr> NexthopOf(const BgpRoute& r);
  // `in` annotated as resolvable with `metric`: `in` itself when it was never annotated (done in
  // place) or already carries that annotation, else a copy.
  static BgpRouteRef Annotated(const BgpRouteRef& in, uint32_t metric);
  // Links e into (out of) the chain of its route's next hop, if it has one.
  // h is e's handle in entries_.
  void index(uint32_t h, Entry& e);
  void unindex(Entry& e);
  // Unlinks e from its chain; returns the next hop whose last entry it was, for the caller to
  // release from the cache (remove_user).
  std::optional<IpAddr> unlink(Entry& e);
  // What was sent downstream for e (null while held).
  BgpRouteRef sent_of(const Entry& e) const;
  // Records `sent`, made from e.in, as what e sent (null: nothing).
  void set_sent(Entry& e, BgpRouteRef sent);
  // Recomputes the annotation of the prefix and sends the difference downstream.
  void reevaluate(Entry& e);

  std::string label_;
  BgpStage* parent_;
  NexthopCache& cache_;
  rib::RouteTrie<Entry> entries_;
  // Sent routes other than the entry's own input (after a changed answer or a replace).
  absl::flat_hash_map<IpPrefix, BgpRouteRef, std::hash<IpPrefix>> copies_;
  // Chains by next hop (a full table has a few hundred). Routes without a next hop are never
  // re-evaluated and are not chained.
  std::map<IpAddr, Chain> by_nexthop_;
  // The chain used last: consecutive routes (one UPDATE's) mostly share a next hop.
  std::map<IpAddr, Chain>::iterator last_chain_ = by_nexthop_.end();
  uint64_t reevaluated_ = 0;
};

}  // namespace strata::bgp
