// RouteAttrs and SharedAttrs: everything a route says besides its prefix, interned.
//
// Why: a million routes from one protocol share a handful of attribute sets (the same few next
// hops, metrics, tags, interface; protocol, kind and admin distance are the table's). Stored in
// each route they took 48 bytes a route; interned, a route holds a 4-byte SharedAttrs and each
// distinct set is stored once, with a count of the routes holding it, and freed with the last.
// ExtInt's resolution is an attribute too: routes resolved through one IGP route share it.
//
// The pool is process-wide (the RIB also runs in-process, one instance per thread, in tests):
// interning, copying and dropping a handle take its lock; reading attributes takes none (records
// live in chunks that never move, published before their index is handed out). Moves are free.
// Interned sets are equal when their fields are, resolutions compared by identity; RouteAttrs'
// operator== compares resolutions by value.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include "common/ip_addr.h"
#include "common/route_type.h"
#include "rib/multipath.h"
#include "rib/resolution.h"
#include "rib/symbol.h"

namespace strata::rib {

// IGP routes may resolve the nexthops of EGP routes; EGP routes never resolve anything.
enum class ProtocolKind : uint8_t { kIgp, kEgp };

std::string_view ProtocolKindName(ProtocolKind k);  // "igp" / "egp"

struct RouteAttrs {
  Symbol protocol;
  // Outgoing interface name if the protocol knows it (connected routes do); may be empty. A route
  // whose nexthop is the zero address goes out of it with no gateway (an interface route).
  Symbol ifname;
  // Set by ExtInt on an EGP route whose nexthop was resolved; null otherwise.
  ResolutionRef resolution;
  // The nexthop as the protocol gave it (for BGP the peer's NEXT_HOP attribute).
  IpAddr nexthop;
  uint32_t metric = 0;
  // Stamped by the origin table; lower is preferred.
  uint32_t admin_distance = 0;
  uint32_t tag = 0;
  ProtocolKind kind = ProtocolKind::kIgp;
  // A route that drops (not unicast) has no next hop (its nexthop is the zero address of its
  // family) and no interface.
  RouteType type = RouteType::kUnicast;
  // The protocol gave this route its own admin distance (a floating static route): the origin
  // table does not stamp its own over it.
  bool own_distance = false;
  // The share of flows `nexthop` gets among the route's next hops (1..256; multipath hops have
  // their own).
  uint16_t weight = 1;
  // Equal-cost multipath: the next hops besides `nexthop` (null: none). Compared and interned by
  // content, so the routes of one set share one attribute set.
  MultipathRef multipath;

  // Field by field; resolutions compare by value.
  friend bool operator==(const RouteAttrs& a, const RouteAttrs& b);
};

namespace attrs_detail {
// One pooled attribute set and the number of SharedAttrs naming it (guarded by the pool lock).
struct Record {
  RouteAttrs attrs;
  uint32_t refs = 0;
  uint32_t next_free = 0;
};
inline constexpr uint32_t kChunkRecords = 4096;
inline constexpr uint32_t kChunks = 16384;  // at most 64M distinct sets at once
// Chunk k holds records k * kChunkRecords ...; chunk 0 record 0 is the default set (immortal).
extern std::array<std::atomic<Record*>, kChunks> chunks;
}  // namespace attrs_detail

// A counted handle to an interned RouteAttrs: 4 bytes. Default: the default attributes.
class SharedAttrs {
 public:
  SharedAttrs() = default;
  explicit SharedAttrs(const RouteAttrs& a) : id_(Intern(a)) {}
  SharedAttrs(const SharedAttrs& o) : id_(o.id_) {
    if (id_ != 0) Acquire(id_);
  }
  SharedAttrs(SharedAttrs&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
  SharedAttrs& operator=(SharedAttrs o) noexcept {
    std::swap(id_, o.id_);
    return *this;
  }
  ~SharedAttrs() {
    if (id_ != 0) Release(id_);
  }

  const RouteAttrs& get() const {
    if (id_ == 0) return Default();  // the pool may not exist yet
    return attrs_detail::chunks[id_ / attrs_detail::kChunkRecords]
        .load(std::memory_order_acquire)[id_ % attrs_detail::kChunkRecords]
        .attrs;
  }
  const RouteAttrs& operator*() const { return get(); }
  const RouteAttrs* operator->() const { return &get(); }
  // Same interned set (equal fields, same resolution object).
  friend bool operator==(const SharedAttrs& a, const SharedAttrs& b) { return a.id_ == b.id_; }

  // Distinct attribute sets held now (the default set included).
  static size_t Live();

 private:
  static const RouteAttrs& Default();
  static uint32_t Intern(const RouteAttrs& a);
  static void Acquire(uint32_t id);
  static void Release(uint32_t id);
  uint32_t id_ = 0;
};

}  // namespace strata::rib
