#include "fea/fib/route_master.h"

#include <algorithm>
#include <bit>

namespace strata::fib {

template <typename Key>
RouteMaster<Key>::RouteMaster() : nodes_(1) {}

template <typename Key>
uint32_t RouteMaster<Key>::NewNode(uint32_t parent) {
  uint32_t i;
  if (!free_nodes_.empty()) {
    i = free_nodes_.back();
    free_nodes_.pop_back();
    nodes_[i] = Node{};
  } else {
    i = static_cast<uint32_t>(nodes_.size());
    nodes_.emplace_back();
  }
  nodes_[i].parent = parent;
  const Node& p = nodes_[parent];
  nodes_[i].up = p.ent_cnt != 0 ? parent : p.up;
  return i;
}

template <typename Key>
void RouteMaster<Key>::GrowEntries(Node& n) {
  uint32_t cap = n.ent_cap == 0 ? 1 : n.ent_cap * 2u;
  int lg = std::countr_zero(cap);
  uint32_t off;
  if (!free_entries_[lg].empty()) {
    off = free_entries_[lg].back();
    free_entries_[lg].pop_back();
  } else {
    off = static_cast<uint32_t>(entries_.size());
    entries_.resize(entries_.size() + cap);
  }
  std::copy_n(entries_.begin() + n.ent_off, n.ent_cnt, entries_.begin() + off);
  if (n.ent_cap != 0) free_entries_[std::countr_zero(uint32_t{n.ent_cap})].push_back(n.ent_off);
  n.ent_off = off;
  n.ent_cap = static_cast<uint16_t>(cap);
}

template <typename Key>
void RouteMaster<Key>::MarkUp(uint32_t i, uint64_t bit) {
  while (i != kNoNode && (nodes_[i].mask & bit) == 0) {
    nodes_[i].mask |= bit;
    i = nodes_[i].parent;
  }
}

template <typename Key>
NextHopId RouteMaster<Key>::SetEntry(uint32_t i, Key key, int len, VrId vr, NextHopId nh) {
  Node& n = nodes_[i];
  Entry* begin = entries_.data() + n.ent_off;
  Entry* it = LowerBound(begin, n.ent_cnt, vr);
  if (it != begin + n.ent_cnt && it->vr == vr) {
    NextHopId old = it->nh;
    it->nh = nh;
    return old;
  }
  size_t pos = static_cast<size_t>(it - begin);
  if (n.ent_cnt == 0) {
    index_.Insert(key, len, i);
    RelinkBelow(i, i);
  }
  if (n.ent_cnt == n.ent_cap) GrowEntries(n);
  begin = entries_.data() + n.ent_off;
  std::copy_backward(begin + pos, begin + n.ent_cnt, begin + n.ent_cnt + 1);
  begin[pos] = Entry{vr, nh};
  ++n.ent_cnt;
  return kDropNextHop;
}

template <typename Key>
NextHopId RouteMaster<Key>::Set(VrId vr, Key key, int len, NextHopId nh) {
  uint32_t i = index_.Find(key, len);
  if (i == kNoNode) {
    i = kRoot;
    for (int d = 0; d < len; ++d) {
      int b = KeyBit(key, d);
      uint32_t c = nodes_[i].child[b];
      if (c == 0) {
        c = NewNode(i);  // may reallocate nodes_
        nodes_[i].child[b] = c;
      }
      i = c;
    }
  }
  MarkUp(i, VrBit(vr));
  return SetEntry(i, key, len, vr, nh);
}

template <typename Key>
void RouteMaster<Key>::RecomputeMask(uint32_t i) {
  Node& n = nodes_[i];
  uint64_t m = 0;
  for (const Entry& e : entries(n)) m |= VrBit(e.vr);
  for (uint32_t c : n.child) {
    if (c != 0) m |= nodes_[c].mask;
  }
  n.mask = m;
}

template <typename Key>
bool RouteMaster<Key>::Provides(uint32_t i, VrId vr) const {
  const Node& n = nodes_[i];
  const uint64_t bit = VrBit(vr);
  for (uint32_t c : n.child) {
    if (c != 0 && (nodes_[c].mask & bit) != 0) return true;
  }
  if (n.ent_cnt == 0) return false;
  if (EntryOf(n, vr) != kDropNextHop) return true;  // an ancestor where vr has a route
  // Another VR with the same bit has an entry only if some id is >= 64 (entries are sorted by
  // VR, so the last one tells), which saves reading the whole list.
  if (vr < 64 && entries_[n.ent_off + n.ent_cnt - 1u].vr < 64) return false;
  for (const Entry& e : entries(n)) {
    if (VrBit(e.vr) == bit) return true;
  }
  return false;
}

template <typename Key>
void RouteMaster<Key>::FixUp(uint32_t i, VrId vr) {
  while (i != kNoNode) {
    Node& n = nodes_[i];
    uint32_t p = n.parent;
    if (i != kRoot && n.ent_cnt == 0 && n.child[0] == 0 && n.child[1] == 0) {
      nodes_[p].child[nodes_[p].child[0] == i ? 0 : 1] = 0;
      free_nodes_.push_back(i);
      i = p;
      continue;
    }
    if ((n.mask & VrBit(vr)) == 0 || Provides(i, vr)) return;
    n.mask &= ~VrBit(vr);
    i = p;
  }
}

template <typename Key>
NextHopId RouteMaster<Key>::Remove(VrId vr, Key key, int len) {
  uint32_t i = index_.Find(key, len);
  if (i == kNoNode) return kDropNextHop;
  Node& n = nodes_[i];
  Entry* begin = entries_.data() + n.ent_off;
  Entry* end = begin + n.ent_cnt;
  Entry* it = LowerBound(begin, n.ent_cnt, vr);
  if (it == end || it->vr != vr) return kDropNextHop;
  NextHopId old = it->nh;
  std::copy(it + 1, end, it);
  --n.ent_cnt;
  if (n.ent_cnt == 0) {
    free_entries_[std::countr_zero(uint32_t{n.ent_cap})].push_back(n.ent_off);
    n.ent_cap = 0;
    index_.Erase(key, len);
    RelinkBelow(i, n.up);
  }
  FixUp(i, vr);
  return old;
}

template <typename Key>
std::optional<NextHopId> RouteMaster<Key>::Find(VrId vr, Key key, int len) const {
  uint32_t i = kRoot;
  for (int d = 0; d < len; ++d) {
    i = nodes_[i].child[KeyBit(key, d)];
    if (i == 0) return std::nullopt;
  }
  for (const Entry& e : entries(nodes_[i])) {
    if (e.vr == vr) return e.nh;
  }
  return std::nullopt;
}

template <typename Key>
bool RouteMaster<Key>::RemoveVrRec(uint32_t i, Key key, int depth, VrId vr,
                                   const std::function<void(NextHopId)>& on_removed) {
  if ((nodes_[i].mask & VrBit(vr)) == 0) return false;
  for (int b = 0; b < 2; ++b) {
    const uint32_t c = nodes_[i].child[b];
    if (c == 0) continue;  // a host route's node (depth kBits) has no child, nor a bit to set
    const Key ckey = b != 0 ? KeyWithBit(key, depth) : key;
    if (RemoveVrRec(c, ckey, depth + 1, vr, on_removed)) {
      nodes_[i].child[b] = 0;
      free_nodes_.push_back(c);
    }
  }
  Node& n = nodes_[i];
  Entry* begin = entries_.data() + n.ent_off;
  Entry* end = begin + n.ent_cnt;
  Entry* it = std::find_if(begin, end, [vr](const Entry& e) { return e.vr == vr; });
  if (it != end) {
    on_removed(it->nh);
    std::copy(it + 1, end, it);
    --n.ent_cnt;
    if (n.ent_cnt == 0) {
      free_entries_[std::countr_zero(uint32_t{n.ent_cap})].push_back(n.ent_off);
      n.ent_cap = 0;
      index_.Erase(key, depth);
    }
  }
  RecomputeMask(i);
  return i != kRoot && n.ent_cnt == 0 && n.child[0] == 0 && n.child[1] == 0;
}

template <typename Key>
void RouteMaster<Key>::RemoveVr(VrId vr, const std::function<void(NextHopId)>& on_removed) {
  RemoveVrRec(kRoot, Key{0}, 0, vr, on_removed);
  RelinkAll(kRoot, kNoNode);
}

template <typename Key>
void RouteMaster<Key>::RelinkBelow(uint32_t i, uint32_t to) {
  for (uint32_t c : nodes_[i].child) {
    if (c == 0) continue;
    nodes_[c].up = to;
    if (nodes_[c].ent_cnt == 0) RelinkBelow(c, to);
  }
}

template <typename Key>
void RouteMaster<Key>::RelinkAll(uint32_t i, uint32_t up) {
  nodes_[i].up = up;
  uint32_t below = nodes_[i].ent_cnt != 0 ? i : up;
  for (uint32_t c : nodes_[i].child) {
    if (c != 0) RelinkAll(c, below);
  }
}

template <typename Key>
void RouteMaster<Key>::ForEachRec(uint32_t i, Key key, int depth, VrId vr,
                                  const std::function<void(Key, int, NextHopId)>& fn) const {
  const Node& n = nodes_[i];
  if ((n.mask & VrBit(vr)) == 0) return;
  for (const Entry& e : entries(n)) {
    if (e.vr == vr) fn(key, depth, e.nh);
  }
  if (n.child[0] != 0) ForEachRec(n.child[0], key, depth + 1, vr, fn);
  if (n.child[1] != 0) ForEachRec(n.child[1], KeyWithBit(key, depth), depth + 1, vr, fn);
}

template <typename Key>
void RouteMaster<Key>::ForEach(VrId vr, const std::function<void(Key, int, NextHopId)>& fn) const {
  ForEachRec(kRoot, Key{0}, 0, vr, fn);
}

template class RouteMaster<uint32_t>;
template class RouteMaster<Uint128>;

}  // namespace strata::fib
