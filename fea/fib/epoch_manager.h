// EpochManager: epoch-based reclamation so that FIB lookups never take a lock.
//
// Why: the writer replaces parts of the FIB (subtrees, next-hop rows, whole images) while reader
// threads keep looking up. Readers pin the current epoch for the length of a read section (a
// packet batch); the writer tags every unlinked object with the epoch returned by Advance() and
// frees it only once every pinned reader has a later epoch, i.e. started after the unlink.
//
// Threading: Register/Unregister from any thread (lock-free slot claim). Enter/Exit only by the
// thread owning the slot. Advance/MinActive by the (single, externally serialized) writer.
// Cost: Enter is one store and one full fence, Exit one store; amortize over a batch.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

namespace strata::fib {

class EpochManager {
 public:
  static constexpr int kMaxReaders = 64;
  static constexpr uint64_t kIdle = ~uint64_t{0};

  EpochManager();
  EpochManager(const EpochManager&) = delete;
  EpochManager& operator=(const EpochManager&) = delete;

  // A free reader slot, or -1 when all kMaxReaders are taken.
  int Register();
  // REQUIRES: the slot is not inside a read section.
  void Unregister(int slot);

  void Enter(int slot) {
    slots_[slot].epoch.store(global_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
  void Exit(int slot) { slots_[slot].epoch.store(kIdle, std::memory_order_release); }

  // Writer: call after unlinking objects; tag them with the returned value. An object tagged e is
  // safe to free once MinActive() > e.
  uint64_t Advance();
  // Writer: the smallest epoch pinned by a reader (kIdle when none is reading).
  uint64_t MinActive() const;

 private:
  struct alignas(64) Slot {
    std::atomic<uint64_t> epoch{kIdle};
    std::atomic<bool> used{false};
  };
  alignas(64) std::atomic<uint64_t> global_{1};
  std::array<Slot, kMaxReaders> slots_;
};

}  // namespace strata::fib
