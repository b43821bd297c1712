#include "fea/fib/shared_trie.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <memory>

namespace strata::fib {

template <typename Key>
SharedTrie<Key>::SharedTrie(const RouteMaster<Key>& master, std::vector<VrId> members,
                            TrieOptions options)
    : master_(&master),
      members_(std::move(members)),
      options_(options),
      width_(static_cast<uint32_t>(members_.size())),
      free_blocks_(32),
      rows_(static_cast<uint32_t>(members_.size())),
      scratch_(size_t{kBits + 2} * members_.size(), 0) {
  col_of_.assign(size_t{members_.back()} + 1, -1);
  for (size_t c = 0; c < members_.size(); ++c) {
    col_of_[members_[c]] = static_cast<int>(c);
    group_mask_ |= RouteMaster<Key>::VrBit(members_[c]);
  }
}

template <typename Key>
SharedTrie<Key>::~SharedTrie() {
  FreeLarge(nodes_.load(std::memory_order_relaxed), capacity_ * sizeof(uint32_t));
}

template <typename Key>
std::atomic<uint32_t>* SharedTrie<Key>::NewArray(size_t cap) const {
  auto* fresh = static_cast<std::atomic<uint32_t>*>(AllocLarge(cap * sizeof(uint32_t)));
  // Each word is written once (copied, or zeroed beyond used_): a growth during updates touches
  // megabytes, and zeroing the copied part first cost a third more writes.
  std::atomic<uint32_t>* old = nodes_.load(std::memory_order_relaxed);
  for (size_t i = 0; i < used_; ++i) {
    new (&fresh[i]) std::atomic<uint32_t>(old[i].load(std::memory_order_relaxed));
  }
  std::uninitialized_value_construct_n(fresh + used_, cap - used_);
  return fresh;
}

template <typename Key>
const uint16_t* SharedTrie<Key>::Apply(uint32_t node, int depth, const uint16_t* row) {
  uint16_t* out = nullptr;
  for (const auto& e : master_->entries(master_->node(node))) {
    int c = ColumnOf(e.vr);
    if (c < 0) continue;
    if (out == nullptr) {
      out = scratch_.data() + size_t(depth) * width_;
      std::memcpy(out, row, width_ * sizeof(uint16_t));
    }
    out[c] = e.nh;
  }
  return out != nullptr ? out : row;
}

template <typename Key>
void SharedTrie<Key>::Emit(Key key, int len, const uint16_t* row) {
  uint32_t id = rows_.Intern(row);
  assert(id <= kMaxPointer);
  leaves_.push_back(Leaf{key, len, id});
}

template <typename Key>
void SharedTrie<Key>::GenLeaves(Key key, int len) {
  leaves_.clear();
  uint16_t* base = scratch_.data() + size_t{kBits + 1} * width_;
  std::fill(base, base + width_, kDropNextHop);
  uint32_t node = RouteMaster<Key>::kRoot;
  const uint16_t* row = Apply(node, 0, base);
  bool below = true;
  for (int d = 0; d < len; ++d) {
    const auto& n = master_->node(node);
    uint32_t c = n.child[KeyBit(key, d)];
    if ((n.mask & group_mask_) == 0 || c == 0) {
      below = false;
      break;
    }
    node = c;
    row = Apply(node, d + 1, row);
  }
  if (below && (master_->node(node).mask & group_mask_) != 0) {
    GenRec(node, key, len, row);
  } else {
    Emit(key, len, row);
  }
}

template <typename Key>
void SharedTrie<Key>::GenRec(uint32_t node, Key key, int depth, const uint16_t* row) {
  if (depth == kBits) {
    Emit(key, depth, row);
    return;
  }
  const auto& n = master_->node(node);
  bool rel[2];
  for (int b = 0; b < 2; ++b) {
    rel[b] = n.child[b] != 0 && (master_->node(n.child[b]).mask & group_mask_) != 0;
  }
  if (!rel[0] && !rel[1]) {
    Emit(key, depth, row);
    return;
  }
  size_t start = leaves_.size();
  for (int b = 0; b < 2; ++b) {
    Key ckey = b != 0 ? KeyWithBit(key, depth) : key;
    if (rel[b]) {
      GenRec(n.child[b], ckey, depth + 1, Apply(n.child[b], depth + 1, row));
    } else {
      Emit(ckey, depth + 1, row);
    }
  }
  if (leaves_.size() - start == 2 && leaves_[start].row == leaves_[start + 1].row) {
    leaves_.pop_back();
    leaves_[start].len = depth;
  }
}

template <typename Key>
int SharedTrie<Key>::ChooseBranch(size_t i, size_t j, int pos) const {
  uint32_t cnt[kBits + 1] = {};
  int maxd = 0;
  for (size_t k = i; k < j; ++k) {
    int d = leaves_[k].len - pos;
    ++cnt[d];
    maxd = std::max(maxd, d);
  }
  int limit = std::min(maxd, options_.max_branch);
  const double fill = pos == root_bits_ ? options_.fill_below_root : options_.fill;
  int b = 1;
  double frac = 0;
  for (int cand = 2; cand <= limit; ++cand) {
    frac += cnt[cand - 1] * std::ldexp(1.0, -(cand - 1));
    if (frac > 1.0 - fill) break;
    b = cand;
  }
  return b;
}

template <typename Key>
void SharedTrie<Key>::EnsureCapacity(size_t slots) {
  if (slots <= capacity_) return;
  size_t cap = std::max(slots, capacity_ * 2);
  assert(cap <= kMaxPointer);
  std::atomic<uint32_t>* fresh = NewArray(cap);
  std::atomic<uint32_t>* old = nodes_.load(std::memory_order_relaxed);
  nodes_.store(fresh, std::memory_order_release);
  if (old != nullptr) {
    retired_arrays_.Add(std::unique_ptr<std::atomic<uint32_t>[], LargeArrayDeleter>(
        old, LargeArrayDeleter{capacity_ * sizeof(uint32_t)}));
  }
  capacity_ = cap;
}

template <typename Key>
uint32_t SharedTrie<Key>::AllocBlock(int b) {
  auto& fl = free_blocks_[b];
  if (!fl.empty()) {
    uint32_t off = fl.back();
    fl.pop_back();
    free_slots_ -= size_t{1} << b;
    return off;
  }
  EnsureCapacity(used_ + (size_t{1} << b));
  auto off = static_cast<uint32_t>(used_);
  used_ += size_t{1} << b;
  return off;
}

template <typename Key>
uint32_t SharedTrie<Key>::BuildNode(size_t i, size_t j, int pos) {
  if (j - i == 1) {
    rows_.Ref(leaves_[i].row);
    return leaves_[i].row << kBranchBits;
  }
  int b = ChooseBranch(i, j, pos);
  uint32_t off = AllocBlock(b);
  FillBlock(i, j, pos, b, off);
  return (off << kBranchBits) | static_cast<uint32_t>(b);
}

template <typename Key>
void SharedTrie<Key>::FillBlock(size_t i, size_t j, int pos, int b, uint32_t off) {
  size_t idx = i;
  while (idx < j) {
    const Leaf& leaf = leaves_[idx];
    uint32_t s = KeyChunk(leaf.key, pos, b);
    if (leaf.len <= pos + b) {
      uint32_t count = 1u << (pos + b - leaf.len);
      for (uint32_t t = 0; t < count; ++t) {
        rows_.Ref(leaf.row);
        Store(off + s + t, leaf.row << kBranchBits);
      }
      ++idx;
      continue;
    }
    size_t e = idx + 1;
    while (e < j && KeyChunk(leaves_[e].key, pos, b) == s) ++e;
    uint32_t w = BuildNode(idx, e, pos + b);
    Store(off + s, w);
    idx = e;
  }
}

template <typename Key>
void SharedTrie<Key>::Build() {
  GenLeaves(Key{0}, 0);
  int rb = std::bit_width(leaves_.size()) - 1;
  root_bits_ = std::clamp(rb, 1, std::min(options_.root_bits, kBits));
  EnsureCapacity((size_t{1} << root_bits_) + leaves_.size() * 2);
  used_ = size_t{1} << root_bits_;
  FillBlock(0, leaves_.size(), 0, root_bits_, 0);
  // Not yet published: resize the array to the reserve directly.
  size_t cap = std::max<size_t>(static_cast<size_t>(used_ * options_.reserve), used_ + 1024);
  std::atomic<uint32_t>* fresh = NewArray(cap);
  FreeLarge(nodes_.load(std::memory_order_relaxed), capacity_ * sizeof(uint32_t));
  nodes_.store(fresh, std::memory_order_release);
  capacity_ = cap;
  retired_arrays_.Stamp(0);
  retired_arrays_.Collect(~uint64_t{0}, [](auto) {});
  leaves_.clear();
  leaves_.shrink_to_fit();
  built_bytes_ = used_trie_bytes() + used_row_bytes();
}

template <typename Key>
void SharedTrie<Key>::Release(uint32_t word) {
  if ((word & kBranchMask) == 0) {
    rows_.Unref(word >> kBranchBits);
    return;
  }
  int b = static_cast<int>(word & kBranchMask);
  uint32_t off = word >> kBranchBits;
  for (uint32_t t = 0; t < (1u << b); ++t) Release(Load(off + t));
  retired_blocks_.Add(Block{off, b});
}

template <typename Key>
void SharedTrie<Key>::Stamp(uint64_t tag) {
  retired_blocks_.Stamp(tag);
  retired_arrays_.Stamp(tag);
  rows_.Stamp(tag);
}

template <typename Key>
void SharedTrie<Key>::Reclaim(uint64_t min_active) {
  retired_blocks_.Collect(min_active, [this](Block blk) {
    free_blocks_[blk.branch].push_back(blk.off);
    free_slots_ += size_t{1} << blk.branch;
  });
  retired_arrays_.Collect(min_active, [](auto) {});
  rows_.Reclaim(min_active);
}

template <typename Key>
void SharedTrie<Key>::CountDepths(uint32_t word, int depth, GroupStats& s) const {
  if ((word & kBranchMask) == 0) {
    if (s.depth_histogram.size() <= size_t(depth)) s.depth_histogram.resize(depth + 1, 0);
    ++s.depth_histogram[depth];
    ++s.leaves;
    return;
  }
  int b = static_cast<int>(word & kBranchMask);
  uint32_t off = word >> kBranchBits;
  for (uint32_t t = 0; t < (1u << b); ++t) CountDepths(Load(off + t), depth + 1, s);
}

template <typename Key>
GroupStats SharedTrie<Key>::Stats() const {
  GroupStats s;
  s.members = members_;
  s.root_bits = root_bits_;
  s.trie_nodes = used_ - free_slots_;
  s.trie_node_capacity = capacity_;
  s.rows = rows_.live_rows();
  s.row_width = width_;
  s.trie_bytes = capacity_ * sizeof(uint32_t);
  s.row_bytes = rows_.bytes();
  for (uint32_t t = 0; t < (1u << root_bits_); ++t) CountDepths(Load(t), 1, s);
  return s;
}

template class SharedTrie<uint32_t>;
template class SharedTrie<Uint128>;

}  // namespace strata::fib
