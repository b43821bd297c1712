// NextHopTable: one virtual router's next hops, indexed by a 16-bit id. An id names a next-hop
// group: one (address, interface index, weight) for a plain route, several for an ECMP route.
//
// Why: the shared next-hop rows of the FIB hold one small index per VR, not the next hop itself
// (the paper's per-VR next-hop table), so rows stay 2 bytes per VR whatever the number of ECMP
// members, and the lookup path is the same for plain and ECMP routes. Id 0 means "no route: drop".
// Groups are interned (the same set of members, in any order, gets the same id, so equal routes
// of different prefixes still share rows) and reference counted by the routes that use them; an id
// whose count falls to zero is reused only after the readers that might still resolve it have
// left (epoch tag).
//
// Threading: Get() is safe from any reader thread inside a read section (entries live in chunks
// that never move, and a group is immutable while its id is live). Everything else is writer-only.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/ip_addr.h"
#include "common/status.h"
#include "fea/fib/retire_list.h"

namespace strata::fib {

// One next hop; `weight` (>= 1) is its share of the flows within an ECMP group.
struct NextHop {
  IpAddr addr;
  uint32_t ifindex = 0;
  uint32_t weight = 1;
  friend bool operator==(const NextHop&, const NextHop&) = default;
};

using NextHopId = uint16_t;
inline constexpr NextHopId kDropNextHop = 0;

// The next hops of one route: one member, or several (ECMP), sorted by (address, ifindex).
class NextHopGroup {
 public:
  static constexpr size_t kMaxMembers = 256;

  std::span<const NextHop> hops() const { return hops_; }
  size_t size() const { return hops_.size(); }
  const NextHop& operator[](size_t i) const { return hops_[i]; }
  uint64_t total_weight() const { return total_; }
  // The member that carries the flow with this hash: member i gets weight_i / total of the hash
  // space (multiply-shift, then a search of the cumulative weights). Equal hashes pick equal
  // members, so a flow stays on one path while the group is unchanged.
  const NextHop& Select(uint32_t hash) const {
    if (hops_.size() == 1) return hops_[0];
    const auto x = static_cast<uint64_t>((Uint128Mul(hash, total_)) >> 32);  // < total_
    size_t lo = 0, hi = upto_.size() - 1;  // first i with upto_[i] > x
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (upto_[mid] > x) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return hops_[lo];
  }
  static unsigned __int128 Uint128Mul(uint32_t a, uint64_t b) {
    return static_cast<unsigned __int128>(a) * b;
  }
  friend bool operator==(const NextHopGroup& a, const NextHopGroup& b) {
    return a.hops_ == b.hops_;
  }

 private:
  friend class NextHopTable;
  std::vector<NextHop> hops_;
  std::vector<uint64_t> upto_;  // upto_[i] = weights of hops_[0..i]; empty for one member
  uint64_t total_ = 0;
};

// Free-function form of NextHopGroup::Select, for callers hashing flows.
inline const NextHop& Select(const NextHopGroup& group, uint32_t hash) {
  return group.Select(hash);
}

class NextHopTable {
 public:
  static constexpr uint32_t kChunkBits = 8;
  static constexpr uint32_t kMaxIds = 1u << 16;

  NextHopTable();
  ~NextHopTable();
  NextHopTable(const NextHopTable&) = delete;
  NextHopTable& operator=(const NextHopTable&) = delete;

  // Takes one reference on the id of the group of `hops` (any order; members with the same
  // address and ifindex are merged, adding their weights), creating it if needed.
  // InvalidArgument: no member, more than NextHopGroup::kMaxMembers, or a weight of 0.
  StatusOr<NextHopId> Acquire(std::span<const NextHop> hops);
  StatusOr<NextHopId> Acquire(const NextHop& nh) { return Acquire(std::span(&nh, 1)); }
  // Drops one reference; at zero the id waits for a grace period before reuse.
  void Release(NextHopId id);
  // Tags ids released since the last call (EpochManager::Advance()).
  void Stamp(uint64_t tag) { retired_.Stamp(tag); }
  // Makes ids tagged below `min_active` reusable.
  void Reclaim(uint64_t min_active);

  // Reader-safe. REQUIRES: id was returned by a lookup in the current read section, id != 0.
  const NextHopGroup& Get(NextHopId id) const {
    return chunks_[id >> kChunkBits].load(std::memory_order_acquire)[id & ((1u << kChunkBits) - 1)];
  }
  size_t size() const { return live_; }
  size_t bytes() const;

 private:
  // The index is keyed by the sorted members and probed with a span (no copy on a hit).
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::span<const NextHop> hops) const {
      size_t h = hops.size();
      for (const NextHop& nh : hops) {
        h = h * 0x9E3779B97F4A7C15ULL + std::hash<IpAddr>()(nh.addr) * 31 + nh.ifindex;
        h ^= (h >> 29) + nh.weight;
      }
      return h;
    }
    size_t operator()(const std::vector<NextHop>& hops) const {
      return (*this)(std::span<const NextHop>(hops));
    }
  };
  struct Eq {
    using is_transparent = void;
    static bool Same(std::span<const NextHop> a, std::span<const NextHop> b) {
      return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
    }
    bool operator()(std::span<const NextHop> a, std::span<const NextHop> b) const {
      return Same(a, b);
    }
    bool operator()(const std::vector<NextHop>& a, std::span<const NextHop> b) const {
      return Same(a, b);
    }
    bool operator()(std::span<const NextHop> a, const std::vector<NextHop>& b) const {
      return Same(a, b);
    }
    bool operator()(const std::vector<NextHop>& a, const std::vector<NextHop>& b) const {
      return Same(a, b);
    }
  };
  std::array<std::atomic<NextHopGroup*>, (kMaxIds >> kChunkBits)> chunks_{};
  std::unordered_map<std::vector<NextHop>, NextHopId, Hash, Eq> index_;
  std::vector<NextHop> canon_;  // scratch: the sorted, merged members of an ECMP group
  size_t heap_bytes_ = 0;       // member arrays of live and retired groups
  std::vector<uint32_t> refs_;
  std::vector<NextHopId> free_;
  RetireList<NextHopId> retired_;
  uint32_t next_ = 1;
  size_t live_ = 0;
};

}  // namespace strata::fib
