// BgpRoute and PeerInfo: the route value that flows through the BGP pipeline.
//
// A route is a prefix, a shared immutable AttributeSet (interned by the session), the peer it
// came from, and data derived on the way (IGP metric and resolvability of its next hop, set by the
// nexthop resolver). Routes are immutable and shared (`BgpRouteRef`); a stage that changes
// something makes a new route pointing at the same attribute set where it can.
// PeerInfo describes one session of a peer: a new one is made each time the peer comes up (the
// router id comes from its OPEN), so routes of an old session still in a deletion stage keep
// theirs. `id` is the pipeline's handle for the peer and stays the same across sessions.
// A route counts its references itself (boost::intrusive_ptr, not std::shared_ptr): a million
// routes then take one pooled 40-byte block each instead of 80 with a control block, every
// reference held by a stage's table is 8 bytes instead of 16, and copying a reference is a plain
// increment, not an atomic one (the pipeline lives on one thread).
// Threading: immutable values; references are not thread-safe (one thread at a time).
#pragma once

#include <boost/intrusive_ptr.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "bgp/rpki/rov_state.h"
#include "bgp/wire/attribute_set.h"
#include "common/ip_addr.h"
#include "common/ip_prefix.h"

namespace strata::bgp {

using PeerId = uint32_t;

// Degree of preference of a route without LOCAL_PREF (RFC 4271 5.1.5, common default).
inline constexpr uint32_t kDefaultLocalPref = 100;

struct PeerInfo {
  PeerId id = 0;
  uint32_t peer_as = 0;
  IpAddr router_id;  // BGP Identifier from the peer's OPEN
  IpAddr address;    // the peer's address (tie-break of last resort)
  bool ibgp = false;
  bool rr_client = false;           // a route reflection client of ours (RFC 4456)
  bool confed = false;              // in another member AS of our confederation (RFC 5065)
  bool local = false;               // the speaker's own pseudo-peer (PipelinePeerConfig::local)
  bool directly_connected = false;  // single-hop external (PipelinePeerConfig)
  // Inside our confederation (iBGP or confederation-external): ranks and installs like iBGP.
  bool internal() const { return ibgp || confed; }

  // References (boost::intrusive_ptr: 8 bytes in every route, where a std::shared_ptr takes 16;
  // one thread at a time, like the routes). A copy starts with none.
  struct RefCount {
    RefCount() = default;
    RefCount(const RefCount& /*other*/) {}
    RefCount& operator=(const RefCount& /*other*/) { return *this; }
    mutable uint32_t n = 0;
  };
  RefCount refs{};
  friend void intrusive_ptr_add_ref(const PeerInfo* p) { ++p->refs.n; }
  friend void intrusive_ptr_release(const PeerInfo* p) {
    if (--p->refs.n == 0) delete p;
  }
};
using PeerRef = boost::intrusive_ptr<const PeerInfo>;
// A session's description being made (fields still to set); converts to PeerRef.
using PeerInfoPtr = boost::intrusive_ptr<PeerInfo>;
inline PeerInfoPtr NewPeerInfo(PeerInfo info = {}) { return PeerInfoPtr(new PeerInfo(info)); }

struct BgpRoute {
  BgpRoute() : refs_(0), resolvable(false), annotated(false), rov(0) {}
  // A copy has the same fields and derived data, and no references yet.
  BgpRoute(const BgpRoute& o)
      : attrs(o.attrs),
        peer(o.peer),
        prefix(o.prefix),
        refs_(0),
        resolvable(o.resolvable),
        annotated(o.annotated),
        rov(o.rov),
        igp_metric(o.igp_metric) {}
  BgpRoute& operator=(const BgpRoute&) = delete;

  AttributeSetPtr attrs;
  PeerRef peer;
  IpPrefix prefix;

 private:
  // The references to this route: 12 bits, sharing a 16-bit word with the fields below so
  // that the route fits 40 bytes (the references of 8 bytes each, the 18-byte prefix, this
  // word and the metric). A route is referenced by a few tables and queue entries and at most
  // once per peer's pending batch, far below the limit (4095); a count that reaches it anyway
  // saturates: the route is then never freed (a 40-byte leak), as the kernel's refcount_t
  // does, rather than freed while still in use.
  mutable uint16_t refs_ : 12;

 public:
  // Derived by the nexthop resolver; meaningless above it. Set once: the resolver annotates a
  // route in place the first time it passes it on (nothing below the resolver has seen it yet,
  // and nothing above reads these), so a route is stored once, not copied per stage; a later
  // different answer gets a copy. After `annotated` they never change.
  mutable uint16_t resolvable : 1;
  mutable uint16_t annotated : 1;
  // Route origin validation state (a RovState), set by PeerIn as the route enters the pipeline
  // (before any other stage has seen it); a later VRP change makes a copy with the new state
  // (PeerIn::Revalidate). Read it with rov_state().
  mutable uint16_t rov : 2;
  mutable uint32_t igp_metric = 0;

  static constexpr uint16_t kSaturated = (1u << 12) - 1;
  uint16_t use_count() const { return refs_; }

  const PathAttributes& path() const { return attrs->attrs(); }
  RovState rov_state() const { return static_cast<RovState>(rov); }
  // "10.0.0.0/8 from 192.0.2.1 [origin igp as-path ...]".
  std::string ToString() const;

  friend void intrusive_ptr_add_ref(const BgpRoute* r) {
    if (r->refs_ != kSaturated) ++r->refs_;
  }
  friend void intrusive_ptr_release(const BgpRoute* r) {
    if (r->refs_ == kSaturated) return;
    if (--r->refs_ == 0) Free(r);
  }

 private:
  static void Free(const BgpRoute* r);
};
static_assert(sizeof(BgpRoute) <= 40, "a route is one 40-byte pooled block");
using BgpRouteRef = boost::intrusive_ptr<const BgpRoute>;
// A route being made (fields still to set); converts to BgpRouteRef.
using BgpRoutePtr = boost::intrusive_ptr<BgpRoute>;

// A new route from the route pool: empty, or a copy of `r` (its derived data too).
BgpRoutePtr NewRoute();
BgpRoutePtr NewRoute(const BgpRoute& r);
BgpRouteRef MakeRoute(const IpPrefix& prefix, AttributeSetPtr attrs, PeerRef peer);
// A copy of `r` with other attributes (derived data kept).
BgpRouteRef WithAttrs(const BgpRoute& r, AttributeSetPtr attrs);

// True if two routes carry the same prefix, peer session and equal attributes (derived data not
// compared): what a deterministic stage sends again when it recomputes a route for a delete.
bool SameRoute(const BgpRoute& a, const BgpRoute& b);

}  // namespace strata::bgp
