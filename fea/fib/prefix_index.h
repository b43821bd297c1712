// PrefixIndex: an open-addressing hash map from a prefix (key, len) to a RouteMaster node id.
//
// Why: the route master is a binary trie 20-50 levels deep; walking it from the root costs one
// cache miss per level on a full table, which dominated the incremental update path. The index
// finds the node of a prefix that has routes in one probe, so an update that changes an existing
// prefix (a next-hop change, a VR re-announcing what others hold) touches only that node and the
// few ancestors whose VR masks change. Linear probing with backward-shift deletion; grows at 1/2.
//
// Threading: writer-only (not thread-safe).
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "fea/fib/fib_key.h"
#include "fea/fib/large_alloc.h"

namespace strata::fib {

template <typename Key>
class PrefixIndex {
 public:
  static constexpr uint32_t kNone = ~uint32_t{0};

  PrefixIndex() : slots_(1024) {}

  uint32_t Find(Key key, int len) const {
    size_t mask = slots_.size() - 1;
    for (size_t s = Hash(key, len) & mask; slots_[s].node != kNone; s = (s + 1) & mask) {
      if (slots_[s].key == key && slots_[s].len == len) return slots_[s].node;
    }
    return kNone;
  }
  void Prefetch(Key key, int len) const {
    __builtin_prefetch(&slots_[Hash(key, len) & (slots_.size() - 1)]);
  }
  // REQUIRES: key/len is not in the index.
  void Insert(Key key, int len, uint32_t node) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    Place(Slot{key, node, len});
    ++size_;
  }
  // No-op when key/len is not in the index.
  void Erase(Key key, int len) {
    size_t mask = slots_.size() - 1;
    size_t s = Hash(key, len) & mask;
    while (slots_[s].node != kNone && !(slots_[s].key == key && slots_[s].len == len)) {
      s = (s + 1) & mask;
    }
    if (slots_[s].node == kNone) return;
    size_t hole = s;
    for (size_t j = (s + 1) & mask; slots_[j].node != kNone; j = (j + 1) & mask) {
      size_t home = Hash(slots_[j].key, slots_[j].len) & mask;
      bool movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole].node = kNone;
    --size_;
  }
  size_t size() const { return size_; }
  size_t bytes() const { return slots_.capacity() * sizeof(Slot); }

 private:
  struct Slot {
    Key key{};
    uint32_t node = kNone;
    int32_t len = 0;
  };
  static size_t Hash(Key key, int len) {
    uint64_t h = static_cast<uint64_t>(key) ^ (uint64_t(len) << 56);
    if constexpr (KeyTraits<Key>::kBits > 64) h ^= static_cast<uint64_t>(key >> 64) * 0x9E37;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    return static_cast<size_t>(h ^ (h >> 33));
  }
  void Place(const Slot& slot) {
    size_t mask = slots_.size() - 1;
    size_t s = Hash(slot.key, slot.len) & mask;
    while (slots_[s].node != kNone) s = (s + 1) & mask;
    slots_[s] = slot;
  }
  void Grow() {
    std::vector<Slot, LargeAllocator<Slot>> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    for (const Slot& s : old) {
      if (s.node != kNone) Place(s);
    }
  }

  std::vector<Slot, LargeAllocator<Slot>> slots_;
  size_t size_ = 0;
};

}  // namespace strata::fib
