// RefCount and IntrusiveRef<T>: a reference-counted pointer whose count lives inside the object.
//
// Why not shared_ptr: RouteRef is stored once per route per protocol (and the route once more),
// and shared_ptr costs a second word per reference plus a 16-byte control block per object. Here
// a reference is one pointer and the count takes 4 bytes of the object (in RibRoute, bytes that
// were alignment padding). Objects come from the BlockPool of their type (PoolAllocator<T>) and go
// back to it when the last reference is dropped. Copying an object does not copy its count.
// Thread-safe counting (atomic), like shared_ptr; the objects are immutable once shared.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "common/block_pool.h"

namespace strata::rib {

// A member of T named `refs`. A copy or assignment of T starts or keeps its own count.
class RefCount {
 public:
  RefCount() = default;
  RefCount(const RefCount& /*other*/) {}
  RefCount& operator=(const RefCount& /*other*/) { return *this; }
  // Equal by definition: the count is not part of the object's value.
  friend bool operator==(const RefCount&, const RefCount&) { return true; }

 private:
  template <typename T>
  friend class IntrusiveRef;
  mutable std::atomic<uint32_t> n_{0};
};

template <typename T>
class IntrusiveRef {
 public:
  IntrusiveRef() = default;
  IntrusiveRef(std::nullptr_t) {}  // NOLINT: null converts implicitly, as for shared_ptr
  // A new object holding `value`, drawn from its BlockPool.
  static IntrusiveRef Make(T value) {
    PoolAllocator<T> alloc;
    T* p = alloc.allocate(1);
    new (p) T(std::move(value));
    return IntrusiveRef(p);
  }

  IntrusiveRef(const IntrusiveRef& o) : p_(o.p_) { acquire(); }
  IntrusiveRef(IntrusiveRef&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  IntrusiveRef& operator=(IntrusiveRef o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~IntrusiveRef() { reset(); }

  void reset() {
    if (p_ && p_->refs.n_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      T* p = const_cast<T*>(p_);
      p->~T();
      PoolAllocator<T>().deallocate(p, 1);
    }
    p_ = nullptr;
  }
  const T* get() const { return p_; }
  const T& operator*() const { return *p_; }
  const T* operator->() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }
  // References to the object (0 for null).
  uint32_t use_count() const { return p_ ? p_->refs.n_.load(std::memory_order_relaxed) : 0; }

  // Identity, as for pointers.
  friend bool operator==(const IntrusiveRef& a, const IntrusiveRef& b) { return a.p_ == b.p_; }
  friend bool operator==(const IntrusiveRef& a, std::nullptr_t) { return a.p_ == nullptr; }

 private:
  explicit IntrusiveRef(const T* p) : p_(p) { acquire(); }
  void acquire() {
    if (p_) p_->refs.n_.fetch_add(1, std::memory_order_relaxed);
  }
  const T* p_ = nullptr;
};

}  // namespace strata::rib
