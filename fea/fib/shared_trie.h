// SharedTrie: the lookup structure of one group of VRs (Fu & Rexford's shared FIB).
//
// What: the member VRs' routes (read from the RouteMaster) are leaf-pushed into one disjoint and
// complete prefix set (a VR without a default route gets "drop"), siblings whose rows agree for
// every member are collapsed, and the set is stored as a level-compressed trie: an array of
// 4-byte words (5 bits branch, 27 bits pointer), a fixed-width root block of 2^root_bits slots,
// inner nodes chosen with fill factor 0.5. A leaf word points at a RowTable row holding one
// NextHopId per member VR. A group of one VR is a plain per-VR LC-trie built by the same code.
//
// Updates: Update(prefix) rewrites the changed VR's column in the leaves under the prefix, and
// splits a leaf that is wider than the prefix (or hides a more specific route of the VR) into a
// subtree swapped in with one atomic store (see shared_trie_update.cc); the old subtree's blocks
// and rows are recycled after a grace period.
// Repeated updates leave the trie less compact than a fresh Build(); the FIB rebuilds groups.
//
// Threading: Lookup() is lock-free and may run concurrently with the writer, inside an epoch
// read section (see EpochManager). Build/Update/Stamp/Reclaim/Stats are writer-only.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "fea/fib/fib_key.h"
#include "fea/fib/fib_stats.h"
#include "fea/fib/large_alloc.h"
#include "fea/fib/retire_list.h"
#include "fea/fib/route_master.h"
#include "fea/fib/row_table.h"

namespace strata::fib {

struct TrieOptions {
  int root_bits = 16;  // upper bound; small groups get a narrower root
  double fill = 0.5;   // LC-trie fill factor
  // Fill factor of the nodes right below the root block (a /24 under a 16-bit root): wider
  // nodes there put most table prefixes one word below the root instead of two or three
  // (docs/fib.md, "What we know about lookups"; at K = 50 similar 9.7 MB where fill 0.5 gives 4.9).
  double fill_below_root = 0.05;
  int max_branch = 16;    // inner nodes
  double reserve = 1.25;  // node capacity after Build(), as a multiple of what it used
};

template <typename Key>
class SharedTrie {
 public:
  static constexpr int kBits = KeyTraits<Key>::kBits;

  // REQUIRES: members is non-empty and sorted; `master` outlives this trie.
  SharedTrie(const RouteMaster<Key>& master, std::vector<VrId> members, TrieOptions options);
  ~SharedTrie();
  SharedTrie(const SharedTrie&) = delete;
  SharedTrie& operator=(const SharedTrie&) = delete;

  // Builds the whole trie from the master. Called once, before the trie is published.
  void Build();
  // Reads `master` from now on (a trie built from a copy of the master, then kept up to date
  // against the live one). REQUIRES: master describes the same VRs.
  void Rebind(const RouteMaster<Key>& master) { master_ = &master; }
  // Brings the trie up to date after the master changed vr's route for key/len (added, replaced
  // or removed). Only vr's column changes, and only where key/len is vr's longest match: those
  // leaves get a new row id in place (one atomic store each); a leaf that hid a more specific
  // route of vr by collapsing, or a leaf wider than the prefix, is re-derived from the master.
  void Update(VrId vr, Key key, int len);

  // Reader. REQUIRES: inside a read section; col < members().size().
  // The first step below the root has no branch (a root leaf re-reads its own word, a cache
  // hit): most walks end at the root or one level below it, and a branch on which would be
  // mispredicted often under mixed traffic, each miss stopping the next lookups from starting
  // while this one waits for memory (see docs/fib.md, "What we know about lookups").
  NextHopId Lookup(uint32_t col, Key addr) const {
    const std::atomic<uint32_t>* n = nodes_.load(std::memory_order_acquire);
    uint32_t at = KeyChunk(addr, 0, root_bits_);
    uint32_t w = n[at].load(std::memory_order_acquire);
    int pos = root_bits_;
    {
      const int b = static_cast<int>(w & kBranchMask);
      const uint32_t next = (w >> kBranchBits) + KeyChunkNz(addr, pos, b);
      at = b != 0 ? next : at;
      pos += b;
      w = n[at].load(std::memory_order_acquire);
    }
    while ((w & kBranchMask) != 0) {
      int b = static_cast<int>(w & kBranchMask);
      w = n[(w >> kBranchBits) + KeyChunk(addr, pos, b)].load(std::memory_order_acquire);
      pos += b;
    }
    return rows_.data()[size_t{w >> kBranchBits} * width_ + col];
  }

  // Lookup() of n <= kLanes addresses at once (tries[i] and cols[i] per address; the tries may
  // differ): the walks advance one level per round, each step's word prefetched a round ahead,
  // so that the cache misses of the n walks overlap instead of adding up (throughput for packet
  // batches). Same answers and same memory orders as Lookup(). REQUIRES: as Lookup().
  static constexpr size_t kLanes = 32;
  static void LookupLanes(const SharedTrie* const* tries, const uint32_t* cols, const Key* addrs,
                          NextHopId* out, size_t n) {
    const std::atomic<uint32_t>* base[kLanes];  // one node array per walk, as in Lookup()
    uint32_t at[kLanes];                        // the word each walk reads next
    int pos[kLanes];
    uint32_t word[kLanes];  // the word read last: all leaves after the final round
    for (size_t i = 0; i < n; ++i) {
      const SharedTrie& t = *tries[i];
      base[i] = t.nodes_.load(std::memory_order_acquire);
      at[i] = KeyChunk(addrs[i], 0, t.root_bits_);
      pos[i] = t.root_bits_;
      __builtin_prefetch(base[i] + at[i]);
    }
    // Every round steps every walk that is not at a leaf yet (a walk at its leaf stays there:
    // re-reading its word hits the cache; if a split replaced that leaf meanwhile, the walk goes
    // on into the new subtree), without a branch per walk.
    bool inner = true;
    while (inner) {
      inner = false;
      for (size_t i = 0; i < n; ++i) {
        const uint32_t w = base[i][at[i]].load(std::memory_order_acquire);
        word[i] = w;
        const int b = static_cast<int>(w & kBranchMask);
        const uint32_t next = (w >> kBranchBits) + KeyChunk(addrs[i], pos[i], b);
        at[i] = b != 0 ? next : at[i];
        pos[i] += b;
        inner |= b != 0;
        __builtin_prefetch(base[i] + at[i]);
      }
    }
    for (size_t i = 0; i < n; ++i) {
      // Not re-read: the slot may hold a new subtree by now. data() after the leaf words.
      const uint32_t row = word[i] >> kBranchBits;
      out[i] = tries[i]->rows_.data()[size_t{row} * tries[i]->width_ + cols[i]];
    }
  }

  // Cache hint for a coming Update() of a prefix of key.
  void PrefetchRoot(Key key) const {
    __builtin_prefetch(nodes_.load(std::memory_order_relaxed) + KeyChunk(key, 0, root_bits_));
  }
  // After PrefetchRoot: the slot below the root on key's path.
  void PrefetchLevel2(Key key) const {
    uint32_t w = Load(KeyChunk(key, 0, root_bits_));
    int b = static_cast<int>(w & kBranchMask);
    if (b == 0) return;
    __builtin_prefetch(nodes_.load(std::memory_order_relaxed) + (w >> kBranchBits) +
                       KeyChunk(key, root_bits_, std::min(b, kBits - root_bits_)));
  }
  // Reads the first `loads` node words on the path to the prefix key/len (REQUIRES: prefetched
  // by earlier calls, so these hit the cache) and prefetches the next word, or the leaf's row.
  // PrefetchPath(k, l, 2) after PrefetchLevel2, then PrefetchPath(k, l, 3), ...
  void PrefetchPath(Key key, int len, int loads) const {
    const std::atomic<uint32_t>* n = nodes_.load(std::memory_order_relaxed);
    const std::atomic<uint32_t>* slot = n + KeyChunk(key, 0, root_bits_);
    int pos = root_bits_;
    for (int level = 0; level < loads; ++level) {
      uint32_t w = slot->load(std::memory_order_relaxed);
      int b = static_cast<int>(w & kBranchMask);
      if (b == 0) {
        if (level + 1 == loads)
          __builtin_prefetch(rows_.data() + size_t{w >> kBranchBits} * width_);
        return;
      }
      if (pos + b > len) return;  // the update walks the slots below this node
      slot = n + (w >> kBranchBits) + KeyChunk(key, pos, b);
      pos += b;
    }
    __builtin_prefetch(slot);
  }
  const std::vector<VrId>& members() const { return members_; }
  // The column of vr, or -1.
  int ColumnOf(VrId vr) const { return vr < col_of_.size() ? col_of_[vr] : -1; }
  void Stamp(uint64_t tag);
  void Reclaim(uint64_t min_active);
  // Bytes in use (not the reserve): what the grouping policy compares.
  size_t used_trie_bytes() const { return (used_ - free_slots_) * sizeof(uint32_t); }
  size_t used_row_bytes() const { return rows_.live_rows() * width_ * sizeof(uint16_t); }
  // used_trie_bytes() + used_row_bytes() right after Build(): the rebuild policy's baseline.
  size_t built_bytes() const { return built_bytes_; }
  // Garbage: freed node slots and row ids (recycled by later updates, given back by a rebuild).
  size_t dead_bytes() const {
    return free_slots_ * sizeof(uint32_t) + rows_.dead_rows() * width_ * sizeof(uint16_t);
  }
  size_t dead_slots() const { return free_slots_; }
  size_t dead_rows() const { return rows_.dead_rows(); }
  size_t allocated_bytes() const { return capacity_ * sizeof(uint32_t) + rows_.bytes(); }
  GroupStats Stats() const;

 private:
  static constexpr int kBranchBits = 5;
  static constexpr uint32_t kBranchMask = (1u << kBranchBits) - 1;
  static constexpr uint32_t kMaxPointer = (1u << (32 - kBranchBits)) - 1;
  struct Leaf {
    Key key;
    int len;
    uint32_t row;
  };
  struct Block {
    uint32_t off;
    int branch;
  };

  // Leaf-pushes the master below the region key/len into leaves_ (address order, collapsed).
  void GenLeaves(Key key, int len);
  void GenRec(uint32_t node, Key key, int depth, const uint16_t* row);
  const uint16_t* Apply(uint32_t node, int depth, const uint16_t* row);
  void Emit(Key key, int len, const uint16_t* row);
  // Builds leaves_[i, j) (a region of prefix length pos) and returns its word.
  uint32_t BuildNode(size_t i, size_t j, int pos);
  void FillBlock(size_t i, size_t j, int pos, int b, uint32_t off);
  int ChooseBranch(size_t i, size_t j, int pos) const;
  uint32_t AllocBlock(int b);
  void EnsureCapacity(size_t slots);
  // A node array of cap words (huge pages when large), holding a copy of the used words.
  std::atomic<uint32_t>* NewArray(size_t cap) const;
  // Update() helpers (shared_trie_update.cc). Region key/d lies inside the updated prefix;
  // `m` is the master node of the region if vr has routes at or below it, else kNoNode.
  void PatchRange(Key key, int d, uint32_t m, uint32_t off, int npos, int b);
  void PatchSlot(uint32_t slot, Key key, int d, uint32_t m);
  void PatchAll(uint32_t slot);
  // Replaces the leaf at `slot` (region key/pos, which contains P or lies inside it; m is the
  // master node of P, or of the region when inside P) by the subtree of leaves that differ only
  // in vr's column: the patched row inside E, the old row elsewhere.
  void SplitLeaf(uint32_t slot, Key key, int pos, uint32_t m);
  void SplitRec(Key key, int d, uint32_t m, uint32_t row, uint32_t patched);
  void PatchLeaf(uint32_t slot, uint32_t word);
  uint32_t PatchedRow(uint32_t row);
  bool VrBelow(uint32_t m) const;
  uint32_t VrChild(uint32_t m, int bit) const;
  void Release(uint32_t word);
  void Store(uint32_t slot, uint32_t word, std::memory_order order = std::memory_order_relaxed) {
    nodes_.load(std::memory_order_relaxed)[slot].store(word, order);
  }
  uint32_t Load(uint32_t slot) const {
    return nodes_.load(std::memory_order_relaxed)[slot].load(std::memory_order_relaxed);
  }
  void CountDepths(uint32_t word, int depth, GroupStats& s) const;

  const RouteMaster<Key>* master_;
  const std::vector<VrId> members_;
  const TrieOptions options_;
  const uint32_t width_;
  std::vector<int> col_of_;
  uint64_t group_mask_ = 0;
  int root_bits_ = 1;
  size_t built_bytes_ = 0;

  std::atomic<std::atomic<uint32_t>*> nodes_{nullptr};
  size_t capacity_ = 0;
  size_t used_ = 0;
  size_t free_slots_ = 0;
  std::vector<std::vector<uint32_t>> free_blocks_;  // by branch
  RetireList<Block> retired_blocks_;
  RetireList<std::unique_ptr<std::atomic<uint32_t>[], LargeArrayDeleter>> retired_arrays_;
  RowTable rows_;

  std::vector<Leaf> leaves_;
  std::vector<uint16_t> scratch_;  // one row per depth

  // State of the Update() in progress.
  static constexpr uint32_t kNoNode = ~uint32_t{0};
  struct Patch {
    VrId vr = 0;
    uint64_t vr_bit = 0;
    int col = 0;
    Key key{};
    int len = 0;
    NextHopId nh = kDropNextHop;                      // vr's new answer inside the prefix
    std::vector<std::pair<uint32_t, uint32_t>> memo;  // old row -> patched row
    std::vector<uint16_t> row;
  };
  Patch patch_;
};

extern template class SharedTrie<uint32_t>;
extern template class SharedTrie<Uint128>;

}  // namespace strata::fib
