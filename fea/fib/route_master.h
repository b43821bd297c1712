// RouteMaster: the source of truth for every VR's routes, one binary trie shared by all VRs.
//
// Why: the lookup structure is derived data (leaf-pushed, collapsed, level-compressed). Updates
// and rebuilds re-derive a part of it from here. One trie for all VRs instead of one per VR: a
// prefix held by many VRs costs one node plus a 4-byte (vr, next hop) entry per VR, and the
// leaf-pushing walk visits each node once for all VRs of a group. Each node keeps a 64-bit mask
// of the VRs (vr % 64) with routes in its subtree so that a walk for a group of VRs skips the
// subtrees that only other VRs use.
//
// Updates: a PrefixIndex finds the node of a prefix that has entries without walking from the
// root, and parent links let Set/Remove fix only the ancestors whose masks change (masks are
// monotone: a node's bits are a subset of its parent's), so changing an existing prefix costs a
// few cache misses instead of one per level.
//
// Threading: writer-only (not thread-safe); the FIB serializes access.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "fea/fib/fib_key.h"
#include "fea/fib/large_alloc.h"
#include "fea/fib/next_hop_table.h"
#include "fea/fib/prefix_index.h"

namespace strata::fib {

using VrId = uint16_t;

template <typename Key>
class RouteMaster {
 public:
  struct Entry {
    VrId vr;
    NextHopId nh;
  };
  struct Node {
    std::array<uint32_t, 2> child{0, 0};  // 0 = none (the root is node 0 and never a child)
    uint32_t ent_off = 0;
    uint16_t ent_cnt = 0;
    uint16_t ent_cap = 0;
    uint64_t mask = 0;  // VrBit of every VR with an entry here or below
    uint32_t parent = kNoNode;
    uint32_t up = kNoNode;  // nearest strict ancestor with entries (any VR), or kNoNode
  };
  static constexpr uint32_t kRoot = 0;
  static constexpr uint32_t kNoNode = ~uint32_t{0};
  static uint64_t VrBit(VrId vr) { return uint64_t{1} << (vr & 63); }

  RouteMaster();

  // Sets vr's route for key/len; returns the previous next hop (kDropNextHop if none).
  // REQUIRES: key is masked to len; nh != kDropNextHop.
  NextHopId Set(VrId vr, Key key, int len, NextHopId nh);
  // Removes vr's route for key/len; returns its next hop, or kDropNextHop if there was none.
  NextHopId Remove(VrId vr, Key key, int len);
  std::optional<NextHopId> Find(VrId vr, Key key, int len) const;
  // Removes every route of vr, calling on_removed(next hop) for each.
  void RemoveVr(VrId vr, const std::function<void(NextHopId)>& on_removed);
  // Calls fn(key, len, nh) for every route of vr, in address order.
  void ForEach(VrId vr, const std::function<void(Key, int, NextHopId)>& fn) const;

  // The node of key/len if it holds entries (of any VR), else kNoNode. One hash probe.
  uint32_t FindNode(Key key, int len) const { return index_.Find(key, len); }
  const Node& node(uint32_t i) const { return nodes_[i]; }
  // Cache hints for a coming Set/Remove of key/len (batched updates).
  void PrefetchIndex(Key key, int len) const { index_.Prefetch(key, len); }
  void PrefetchNode(Key key, int len) const {
    uint32_t i = index_.Find(key, len);
    if (i != kNoNode) __builtin_prefetch(&nodes_[i]);
  }
  // After PrefetchNode: vr's entry (where a sorted list of similar VRs would hold it).
  void PrefetchEntry(Key key, int len, VrId vr) const {
    uint32_t i = index_.Find(key, len);
    if (i == kNoNode) return;
    const Node& n = nodes_[i];
    if (n.ent_cnt == 0) return;
    uint32_t guess = std::min<uint32_t>(vr, n.ent_cnt - 1u);
    __builtin_prefetch(entries_.data() + n.ent_off + guess);
  }
  std::span<const Entry> entries(const Node& n) const {
    return {entries_.data() + n.ent_off, n.ent_cnt};
  }
  // vr's next hop at node n itself, or kDropNextHop.
  NextHopId EntryOf(const Node& n, VrId vr) const {
    const Entry* begin = entries_.data() + n.ent_off;
    const Entry* it = LowerBound(begin, n.ent_cnt, vr);
    return it != begin + n.ent_cnt && it->vr == vr ? it->nh : kDropNextHop;
  }
  // The first entry of the sorted list [begin, begin + cnt) with VR >= vr. Tries position
  // min(vr, cnt - 1) first: when most VRs hold a prefix (similar tables) vr's entry is there or
  // close, so the search costs one cache line instead of a binary search over several.
  template <typename E>
  static E* LowerBound(E* begin, uint32_t cnt, VrId vr) {
    if (cnt == 0) return begin;
    uint32_t g = std::min<uint32_t>(vr, cnt - 1);
    auto less = [](const Entry& e, VrId v) { return e.vr < v; };
    if (begin[g].vr == vr) return begin + g;
    if (begin[g].vr > vr) return std::lower_bound(begin, begin + g, vr, less);
    return std::lower_bound(begin + g + 1, begin + cnt, vr, less);
  }
  size_t node_count() const { return nodes_.size() - free_nodes_.size(); }
  size_t bytes() const {
    return nodes_.capacity() * sizeof(Node) + entries_.capacity() * sizeof(Entry) + index_.bytes();
  }

 private:
  uint32_t NewNode(uint32_t parent);
  // Sets `bit` in the masks of i and its ancestors, stopping at the first that has it.
  void MarkUp(uint32_t i, uint64_t bit);
  // After vr's entry at i went: prunes i and its ancestors while they are empty leaves, then
  // clears vr's bit upwards while no child, no entry of vr and no entry of another VR with the
  // same bit provides it. Only that bit can change, so the other entries are mostly not read.
  void FixUp(uint32_t i, VrId vr);
  bool Provides(uint32_t i, VrId vr) const;
  // Inserts or replaces vr's entry at node i (key/len); returns the previous next hop.
  NextHopId SetEntry(uint32_t i, Key key, int len, VrId vr, NextHopId nh);
  void GrowEntries(Node& n);
  void RecomputeMask(uint32_t i);
  void ForEachRec(uint32_t i, Key key, int depth, VrId vr,
                  const std::function<void(Key, int, NextHopId)>& fn) const;
  bool RemoveVrRec(uint32_t i, Key key, int depth, VrId vr,
                   const std::function<void(NextHopId)>& on_removed);

  // Sets the `up` link of the nodes below i (down to and including the first nodes with
  // entries) to `to`.
  void RelinkBelow(uint32_t i, uint32_t to);
  void RelinkAll(uint32_t i, uint32_t up);

  std::vector<Node, LargeAllocator<Node>> nodes_;
  std::vector<uint32_t> free_nodes_;
  std::vector<Entry, LargeAllocator<Entry>> entries_;
  std::array<std::vector<uint32_t>, 17> free_entries_;  // by log2 capacity
  PrefixIndex<Key> index_;                              // nodes with entries
};

extern template class RouteMaster<uint32_t>;
extern template class RouteMaster<Uint128>;

}  // namespace strata::fib
