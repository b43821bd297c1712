// RouteMaster: the source of truth for every VR's routes, one binary trie shared by all VRs.
//
// Why: the lookup structure is derived data (leaf-pushed, collapsed, level-compressed). Updates
// and rebuilds re-derive a part of it from here. One trie for all VRs instead of one per VR: a
// prefix held by many VRs costs one node plus a 4-byte (vr, next hop) entry per VR, and the
// leaf-pushing walk visits each node once for all VRs of a group. Each node keeps a 64-bit mask
// of the VRs (vr % 64) with routes in its subtree so that a walk for a group of VRs skips the
// subtrees that only other VRs use.
//
// Threading: writer-only (not thread-safe); the FIB serializes access.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "fea/fib/fib_key.h"
#include "fea/fib/next_hop_table.h"

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
  };
  static constexpr uint32_t kRoot = 0;
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

  const Node& node(uint32_t i) const { return nodes_[i]; }
  std::span<const Entry> entries(const Node& n) const {
    return {entries_.data() + n.ent_off, n.ent_cnt};
  }
  size_t node_count() const { return nodes_.size() - free_nodes_.size(); }
  size_t bytes() const {
    return nodes_.capacity() * sizeof(Node) + entries_.capacity() * sizeof(Entry);
  }

 private:
  uint32_t NewNode();
  void GrowEntries(Node& n);
  void RecomputeMask(uint32_t i);
  void ForEachRec(uint32_t i, Key key, int depth, VrId vr,
                  const std::function<void(Key, int, NextHopId)>& fn) const;
  bool RemoveVrRec(uint32_t i, VrId vr, const std::function<void(NextHopId)>& on_removed);

  std::vector<Node> nodes_;
  std::vector<uint32_t> free_nodes_;
  std::vector<Entry> entries_;
  std::array<std::vector<uint32_t>, 17> free_entries_;  // by log2 capacity
};

extern template class RouteMaster<uint32_t>;
extern template class RouteMaster<Uint128>;

}  // namespace strata::fib
