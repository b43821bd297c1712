#include "common/block_pool.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <mutex>

namespace strata {

BlockPool::BlockPool(size_t size, size_t align)
    : size_((std::max(size, sizeof(void*)) + align - 1) / align * align),
      per_slab_(std::max<size_t>(1, kSlabBytes / size_)) {
  assert(align <= alignof(std::max_align_t));
}

void* BlockPool::allocate() {
  std::lock_guard lock(mu_);
  ++live_;
  if (free_) {
    void* p = free_;
    std::memcpy(&free_, p, sizeof free_);  // blocks may be 4-byte aligned (RIB routes)
    return p;
  }
  if (slabs_.empty() || used_in_last_ == per_slab_) {
    slabs_.push_back(std::make_unique_for_overwrite<std::byte[]>(per_slab_ * size_));
    used_in_last_ = 0;
  }
  return slabs_.back().get() + size_ * used_in_last_++;
}

void BlockPool::deallocate(void* p) {
  std::lock_guard lock(mu_);
  if (--live_ == 0) {
    slabs_.clear();
    free_ = nullptr;
    used_in_last_ = 0;
    return;
  }
  std::memcpy(p, &free_, sizeof free_);
  free_ = p;
}

size_t BlockPool::live() const {
  std::lock_guard lock(mu_);
  return live_;
}

}  // namespace strata
