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
// State: per prefix the route from upstream (a reference to PeerIn's object, not a copy) and
// the route sent downstream (usually the same object), in a compact
// trie (slab nodes, no per-entry malloc); and an index next hop -> prefixes (flat hash sets).
// Threading: single-threaded.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "absl/container/flat_hash_set.h"
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
  void replace_parent(BgpStage* old_parent, BgpStage* new_parent) override;

  void nexthops_changed(const IpPrefix& region) override;

  // Recomputed on demand (held and unresolvable are current counts).
  Counters counters() const;
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    BgpRouteRef in;             // as received from upstream
    BgpRouteRef sent;           // annotated copy sent downstream, or null while held
    bool sent_from_in = false;  // `sent` was made from `in` (not from an earlier input)
  };
  static std::optional<IpAddr> NexthopOf(const BgpRoute& r);
  // `in` annotated as resolvable with `metric`: `in` itself when it was never annotated (done in
  // place) or already carries that annotation, else a copy.
  static BgpRouteRef Annotated(const BgpRouteRef& in, uint32_t metric);
  void index(const BgpRouteRef& r);
  void unindex(const BgpRouteRef& r);
  // Recomputes the annotation of the prefix and sends the difference downstream.
  void reevaluate(Entry& e);

  std::string label_;
  BgpStage* parent_;
  NexthopCache& cache_;
  rib::RouteTrie<Entry> entries_;
  // Hash sets: a full table puts most prefixes under a few next hops, and a tree of IpPrefix
  // costs a memcmp per level on every add and delete. Flat (open addressing): 24 bytes a prefix
  // instead of a 56-byte node and a bucket. Routes without a next hop are never re-evaluated and
  // are not indexed.
  std::map<IpAddr, absl::flat_hash_set<IpPrefix, std::hash<IpPrefix>>> by_nexthop_;
  uint64_t reevaluated_ = 0;
};

}  // namespace strata::bgp
