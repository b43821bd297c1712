// Large arrays of the FIB on transparent huge pages.
//
// Why: the route master, its prefix index and the trie node array are tens of MB that updates
// and lookups touch at random. With 4 KB pages nearly every such access also misses the TLB (a
// page walk: one or more further memory accesses). Arrays of 2 MB and more are therefore mapped
// 2 MB-aligned and marked MADV_HUGEPAGE (the machine's THP mode is usually "madvise"); smaller
// ones use operator new. Memory from mmap is zero-filled.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>

namespace strata::fib {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

inline size_t LargeMappedBytes(size_t bytes) {
  return (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
}

// Throws std::bad_alloc like operator new.
inline void* AllocLarge(size_t bytes) {
  if (bytes < kHugePageBytes) return ::operator new(bytes);
  const size_t len = LargeMappedBytes(bytes);
  void* p = mmap(nullptr, len + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                 -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t raw = reinterpret_cast<uintptr_t>(p);
  const uintptr_t aligned = (raw + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  const size_t head = aligned - raw;
  if (head != 0) munmap(p, head);
  if (kHugePageBytes - head != 0) {
    munmap(reinterpret_cast<void*>(aligned + len), kHugePageBytes - head);
  }
  (void)madvise(reinterpret_cast<void*>(aligned), len, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

// REQUIRES: p came from AllocLarge(bytes) with the same bytes.
inline void FreeLarge(void* p, size_t bytes) {
  if (p == nullptr) return;
  if (bytes < kHugePageBytes) {
    ::operator delete(p);
    return;
  }
  munmap(p, LargeMappedBytes(bytes));
}

// std::vector<T, LargeAllocator<T>>: a vector whose big buffers live on huge pages.
template <typename T>
struct LargeAllocator {
  using value_type = T;
  LargeAllocator() = default;
  template <typename U>
  LargeAllocator(const LargeAllocator<U>&) {}  // NOLINT: rebinding, as std::allocator
  T* allocate(size_t n) { return static_cast<T*>(AllocLarge(n * sizeof(T))); }
  void deallocate(T* p, size_t n) { FreeLarge(p, n * sizeof(T)); }
  template <typename U>
  friend bool operator==(const LargeAllocator&, const LargeAllocator<U>&) {
    return true;
  }
};

// Deleter for a unique_ptr<T[]> whose array came from AllocLarge (trivially destructible T).
struct LargeArrayDeleter {
  size_t bytes = 0;
  void operator()(void* p) const { FreeLarge(p, bytes); }
};

}  // namespace strata::fib
