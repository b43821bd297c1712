#include "rib/route_attrs.h"

#include <cstdlib>
#include <mutex>

#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"

namespace strata::rib {

std::string_view ProtocolKindName(ProtocolKind k) {
  return k == ProtocolKind::kIgp ? "igp" : "egp";
}

bool operator==(const RouteAttrs& a, const RouteAttrs& b) {
  const bool same_resolution = a.resolution == b.resolution ||
                               (a.resolution && b.resolution && *a.resolution == *b.resolution);
  return same_resolution && a.protocol == b.protocol && a.ifname == b.ifname &&
         a.metric == b.metric && a.admin_distance == b.admin_distance && a.tag == b.tag &&
         a.nexthop == b.nexthop && a.kind == b.kind && a.type == b.type &&
         a.own_distance == b.own_distance && a.weight == b.weight &&
         SameMultipath(a.multipath, b.multipath);
}

namespace attrs_detail {
constinit std::array<std::atomic<Record*>, kChunks> chunks{};
}  // namespace attrs_detail

namespace {

using attrs_detail::chunks;
using attrs_detail::kChunkRecords;
using attrs_detail::kChunks;
using attrs_detail::Record;

Record& At(uint32_t id) {
  return chunks[id / kChunkRecords].load(std::memory_order_relaxed)[id % kChunkRecords];
}

// The pool's notion of equality: fields equal, the resolution the same object.
bool SameSet(const RouteAttrs& a, const RouteAttrs& b) {
  return a.resolution.identity() == b.resolution.identity() && a.protocol == b.protocol &&
         a.ifname == b.ifname && a.metric == b.metric && a.admin_distance == b.admin_distance &&
         a.tag == b.tag && a.nexthop == b.nexthop && a.kind == b.kind && a.type == b.type &&
         a.own_distance == b.own_distance && a.weight == b.weight &&
         SameMultipath(a.multipath, b.multipath);
}

// The set holds record indexes; lookups also take a RouteAttrs (heterogeneous).
struct IdHash {
  using is_transparent = void;
  size_t operator()(const RouteAttrs& a) const {
    return absl::HashOf(a.protocol.id(), a.ifname.id(), a.resolution.identity(), a.nexthop.hi64(),
                        a.nexthop.lo64(), a.nexthop.is_v4(), a.metric, a.admin_distance, a.tag,
                        static_cast<uint8_t>(a.kind), static_cast<uint8_t>(a.type), a.own_distance,
                        a.weight, HashMultipath(a.multipath));
  }
  size_t operator()(uint32_t id) const { return (*this)(At(id).attrs); }
};
struct IdEq {
  using is_transparent = void;
  bool operator()(uint32_t a, uint32_t b) const { return a == b; }
  bool operator()(uint32_t a, const RouteAttrs& b) const { return SameSet(At(a).attrs, b); }
  bool operator()(const RouteAttrs& a, uint32_t b) const { return SameSet(a, At(b).attrs); }
};

struct Pool {
  Pool() {
    chunks[0].store(new Record[kChunkRecords], std::memory_order_release);
    ids.insert(0);  // the default set: never counted, never freed
  }
  std::mutex mu;
  absl::flat_hash_set<uint32_t, IdHash, IdEq> ids;
  uint32_t end = 1;   // records [0, end) have been handed out at least once
  uint32_t free = 0;  // a freed record (0: none), linked through next_free
  uint32_t last = 0;  // the set interned last: bulk loads repeat it, no hashing needed
};

Pool& ThePool() {
  // Leaked on purpose: routes in static objects may outlive any pool with a destructor.
  static auto* pool = new Pool();
  return *pool;
}

}  // namespace

const RouteAttrs& SharedAttrs::Default() {
  static const auto* attrs = new RouteAttrs();
  return *attrs;
}

uint32_t SharedAttrs::Intern(const RouteAttrs& a) {
  Pool& pool = ThePool();
  std::lock_guard lock(pool.mu);
  uint32_t id = pool.last;
  if (!SameSet(At(id).attrs, a)) {
    auto it = pool.ids.find(a);
    if (it != pool.ids.end()) {
      id = *it;
    } else {
      if (pool.free != 0) {
        id = pool.free;
        pool.free = At(id).next_free;
      } else {
        id = pool.end++;
        if (id / kChunkRecords >= kChunks) std::abort();  // more than 64M distinct sets
        std::atomic<Record*>& chunk = chunks[id / kChunkRecords];
        if (!chunk.load(std::memory_order_relaxed)) {
          chunk.store(new Record[kChunkRecords], std::memory_order_release);
        }
      }
      At(id).attrs = a;
      pool.ids.insert(id);
    }
    pool.last = id;
  }
  if (id != 0) ++At(id).refs;
  return id;
}

void SharedAttrs::Acquire(uint32_t id) {
  Pool& pool = ThePool();
  std::lock_guard lock(pool.mu);
  ++At(id).refs;
}

void SharedAttrs::Release(uint32_t id) {
  Pool& pool = ThePool();
  std::lock_guard lock(pool.mu);
  Record& r = At(id);
  if (--r.refs != 0) return;
  pool.ids.erase(id);
  r.attrs = RouteAttrs();  // drops the resolution and its count
  r.next_free = pool.free;
  pool.free = id;
  if (pool.last == id) pool.last = 0;
}

size_t SharedAttrs::Live() {
  Pool& pool = ThePool();
  std::lock_guard lock(pool.mu);
  return pool.ids.size();
}

}  // namespace strata::rib
