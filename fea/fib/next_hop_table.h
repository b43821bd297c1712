// NextHopTable: one virtual router's next hops (address, interface index), indexed by a 16-bit id.
//
// Why: the shared next-hop rows of the FIB hold one small index per VR, not the next hop itself
// (the paper's per-VR next-hop table), so rows stay 2 bytes per VR. Id 0 means "no route: drop".
// Entries are interned and reference counted by the routes that use them; an id whose count falls
// to zero is reused only after the readers that might still resolve it have left (epoch tag).
//
// Threading: Get() is safe from any reader thread inside a read section (entries live in chunks
// that never move). Everything else is writer-only.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/ip_addr.h"
#include "common/status.h"
#include "fea/fib/retire_list.h"

namespace strata::fib {

struct NextHop {
  IpAddr addr;
  uint32_t ifindex = 0;
  friend bool operator==(const NextHop&, const NextHop&) = default;
};

using NextHopId = uint16_t;
inline constexpr NextHopId kDropNextHop = 0;

class NextHopTable {
 public:
  static constexpr uint32_t kChunkBits = 8;
  static constexpr uint32_t kMaxIds = 1u << 16;

  NextHopTable();
  ~NextHopTable();
  NextHopTable(const NextHopTable&) = delete;
  NextHopTable& operator=(const NextHopTable&) = delete;

  // Takes one reference on the id for `nh`, creating it if needed.
  StatusOr<NextHopId> Acquire(const NextHop& nh);
  // Drops one reference; at zero the id waits for a grace period before reuse.
  void Release(NextHopId id);
  // Tags ids released since the last call (EpochManager::Advance()).
  void Stamp(uint64_t tag) { retired_.Stamp(tag); }
  // Makes ids tagged below `min_active` reusable.
  void Reclaim(uint64_t min_active);

  // Reader-safe. REQUIRES: id was returned by a lookup in the current read section, id != 0.
  const NextHop& Get(NextHopId id) const {
    return chunks_[id >> kChunkBits].load(std::memory_order_acquire)[id & ((1u << kChunkBits) - 1)];
  }
  size_t size() const { return live_; }
  size_t bytes() const;

 private:
  struct Hash {
    size_t operator()(const NextHop& nh) const {
      return std::hash<IpAddr>()(nh.addr) * 31 + nh.ifindex;
    }
  };
  std::array<std::atomic<NextHop*>, (kMaxIds >> kChunkBits)> chunks_{};
  std::unordered_map<NextHop, NextHopId, Hash> index_;
  std::vector<uint32_t> refs_;
  std::vector<NextHopId> free_;
  RetireList<NextHopId> retired_;
  uint32_t next_ = 1;
  size_t live_ = 0;
};

}  // namespace strata::fib
