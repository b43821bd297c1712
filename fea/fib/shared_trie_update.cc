// SharedTrie::Update: incremental update by patching the leaves whose row changes.
//
// After the master changed vr's route for P (= key/len), vr's answer changes exactly in
// E = P minus vr's more specific routes inside P, and there it becomes vr's longest match for P
// in the updated master. Every leaf inside E gets the same new value in vr's column, so the walk
// below visits the trie under P in step with the master (only the master nodes where vr has
// routes: the 64-bit VR masks prune the rest), skips regions a more specific route of vr owns,
// and rewrites each leaf word in E to the row id of its row with vr's column replaced (memoized:
// many leaves share a row). Two cases split a leaf into a subtree (SplitLeaf): a leaf wider than
// P (P is deeper than the trie there), and a leaf inside P that covers a more specific route of
// vr (the leaf was collapsed because that route's next hop equalled P's old one). A leaf has one
// row R for its whole region, so its new leaves are R outside E and R with vr's column patched
// inside E: they follow from vr's routes below P alone (not every member's routes in the region,
// which a re-derivation from the master would walk). Patched leaves that could now be collapsed
// stay apart until the next rebuild.
#include <algorithm>
#include <cassert>
#include <cstring>

#include "fea/fib/shared_trie.h"

namespace strata::fib {

template <typename Key>
uint32_t SharedTrie<Key>::VrChild(uint32_t m, int bit) const {
  uint32_t c = master_->node(m).child[bit];
  return c != 0 && (master_->node(c).mask & patch_.vr_bit) != 0 ? c : kNoNode;
}

template <typename Key>
bool SharedTrie<Key>::VrBelow(uint32_t m) const {
  return m != kNoNode && (VrChild(m, 0) != kNoNode || VrChild(m, 1) != kNoNode);
}

template <typename Key>
uint32_t SharedTrie<Key>::PatchedRow(uint32_t row) {
  for (const auto& [from, to] : patch_.memo) {
    if (from == row) return to;
  }
  const uint16_t* d = rows_.data();
  std::memcpy(patch_.row.data(), d + size_t{row} * width_, width_ * sizeof(uint16_t));
  uint32_t to = row;
  if (patch_.row[patch_.col] != patch_.nh) {
    uint64_t h = rows_.RowHashWith(row, static_cast<uint32_t>(patch_.col), patch_.nh);
    patch_.row[patch_.col] = patch_.nh;
    to = rows_.Intern(patch_.row.data(), h);
    assert(to <= kMaxPointer);
  }
  if (patch_.memo.size() < 16) patch_.memo.emplace_back(row, to);
  return to;
}

template <typename Key>
void SharedTrie<Key>::PatchLeaf(uint32_t slot, uint32_t word) {
  uint32_t row = word >> kBranchBits;
  uint32_t to = PatchedRow(row);
  if (to == row) return;
  rows_.Ref(to);
  Store(slot, to << kBranchBits, std::memory_order_release);
  rows_.Unref(row);
}

template <typename Key>
void SharedTrie<Key>::PatchAll(uint32_t slot) {
  uint32_t w = Load(slot);
  if ((w & kBranchMask) == 0) {
    PatchLeaf(slot, w);
    return;
  }
  int b = static_cast<int>(w & kBranchMask);
  uint32_t off = w >> kBranchBits;
  for (uint32_t t = 0; t < (1u << b); ++t) PatchAll(off + t);
}

template <typename Key>
void SharedTrie<Key>::PatchSlot(uint32_t slot, Key key, int d, uint32_t m) {
  uint32_t w = Load(slot);
  if ((w & kBranchMask) != 0) {
    PatchRange(key, d, m, w >> kBranchBits, d, static_cast<int>(w & kBranchMask));
  } else if (VrBelow(m)) {
    SplitLeaf(slot, key, d, m);
  } else {
    PatchLeaf(slot, w);
  }
}

template <typename Key>
void SharedTrie<Key>::SplitRec(Key key, int d, uint32_t m, uint32_t row, uint32_t patched) {
  if (d < patch_.len) {  // the region contains P: only the half on P's path changes
    int bit = KeyBit(patch_.key, d);
    for (int b = 0; b < 2; ++b) {
      Key ckey = b != 0 ? KeyWithBit(key, d) : key;
      if (b == bit) {
        SplitRec(ckey, d + 1, m, row, patched);
      } else {
        leaves_.push_back(Leaf{ckey, d + 1, row});
      }
    }
    return;
  }
  if (m != kNoNode && d > patch_.len &&
      master_->EntryOf(master_->node(m), patch_.vr) != kDropNextHop) {
    leaves_.push_back(Leaf{key, d, row});  // a more specific route of vr owns this region
    return;
  }
  if (!VrBelow(m)) {
    leaves_.push_back(Leaf{key, d, patched});
    return;
  }
  size_t start = leaves_.size();
  SplitRec(key, d + 1, VrChild(m, 0), row, patched);
  SplitRec(KeyWithBit(key, d), d + 1, VrChild(m, 1), row, patched);
  if (leaves_.size() - start == 2 && leaves_[start].row == leaves_[start + 1].row) {
    leaves_.pop_back();  // both halves alike: owned by vr's routes, or VR masks alias (vr % 64)
    leaves_[start].len = d;
  }
}

template <typename Key>
void SharedTrie<Key>::SplitLeaf(uint32_t slot, Key key, int pos, uint32_t m) {
  uint32_t old = Load(slot);
  uint32_t row = old >> kBranchBits;
  leaves_.clear();
  // Where the leaf is wider than P, m is P's node and SplitRec reaches it at depth len. The
  // patched row is interned only once a leaf needs it (vr's more specific routes may cover the
  // whole region, and an interned row that no leaf references would never be recycled).
  constexpr uint32_t kPatchedMark = ~uint32_t{0};
  SplitRec(MaskKey(key, pos), pos, m, row, kPatchedMark);
  auto marked = [](const Leaf& l) { return l.row == kPatchedMark; };
  if (std::none_of(leaves_.begin(), leaves_.end(), marked)) return;  // E misses the leaf
  uint32_t patched = PatchedRow(row);
  if (patched == row) return;  // vr's answer in E is what the leaf already says
  for (Leaf& l : leaves_) {
    if (marked(l)) l.row = patched;
  }
  uint32_t w = BuildNode(0, leaves_.size(), pos);
  Store(slot, w, std::memory_order_release);
  Release(old);
}

template <typename Key>
void SharedTrie<Key>::PatchRange(Key key, int d, uint32_t m, uint32_t off, int npos, int b) {
  if (m != kNoNode && d > patch_.len &&
      master_->EntryOf(master_->node(m), patch_.vr) != kDropNextHop) {
    return;  // a more specific route of vr owns this region
  }
  if (d == npos + b) {
    PatchSlot(off + KeyChunk(key, npos, b), key, d, m);
    return;
  }
  if (m == kNoNode) {  // no route of vr below: every leaf of the covered slots changes
    uint32_t first = KeyChunk(key, npos, b);
    uint32_t count = 1u << (npos + b - d);
    for (uint32_t t = 0; t < count; ++t) PatchAll(off + first + t);
    return;
  }
  PatchRange(key, d + 1, VrChild(m, 0), off, npos, b);
  PatchRange(KeyWithBit(key, d), d + 1, VrChild(m, 1), off, npos, b);
}

template <typename Key>
void SharedTrie<Key>::Update(VrId vr, Key key, int len) {
  patch_.vr = vr;
  patch_.vr_bit = RouteMaster<Key>::VrBit(vr);
  patch_.col = ColumnOf(vr);
  patch_.key = key;
  patch_.len = len;
  patch_.memo.clear();
  patch_.row.resize(width_);
  // vr's longest match for the prefix in the updated master, and the prefix's master node:
  // from the prefix index when the prefix has entries, else by a walk from the root.
  uint32_t m = master_->FindNode(key, len);
  NextHopId nh = m == kNoNode ? kDropNextHop : master_->EntryOf(master_->node(m), vr);
  if (nh == kDropNextHop && m != kNoNode) {  // vr's route went; other VRs keep the node
    // The ancestors with entries, by their `up` links (not every level of the binary trie).
    for (uint32_t a = master_->node(m).up; a != kNoNode && nh == kDropNextHop;
         a = master_->node(a).up) {
      nh = master_->EntryOf(master_->node(a), vr);
    }
    if ((master_->node(m).mask & patch_.vr_bit) == 0) m = kNoNode;
  } else if (m == kNoNode) {
    m = RouteMaster<Key>::kRoot;
    if ((master_->node(m).mask & patch_.vr_bit) == 0) m = kNoNode;
    nh = m == kNoNode ? kDropNextHop : master_->EntryOf(master_->node(m), vr);
    for (int d = 0; d < len && m != kNoNode; ++d) {
      m = VrChild(m, KeyBit(key, d));
      if (m == kNoNode) break;
      NextHopId here = master_->EntryOf(master_->node(m), vr);
      if (here != kDropNextHop) nh = here;
    }
  }
  patch_.nh = nh;
  if (len <= root_bits_) {
    PatchRange(key, len, m, 0, 0, root_bits_);
    return;
  }
  uint32_t slot = KeyChunk(key, 0, root_bits_);
  int pos = root_bits_;
  while (true) {
    uint32_t w = Load(slot);
    int b = static_cast<int>(w & kBranchMask);
    if (b == 0) {
      if (pos == len) {
        PatchSlot(slot, key, len, m);
      } else {
        SplitLeaf(slot, key, pos, m);  // a leaf wider than the prefix
      }
      return;
    }
    uint32_t off = w >> kBranchBits;
    if (pos + b <= len) {
      slot = off + KeyChunk(key, pos, b);
      pos += b;
      continue;
    }
    PatchRange(key, len, m, off, pos, b);
    return;
  }
}

// The extern template in the header suppresses implicit instantiation: name every member.
template void SharedTrie<uint32_t>::Update(VrId, uint32_t, int);
template void SharedTrie<uint32_t>::PatchRange(uint32_t, int, uint32_t, uint32_t, int, int);
template void SharedTrie<uint32_t>::PatchSlot(uint32_t, uint32_t, int, uint32_t);
template void SharedTrie<uint32_t>::PatchAll(uint32_t);
template void SharedTrie<uint32_t>::SplitLeaf(uint32_t, uint32_t, int, uint32_t);
template void SharedTrie<uint32_t>::SplitRec(uint32_t, int, uint32_t, uint32_t, uint32_t);
template void SharedTrie<uint32_t>::PatchLeaf(uint32_t, uint32_t);
template uint32_t SharedTrie<uint32_t>::PatchedRow(uint32_t);
template bool SharedTrie<uint32_t>::VrBelow(uint32_t) const;
template uint32_t SharedTrie<uint32_t>::VrChild(uint32_t, int) const;
template void SharedTrie<Uint128>::Update(VrId, Uint128, int);
template void SharedTrie<Uint128>::PatchRange(Uint128, int, uint32_t, uint32_t, int, int);
template void SharedTrie<Uint128>::PatchSlot(uint32_t, Uint128, int, uint32_t);
template void SharedTrie<Uint128>::PatchAll(uint32_t);
template void SharedTrie<Uint128>::SplitLeaf(uint32_t, Uint128, int, uint32_t);
template void SharedTrie<Uint128>::SplitRec(Uint128, int, uint32_t, uint32_t, uint32_t);
template void SharedTrie<Uint128>::PatchLeaf(uint32_t, uint32_t);
template uint32_t SharedTrie<Uint128>::PatchedRow(uint32_t);
template bool SharedTrie<Uint128>::VrBelow(uint32_t) const;
template uint32_t SharedTrie<Uint128>::VrChild(uint32_t, int) const;

}  // namespace strata::fib
