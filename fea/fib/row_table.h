// RowTable: the shared next-hop table of one VR group; row i holds one NextHopId per member VR.
//
// Why: leaves of the shared trie store a row id instead of a next hop per VR, so a trie node is 4
// bytes whatever the number of VRs (the paper's shared next-hop table). Rows are interned (equal
// rows share an id) and reference counted by the trie leaves that point at them; a row whose count
// falls to zero is recycled only after readers have left (epoch tag).
//
// Storage is one contiguous array of width-sized rows, grown by copying into a new array that is
// published atomically; the old array is freed after a grace period. Readers must load data()
// AFTER reading the leaf word that names the row (acquire), so they always see a new-enough array.
//
// Threading: data()/Row() are reader-safe inside a read section; everything else is writer-only.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "fea/fib/large_alloc.h"
#include "fea/fib/retire_list.h"

namespace strata::fib {

class RowTable {
 public:
  explicit RowTable(uint32_t width, uint32_t initial_rows = 64);
  ~RowTable();
  RowTable(const RowTable&) = delete;
  RowTable& operator=(const RowTable&) = delete;

  uint32_t width() const { return width_; }
  const uint16_t* data() const { return data_.load(std::memory_order_acquire); }

  // The id of a row equal to `row` (width values), created if needed. The new row has no
  // references yet: the caller Ref()s it for each leaf it writes.
  uint32_t Intern(const uint16_t* row);
  // Same, with h = HashRow(row) known (e.g. from RowHashWith()).
  uint32_t Intern(const uint16_t* row, uint64_t h);
  // The hash of row `id` with column c set to v, in O(1): a row's hash is a sum over cells, so
  // changing one VR's next hop in a row costs no rehash of the whole row.
  uint64_t RowHashWith(uint32_t id, uint32_t c, uint16_t v) const {
    const uint16_t old = data()[size_t{id} * width_ + c];
    return hashes_[id] - CellHash(c, old) + CellHash(c, v);
  }
  void Ref(uint32_t id) { ++refs_[id]; }
  void Unref(uint32_t id);
  // Stamps rows and arrays unlinked since the last call; recycles those readers can't see.
  void Stamp(uint64_t tag);
  void Reclaim(uint64_t min_active);

  size_t live_rows() const { return live_; }
  // Row ids freed (or waiting for a grace period) and not yet reused.
  size_t dead_rows() const { return next_ - live_; }
  size_t capacity_rows() const { return capacity_; }
  size_t bytes() const;

 private:
  uint64_t HashRow(const uint16_t* row) const;
  static uint64_t CellHash(uint32_t c, uint16_t v) {
    uint64_t x = (uint64_t{c} << 16 | v) * 0x9E3779B97F4A7C15ULL;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    return x ^ (x >> 29);
  }
  static uint16_t* NewData(size_t cells);
  void Grow();
  void IndexInsert(uint32_t id);
  void IndexErase(uint32_t id);
  void Rehash(size_t slots);

  const uint32_t width_;
  std::atomic<uint16_t*> data_{nullptr};
  size_t capacity_ = 0;
  uint32_t next_ = 0;
  size_t live_ = 0;
  std::vector<uint32_t> refs_;
  std::vector<uint64_t> hashes_;
  std::vector<uint8_t> indexed_;
  std::vector<uint32_t> slots_;  // open addressing, id + 1, 0 = empty
  std::vector<uint32_t> free_;
  RetireList<uint32_t> retired_rows_;
  RetireList<std::unique_ptr<uint16_t[], LargeArrayDeleter>> retired_arrays_;
};

}  // namespace strata::fib
