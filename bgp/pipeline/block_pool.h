// BlockPool<Size>: fixed-size memory blocks on a free list, for the pipeline's most numerous
// small objects (a BgpRoute with its shared_ptr control block is one 80-byte block).
//
// Why: glibc rounds an 80-byte request up to a 96-byte chunk (16 bytes of header and padding),
// and a full table allocates a million routes at once and frees them at once when its peer
// goes; a free list of exact blocks carved from 64 KB chunks costs neither the padding nor
// malloc's bookkeeping. Blocks go back to the free list, not to malloc: the memory of a table
// that went is kept for the next one (as glibc keeps freed small chunks in its heap).
// Threading: one pool per thread (thread_local): a block freed on another thread than the one
// that allocated it joins that thread's list, which is safe. Chunks live as long as the process
// (held by a static list, so leak checkers see them as reachable).
#pragma once

#include <cstddef>
#include <mutex>
#include <new>
#include <vector>

namespace strata::bgp {

template <size_t Size>
class BlockPool {
  static_assert(Size >= sizeof(void*));

 public:
  static void* Allocate() {
    Pool& p = pool();
    if (p.free == nullptr) p.Refill();
    Free* b = p.free;
    p.free = b->next;
    return b;
  }
  static void Deallocate(void* block) {
    Pool& p = pool();
    auto* b = static_cast<Free*>(block);
    b->next = p.free;
    p.free = b;
  }

 private:
  struct Free {
    Free* next;
  };
  static constexpr size_t kAlign = alignof(std::max_align_t);
  static constexpr size_t kBlock = (Size + kAlign - 1) / kAlign * kAlign;
  static constexpr size_t kChunk = 64 * 1024;

  struct Pool {
    Free* free = nullptr;
    void Refill() {
      char* chunk = static_cast<char*>(::operator new(kChunk, std::align_val_t(kAlign)));
      {
        static std::mutex mu;
        std::lock_guard lock(mu);
        chunks().push_back(chunk);
      }
      for (size_t off = 0; off + kBlock <= kChunk; off += kBlock) {
        auto* b = reinterpret_cast<Free*>(chunk + off);
        b->next = free;
        free = b;
      }
    }
  };
  static Pool& pool() {
    thread_local Pool p;
    return p;
  }
  // Every chunk ever made (never freed: blocks may be on any thread's list).
  static std::vector<char*>& chunks() {
    static auto* all = new std::vector<char*>();
    return *all;
  }
};

// A standard allocator over BlockPool for single objects (allocate_shared's control block and
// object); arrays go to operator new.
template <typename T>
struct BlockAllocator {
  using value_type = T;
  BlockAllocator() = default;
  template <typename U>
  BlockAllocator(const BlockAllocator<U>&) {}  // NOLINT: rebinding

  T* allocate(size_t n) {
    static_assert(alignof(T) <= alignof(std::max_align_t));
    if (n == 1) return static_cast<T*>(BlockPool<sizeof(T)>::Allocate());
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) {
    if (n == 1) {
      BlockPool<sizeof(T)>::Deallocate(p);
    } else {
      ::operator delete(p);
    }
  }
  template <typename U>
  friend bool operator==(const BlockAllocator&, const BlockAllocator<U>&) {
    return true;
  }
};

}  // namespace strata::bgp
