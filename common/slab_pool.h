// SlabPool<X>: objects of one type in fixed-size slabs, named by 32-bit index.
//
// Why: a route table holds millions of small nodes. One malloc per node costs a chunk header and
// rounding (an 88-byte trie node took a 96-byte chunk), and a pointer costs 8 bytes where an index
// costs 4. Slabs never move, so references to objects stay valid while others are allocated.
// Freed slots are reused first; when the last object goes, every slab is released.
// The pool does not know which slots are live: the owner destroys its objects with free() (or
// owns only trivially destructible ones). Thread-compatible; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace strata {

template <typename X>
class SlabPool {
 public:
  static constexpr uint32_t kNil = ~uint32_t{0};

  SlabPool() = default;
  SlabPool(const SlabPool&) = delete;
  SlabPool& operator=(const SlabPool&) = delete;
  SlabPool(SlabPool&& o) noexcept
      : slabs_(std::move(o.slabs_)),
        free_(std::exchange(o.free_, kNil)),
        end_(std::exchange(o.end_, 0)),
        live_(std::exchange(o.live_, 0)) {
    o.slabs_.clear();
  }
  SlabPool& operator=(SlabPool&& o) noexcept {
    SlabPool tmp(std::move(o));
    std::swap(slabs_, tmp.slabs_);
    std::swap(free_, tmp.free_);
    std::swap(end_, tmp.end_);
    std::swap(live_, tmp.live_);
    return *this;
  }

  size_t live() const { return live_; }

  template <typename... Args>
  uint32_t alloc(Args&&... args) {
    uint32_t i;
    if (free_ != kNil) {
      i = free_;
      free_ = slot(i).next_free;
    } else {
      if (end_ == slabs_.size() * kSlab) slabs_.push_back(std::make_unique<Slot[]>(kSlab));
      i = end_++;
    }
    new (&slot(i).object) X(std::forward<Args>(args)...);
    ++live_;
    return i;
  }
  void free(uint32_t i) {
    slot(i).object.~X();
    slot(i).next_free = free_;
    free_ = i;
    if (--live_ == 0) {
      slabs_.clear();
      free_ = kNil;
      end_ = 0;
    }
  }
  X& operator[](uint32_t i) { return slot(i).object; }
  const X& operator[](uint32_t i) const { return slabs_[i / kSlab][i % kSlab].object; }

 private:
  static constexpr uint32_t kSlab = 4096;
  union Slot {
    Slot() {}
    ~Slot() {}
    X object;
    uint32_t next_free;
  };
  Slot& slot(uint32_t i) { return slabs_[i / kSlab][i % kSlab]; }

  std::vector<std::unique_ptr<Slot[]>> slabs_;
  uint32_t free_ = kNil;
  uint32_t end_ = 0;
  size_t live_ = 0;
};

}  // namespace strata
