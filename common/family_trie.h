// FamilyTrie<T, K>: the Patricia trie of one address family (K = TrieKey4 or TrieKey6) behind
// RouteTrie, which pairs one of each and adds iterators.
//
// Nodes and values live in SlabPools, linked by 32-bit indexes; glue nodes hold no value slot.
// Nodes have no parent link: stepping and pruning descend from the root (O(depth)). Nodes that
// iterators stand on are counted in a small side table (pin/unpin): erasing such a node only
// clears its value, and prune() removes it once the last iterator has left.
// Order: pre-order, i.e. by address and a covering prefix before the prefixes it contains.
//
// Jump table (IPv4, K::kJumpBits = 16): once a trie holds kJumpAfter values, every non-empty
// block of 2^16 addresses gets a node of its own at exactly /16 (a "block root", kept while
// the block holds anything, even with one child) and a table of 65,536 indexes names it. A
// descent for a key of /16 or longer then starts at its block root instead of the trie's
// root: a full table's descents skip the 12 to 16 levels above (the LC-trie idea, one level
// deep, with the Patricia trie below). Costs 256 KB and up to one node per block, so small
// tries (most peers', most tests') never build it. Walks and iterators are unchanged: block
// roots are ordinary glue nodes on the paths from the root.
// Thread-compatible; not thread-safe.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/slab_pool.h"
#include "common/trie_key.h"

namespace strata {

template <typename T, typename K>
class FamilyTrie {
  using Node = TrieNode<K>;
  // A bounded stack of node indexes for descents and pre-order walks (depth <= 129).
  struct Stack {
    void push(uint32_t n) {
      if (n != kTrieNil) v[size++] = n;
    }
    uint32_t pop() { return v[--size]; }
    std::array<uint32_t, 300> v;
    size_t size = 0;
  };

 public:
  static constexpr uint32_t kNil = kTrieNil;

  FamilyTrie() = default;
  FamilyTrie(const FamilyTrie&) = delete;
  FamilyTrie& operator=(const FamilyTrie&) = delete;
  // REQUIRES for moves: no node of the source (nor, for assignment, the target) is pinned.
  FamilyTrie(FamilyTrie&& o) noexcept
      : nodes_(std::move(o.nodes_)),
        values_(std::move(o.values_)),
        root_(std::exchange(o.root_, kNil)),
        size_(std::exchange(o.size_, 0)),
        jump_(std::move(o.jump_)) {
    o.pins_.clear();
    o.jump_.clear();
  }
  FamilyTrie& operator=(FamilyTrie&& o) noexcept {
    FamilyTrie tmp(std::move(o));
    std::swap(nodes_, tmp.nodes_);
    std::swap(values_, tmp.values_);
    std::swap(root_, tmp.root_);
    std::swap(size_, tmp.size_);
    std::swap(jump_, tmp.jump_);
    return *this;
  }
  ~FamilyTrie() { destroy_values(); }

  size_t size() const { return size_; }
  // True once the jump table is built (see the top of the file).
  bool jumping() const { return kJumpBits > 0 && !jump_.empty(); }

  // Inserts or overwrites; returns true if the key was new.
  bool insert(const K& key, T value) {
    bool fresh = false;
    T* v = place(key, value, fresh);
    if (!fresh) *v = std::move(value);
    return fresh;
  }

  // The value at key, inserted as `value` if the key had none (one descent, no overwrite).
  // Returns the value (stable: values live in slabs) and whether it was inserted.
  std::pair<T*, bool> try_emplace(const K& key, T value) {
    bool fresh = false;
    T* v = place(key, value, fresh);
    return {v, fresh};
  }

  // Removes the value at key; returns false if there was none. Pinned nodes stay.
  // One descent: the ancestors it passes are the path prune() would otherwise walk again.
  bool erase(const K& key) {
    Stack path;  // from the block root when the descent starts there (prune_along completes it)
    uint32_t n = start(key);
    while (n != kNil) {
      const Node& c = nodes_[n];
      if (!c.key().Contains(key)) return false;
      if (c.len() == key.len) break;
      path.push(n);
      n = c.child[key.bit(c.len())];
    }
    if (n == kNil || nodes_[n].value() == kNil) return false;
    values_.free(nodes_[n].value());
    nodes_[n].set_value(kNil);
    --size_;
    prune_along(n, path);
    return true;
  }

  // The index of the value at key in the value slab (stable until erased), or kNil; with
  // value_at(), for owners that link their values to one another with 32-bit indexes.
  uint32_t find_value(const K& key) const {
    const uint32_t n = find_node(key);
    return n == kNil ? kNil : nodes_[n].value();
  }
  // try_emplace, answering the value's slab index.
  std::pair<uint32_t, bool> try_emplace_index(const K& key, T value) {
    bool fresh = false;
    const uint32_t n = place_node(key, value, fresh);
    return {nodes_[n].value(), fresh};
  }
  // REQUIRES: i is the index of a live value.
  T& value_at(uint32_t i) { return values_[i]; }
  const T& value_at(uint32_t i) const { return values_[i]; }

  // The value at node n, or null. REQUIRES: n is a node (not kNil).
  const T* value(uint32_t n) const {
    return nodes_[n].value() != kNil ? &values_[nodes_[n].value()] : nullptr;
  }
  T* value(uint32_t n) { return nodes_[n].value() != kNil ? &values_[nodes_[n].value()] : nullptr; }
  K key(uint32_t n) const { return nodes_[n].key(); }

  // The node for exactly key, or kNil.
  uint32_t find_node(const K& key) const {
    uint32_t n = start(key);
    while (n != kNil) {
      const Node& c = nodes_[n];
      if (!c.key().Contains(key)) return kNil;
      if (c.len() == key.len) return n;
      n = c.child[key.bit(c.len())];
    }
    return kNil;
  }

  // The deepest node holding a value whose key contains the host key; kNil if none.
  uint32_t longest_node(const K& host) const {
    if (jumping() && host.len >= kJumpBits) {
      // Within the block first; only without a match there do the shorter prefixes count.
      const uint32_t deep = longest_from(jump_[host.Block()], host);
      if (deep != kNil) return deep;
    }
    return longest_from(root_, host);
  }
  uint32_t longest_from(uint32_t n, const K& host) const {
    uint32_t best = kNil;
    for (; n != kNil;) {
      const Node& c = nodes_[n];
      if (!c.key().Contains(host)) break;
      if (c.value() != kNil) best = n;
      if (c.len() == host.len) break;
      n = c.child[host.bit(c.len())];
    }
    return best;
  }

  // Calls f(node) for every node holding a value whose key contains key (key itself too), from
  // the shortest to the longest. One descent from the root.
  template <typename F>
  void each_covering(const K& key, F&& f) const {
    for (uint32_t n = root_; n != kNil;) {
      const Node& c = nodes_[n];
      if (!c.key().Contains(key)) return;
      if (c.value() != kNil) f(n);
      if (c.len() == key.len) return;
      n = c.child[key.bit(c.len())];
    }
  }

  // True if some value lies at a prefix strictly inside p (longer and contained).
  bool more_specific(const K& p) const {
    uint32_t n = root_;
    while (n != kNil && !p.Contains(nodes_[n].key())) {
      if (!nodes_[n].key().Contains(p)) return false;
      n = nodes_[n].child[p.bit(nodes_[n].len())];
    }
    if (n == kNil) return false;
    if (nodes_[n].len() > p.len) return subtree_has_value(n);
    return subtree_has_value(nodes_[n].child[0]) || subtree_has_value(nodes_[n].child[1]);
  }

  // The first node holding a value, kNil if none.
  uint32_t first_valued() const {
    Stack pending;
    pending.push(root_);
    return first_of(pending);
  }
  // The first node holding a value whose key comes after k (k need not be in the trie).
  uint32_t successor(const K& k) const {
    if (jumping() && k.len >= kJumpBits && jump_[k.Block()] != kNil) {
      // A block's prefixes are one run of the order (a shorter prefix sorts before the blocks
      // it covers): the next one in k's block, if any, is the answer.
      const uint32_t n = successor_from(jump_[k.Block()], k);
      if (n != kNil) return n;
    }
    return successor_from(root_, k);
  }
  // successor() among the subtree of n, which contains k or lies after it.
  uint32_t successor_from(uint32_t n, const K& k) const {
    Stack pending;  // subtrees after the descent point, nearest on top
    while (n != kNil) {
      const Node& c = nodes_[n];
      const K ck = c.key();
      if (ck == k) {
        pending.push(c.child[1]);
        pending.push(c.child[0]);
        break;
      }
      if (ck.Contains(k)) {
        const int b = k.bit(c.len());
        if (b == 0) pending.push(c.child[1]);
        n = c.child[b];
        continue;
      }
      // Every key under n shares ck's bits: the whole subtree lies on one side of k.
      if (k.Contains(ck) || k.AddrBelow(ck)) pending.push(n);
      break;
    }
    return first_of(pending);
  }

  // Reads the nodes on the paths to `keys` (and the values at their ends) without changing
  // anything: up to kWarmLanes descents interleaved one level at a time, so that their cache
  // misses overlap instead of following one another. A batch of changes (one UPDATE's
  // prefixes) warmed first then descends through the cache. A hint: results are the same
  // without it.
  static constexpr size_t kWarmLanes = 16;
  void warm(const K* keys, size_t count) const {
    if (root_ == kNil) return;
    for (size_t base = 0; base < count; base += kWarmLanes) {
      const size_t lanes = std::min(kWarmLanes, count - base);
      std::array<uint32_t, kWarmLanes> cur;
      for (size_t i = 0; i < lanes; ++i) cur[i] = start(keys[base + i]);
      uint32_t seen = 0;  // what the loads read, kept below so they are not optimized away
      for (bool live = true; live;) {
        live = false;
        for (size_t i = 0; i < lanes; ++i) {
          if (cur[i] == kNil) continue;
          const Node& c = nodes_[cur[i]];
          const K& k = keys[base + i];
          if (!c.key().Contains(k) || c.len() >= k.len) {
            if (c.len() == k.len && c.value() != kNil) __builtin_prefetch(&values_[c.value()]);
            cur[i] = kNil;
            continue;
          }
          cur[i] = c.child[k.bit(c.len())];
          seen += cur[i];
          if (cur[i] != kNil) {
            __builtin_prefetch(&nodes_[cur[i]]);
            live = true;
          }
        }
      }
      asm volatile("" : : "r"(seen));
    }
  }

  void pin(uint32_t n) {
    for (auto& [node, count] : pins_) {
      if (node == n) {
        ++count;
        return;
      }
    }
    pins_.emplace_back(n, 1);
  }
  void unpin(uint32_t n) {
    for (size_t i = 0; i < pins_.size(); ++i) {
      if (pins_[i].first != n) continue;
      if (--pins_[i].second == 0) {
        pins_[i] = pins_.back();
        pins_.pop_back();
      }
      return;
    }
  }

  // Removes empty nodes that no iterator stands on and that no longer join two branches.
  void prune(uint32_t n) {
    if (nodes_[n].value() != kNil || pinned(n)) return;
    // The ancestors of n, from the root (or from its block root: prune_along completes it).
    Stack path;
    const K k = nodes_[n].key();
    const uint32_t from = start(k) != kNil ? start(k) : root_;
    for (uint32_t c = from; c != n; c = nodes_[c].child[k.bit(nodes_[c].len())]) path.push(c);
    prune_along(n, path);
  }

 private:
  // prune(n) with `path` the ancestors of n from the root (consumed).
  // `path` may also start at n's block root (a descent through the jump table): the ancestors
  // above it are found from the root when the block root itself goes.
  void prune_along(uint32_t n, Stack& path) {
    while (nodes_[n].value() == kNil && !pinned(n)) {
      const std::array<uint32_t, 2> child = nodes_[n].child;
      const int children = (child[0] != kNil) + (child[1] != kNil);
      if (children == 2) return;
      if (is_block_root(n)) {
        if (children == 1) return;  // kept while its block holds anything
        jump_[nodes_[n].key().Block()] = kNil;
        if (path.size == 0 && n != root_) {
          const K k = nodes_[n].key();
          for (uint32_t c = root_; c != n; c = nodes_[c].child[k.bit(nodes_[c].len())])
            path.push(c);
        }
      }
      const uint32_t parent = path.size > 0 ? path.pop() : kNil;
      uint32_t& slot =
          parent == kNil ? root_ : nodes_[parent].child[nodes_[n].key().bit(nodes_[parent].len())];
      slot = children == 1 ? (child[0] != kNil ? child[0] : child[1]) : kNil;
      nodes_.free(n);
      if (children == 1 || parent == kNil) return;
      n = parent;
    }
  }

  // The value slot for key: the existing one (fresh = false; `value` untouched), or one made
  // from `value` (moved from; fresh = true).
  T* place(const K& key, T& value, bool& fresh) {
    return &values_[nodes_[place_node(key, value, fresh)].value()];
  }
  // place(), answering the node that holds the value.
  uint32_t place_node(const K& key, T& value, bool& fresh) {
    uint32_t n;
    if (jumping() && key.len >= kJumpBits) {
      uint32_t& block = jump_[key.Block()];
      if (block == kNil) block = make_node(&root_, K::OfBlock(key.Block()));
      uint32_t top = block;  // contains key: nothing is ever placed above it from here
      n = make_node(&top, key);
    } else {
      n = make_node(&root_, key);
    }
    fresh = nodes_[n].value() == kNil;
    if (fresh) {
      nodes_[n].set_value(values_.alloc(std::move(value)));
      if (++size_ == kJumpAfter && kJumpBits > 0 && !jumping()) build_jump();
    }
    return n;
  }

  // The node for exactly key, made without a value if missing, descending from the subtree
  // in *slot (which may get a new node above its current one).
  uint32_t make_node(uint32_t* slot, const K& key) {
    while (*slot != kNil) {
      const uint32_t cur = *slot;
      Node& c = nodes_[cur];
      const K ck = c.key();
      if (ck == key) return cur;
      if (ck.Contains(key)) {
        slot = &c.child[key.bit(c.len())];
        continue;
      }
      // cur does not contain key: put a new node above cur.
      const int common = K::Common(ck, key);
      uint32_t top;
      uint32_t holder;
      if (common == key.len) {  // key contains cur
        top = nodes_.alloc(key);
        holder = top;
        nodes_[top].child[ck.bit(key.len)] = cur;
      } else {  // siblings under a new glue node
        top = nodes_.alloc(key.Masked(common));
        holder = nodes_.alloc(key);
        const int bit = key.bit(common);
        nodes_[top].child[bit] = holder;
        nodes_[top].child[1 - bit] = cur;
      }
      *slot = top;
      return holder;
    }
    const uint32_t n = nodes_.alloc(key);
    *slot = n;
    return n;
  }

  // The jump table (see the top of the file).
  static constexpr int kJumpBits = K::kJumpBits;
  static constexpr size_t kJumpAfter = 32768;
  bool is_block_root(uint32_t n) const { return jumping() && nodes_[n].len() == kJumpBits; }
  // Where a descent for key starts: its block root, or the root.
  uint32_t start(const K& key) const {
    return jumping() && key.len >= kJumpBits ? jump_[key.Block()] : root_;
  }
  // Makes the block roots of the blocks that hold something and fills the table.
  void build_jump() {
    if constexpr (kJumpBits > 0) {
      std::vector<uint32_t> blocks;  // the blocks of the topmost nodes of /16 or longer
      Stack pending;
      pending.push(root_);
      while (pending.size > 0) {
        const Node& c = nodes_[pending.pop()];
        if (c.len() >= kJumpBits) {
          blocks.push_back(c.key().Block());
          continue;
        }
        pending.push(c.child[1]);
        pending.push(c.child[0]);
      }
      jump_.assign(size_t{1} << kJumpBits, kNil);
      for (uint32_t b : blocks) jump_[b] = make_node(&root_, K::OfBlock(b));
    }
  }

  bool subtree_has_value(uint32_t n) const {
    if (n == kNil) return false;
    if (nodes_[n].value() != kNil) return true;
    return subtree_has_value(nodes_[n].child[0]) || subtree_has_value(nodes_[n].child[1]);
  }

  bool pinned(uint32_t n) const {
    for (const auto& [node, count] : pins_) {
      if (node == n) return true;
    }
    return false;
  }

  // Pops subtrees off `pending` (the next one on top) and walks them in pre-order: the first node
  // holding a value, or kNil once pending is empty.
  uint32_t first_of(Stack& pending) const {
    while (pending.size > 0) {
      const uint32_t i = pending.pop();
      if (nodes_[i].value() != kNil) return i;
      pending.push(nodes_[i].child[1]);
      pending.push(nodes_[i].child[0]);
    }
    return kNil;
  }

  // Destroys the values still held (nodes are trivially destructible).
  void destroy_values() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      std::vector<uint32_t> stack;
      if (root_ != kNil) stack.push_back(root_);
      while (!stack.empty()) {
        const Node& n = nodes_[stack.back()];
        stack.pop_back();
        if (n.value() != kNil) values_.free(n.value());
        for (uint32_t c : n.child) {
          if (c != kNil) stack.push_back(c);
        }
      }
    }
  }

  static_assert(std::is_trivially_destructible_v<Node>);
  SlabPool<Node> nodes_;
  SlabPool<T> values_;
  uint32_t root_ = kNil;
  size_t size_ = 0;
  // Iterator counts of the nodes iterators stand on (node, count); a handful at most.
  std::vector<std::pair<uint32_t, uint32_t>> pins_;
  // Block roots by block (kNil: the block is empty); empty until kJumpAfter values.
  std::vector<uint32_t> jump_;
};

}  // namespace strata
