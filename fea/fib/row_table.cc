#include "fea/fib/row_table.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace strata::fib {

RowTable::RowTable(uint32_t width, uint32_t initial_rows)
    : width_(width), capacity_(std::max<uint32_t>(initial_rows, 4)) {
  data_.store(NewData(capacity_ * width_), std::memory_order_release);
  refs_.resize(capacity_, 0);
  hashes_.resize(capacity_, 0);
  indexed_.resize(capacity_, 0);
  slots_.assign(std::bit_ceil(capacity_ * 2), 0);
}

RowTable::~RowTable() {
  FreeLarge(data_.load(std::memory_order_relaxed), capacity_ * width_ * sizeof(uint16_t));
}

uint16_t* RowTable::NewData(size_t cells) {
  // Not zeroed: a row is read (by the writer or, through a published leaf, by readers) only
  // after Intern() wrote it, and Grow() copies the rows in use.
  return static_cast<uint16_t*>(AllocLarge(cells * sizeof(uint16_t)));
}

uint64_t RowTable::HashRow(const uint16_t* row) const {
  uint64_t h = 0;
  for (uint32_t c = 0; c < width_; ++c) h += CellHash(c, row[c]);
  return h;
}

void RowTable::Rehash(size_t slots) {
  slots_.assign(slots, 0);
  for (uint32_t id = 0; id < next_; ++id) {
    if (indexed_[id]) IndexInsert(id);
  }
}

void RowTable::IndexInsert(uint32_t id) {
  size_t mask = slots_.size() - 1;
  size_t s = hashes_[id] & mask;
  while (slots_[s] != 0) s = (s + 1) & mask;
  slots_[s] = id + 1;
  indexed_[id] = 1;
}

void RowTable::IndexErase(uint32_t id) {
  size_t mask = slots_.size() - 1;
  size_t s = hashes_[id] & mask;
  while (slots_[s] != id + 1) s = (s + 1) & mask;
  // Backward-shift deletion keeps every probe chain unbroken.
  size_t hole = s;
  for (size_t j = (s + 1) & mask; slots_[j] != 0; j = (j + 1) & mask) {
    size_t home = hashes_[slots_[j] - 1] & mask;
    bool movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
    if (movable) {
      slots_[hole] = slots_[j];
      hole = j;
    }
  }
  slots_[hole] = 0;
  indexed_[id] = 0;
}

void RowTable::Grow() {
  size_t cap = capacity_ * 2;
  uint16_t* fresh = NewData(cap * width_);
  uint16_t* old = data_.load(std::memory_order_relaxed);
  std::memcpy(fresh, old, capacity_ * width_ * sizeof(uint16_t));
  data_.store(fresh, std::memory_order_release);
  retired_arrays_.Add(std::unique_ptr<uint16_t[], LargeArrayDeleter>(
      old, LargeArrayDeleter{capacity_ * width_ * sizeof(uint16_t)}));
  capacity_ = cap;
  refs_.resize(cap, 0);
  hashes_.resize(cap, 0);
  indexed_.resize(cap, 0);
}

uint32_t RowTable::Intern(const uint16_t* row) { return Intern(row, HashRow(row)); }

uint32_t RowTable::Intern(const uint16_t* row, uint64_t h) {
  size_t mask = slots_.size() - 1;
  const uint16_t* d = data_.load(std::memory_order_relaxed);
  for (size_t s = h & mask; slots_[s] != 0; s = (s + 1) & mask) {
    uint32_t id = slots_[s] - 1;
    if (hashes_[id] == h && std::memcmp(d + size_t{id} * width_, row, width_ * 2) == 0) return id;
  }
  uint32_t id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    if (next_ == capacity_) Grow();
    id = next_++;
  }
  // Unreachable by readers until a leaf naming it is published (release).
  std::memcpy(data_.load(std::memory_order_relaxed) + size_t{id} * width_, row, width_ * 2);
  hashes_[id] = h;
  refs_[id] = 0;
  ++live_;
  if ((live_ + 1) * 2 > slots_.size()) {
    Rehash(slots_.size() * 2);
  }
  IndexInsert(id);
  return id;
}

void RowTable::Unref(uint32_t id) {
  if (--refs_[id] != 0) return;
  IndexErase(id);
  --live_;
  retired_rows_.Add(id);
}

void RowTable::Stamp(uint64_t tag) {
  retired_rows_.Stamp(tag);
  retired_arrays_.Stamp(tag);
}

void RowTable::Reclaim(uint64_t min_active) {
  retired_rows_.Collect(min_active, [this](uint32_t id) { free_.push_back(id); });
  retired_arrays_.Collect(min_active, [](auto) {});
}

size_t RowTable::bytes() const { return capacity_ * width_ * sizeof(uint16_t); }

}  // namespace strata::fib
