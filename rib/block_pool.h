// BlockPool and PoolAllocator: fixed-size blocks for objects the RIB allocates by the million
// (RibRoutes with their shared_ptr control blocks, through std::allocate_shared).
//
// Why: malloc rounds a 104-byte request up to a 112-byte chunk (8 bytes of header, 16-byte
// steps); a pool of 104-byte blocks in 64 KiB slabs does not. Freed blocks are reused first; the
// slabs are released when the last block is freed (until then a pool keeps its high-water mark).
// Thread-safe (a mutex): the RIB also runs in-process, one instance per thread, in tests.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace strata::rib {

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
  mutable std::mutex mu_;
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

}  // namespace strata::rib
