// BlockPool and PoolAllocator: fixed-size blocks for objects the RIB allocates by the million
// (RibRoutes with their shared_ptr control blocks, through std::allocate_shared).
//
// Why: malloc rounds a 104-byte request up to a 112-byte chunk (8 bytes of header, 16-byte
// steps); a pool of 104-byte blocks in 64 KiB slabs does not. Freed blocks are reused first; the
// slabs are released when the last block is freed (until then a pool keeps its high-water mark).
// Thread-safe (a spin lock): the RIB also runs in-process, one instance per thread, in tests, and
// a BGP route may be freed on another thread than the one that made it. Contention is that rare,
// so the lock is an atomic flag taken inline (a pthread mutex's lock and unlock calls were 3-4% of
// strata-bgp's and strata-rib's CPU loading a full table); a waiter yields its time slice.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

namespace strata {

class BlockPool {
 public:
  // REQUIRES: size >= sizeof(void*), align <= alignof(std::max_align_t).
  BlockPool(size_t size, size_t align);
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;

  void* allocate();
  void deallocate(void* p);
  size_t live() const;

 private:
  static constexpr size_t kSlabBytes = 64 * 1024;
  class SpinLock {
   public:
    void lock() {
      while (flag_.test_and_set(std::memory_order_acquire)) std::this_thread::yield();
    }
    void unlock() { flag_.clear(std::memory_order_release); }

   private:
    std::atomic_flag flag_;  // clear (C++20)
  };
  mutable SpinLock mu_;
  size_t size_;
  size_t per_slab_;
  std::vector<std::unique_ptr<std::byte[]>> slabs_;
  void* free_ = nullptr;  // singly linked through the first word of each free block
  size_t used_in_last_ = 0;
  size_t live_ = 0;
};

// A stateless allocator drawing single objects from one immortal BlockPool per type (so blocks
// freed during static destruction still have a pool); arrays go to std::allocator.
template <typename U>
struct PoolAllocator {
  using value_type = U;
  PoolAllocator() = default;
  template <typename V>
  PoolAllocator(const PoolAllocator<V>& /*other*/) {}  // NOLINT: rebinding must be implicit

  U* allocate(size_t n) {
    if (n != 1) return std::allocator<U>().allocate(n);
    return static_cast<U*>(Pool().allocate());
  }
  void deallocate(U* p, size_t n) {
    if (n != 1) return std::allocator<U>().deallocate(p, n);
    Pool().deallocate(p);
  }
  static BlockPool& Pool() {
    static BlockPool* pool = new BlockPool(sizeof(U), alignof(U));
    return *pool;
  }
  friend bool operator==(const PoolAllocator&, const PoolAllocator&) { return true; }
};

}  // namespace strata
