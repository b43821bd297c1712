// RouteTrie<T>: a Patricia trie keyed by IpPrefix (IPv4 and IPv6 side by side) with safe iterators.
//
// Why safe iterators: background tasks (deleting a protocol's routes, re-stamping a table after an
// admin distance change, sweeping stale routes) walk a table in slices and pause between them,
// while ordinary route changes keep arriving. As in XORP (paper section 5.3), the trie counts the
// iterators standing on each node (in a small side table: iterators are few); erasing a node that
// an iterator stands on only clears its value, and the last iterator to leave removes it. An
// iterator therefore never dangles: after a pause it either still stands on its route or on an
// emptied node, and ++ moves to the next live route.
//
// Order: IPv4 before IPv6; within a family, pre-order, i.e. by address and a covering prefix
// before the prefixes it contains (the order of IpPrefix's operator<=>).
// Memory: nodes and values live in SlabPools, linked by 32-bit indexes; a node keeps its key as
// two 64-bit words and a length, two child indexes and a value index (32 bytes, where a heap node
// with an IpPrefix key and pointers took a 96-byte chunk). Glue nodes hold no value slot. Nodes
// have no parent link: stepping an iterator and pruning descend from the root (O(depth)).
// REQUIRES: iterators do not outlive their trie. Thread-compatible; not thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "rib/slab_pool.h"
#include "rib/trie_key.h"

namespace strata::rib {

template <typename T>
class RouteTrie {
  static constexpr uint32_t kNil = SlabPool<T>::kNil;
  struct Node {
    explicit Node(const TrieKey& k) : hi(k.hi), lo(k.lo), len(k.len), family(k.family) {}
    TrieKey key() const { return TrieKey{hi, lo, len, family}; }
    uint64_t hi;
    uint64_t lo;
    std::array<uint32_t, 2> child = {kNil, kNil};
    uint32_t value = kNil;  // index in values_, kNil for none
    uint8_t len;
    Family family;
  };
  static_assert(sizeof(Node) == 32);
  // A bounded stack of node indexes for descents and pre-order walks (depth <= 129 per family).
  struct Stack {
    void push(uint32_t n) {
      if (n != kNil) v[size++] = n;
    }
    uint32_t pop() { return v[--size]; }
    std::array<uint32_t, 300> v;
    size_t size = 0;
  };

 public:
  // A match: the prefix and its value; value is null when nothing matched.
  struct Hit {
    IpPrefix prefix;
    const T* value = nullptr;
  };
  // The longest match for an address and the largest subnet around it over which that answer
  // holds (no more specific entry overlays it). Without a match, the largest subnet holding none.
  struct Range {
    Hit match;
    IpPrefix valid;
  };

  class Iterator {
   public:
    Iterator() = default;
    Iterator(const Iterator& o) : trie_(o.trie_), node_(o.node_) { hold(); }
    Iterator(Iterator&& o) noexcept : trie_(o.trie_), node_(std::exchange(o.node_, kNil)) {}
    Iterator& operator=(Iterator o) {
      std::swap(trie_, o.trie_);
      std::swap(node_, o.node_);
      return *this;
    }
    ~Iterator() { release(); }

    bool at_end() const { return node_ == kNil; }
    // False when the route under the iterator was erased while it stood there.
    bool has_value() const { return node_ != kNil && trie_->nodes_[node_].value != kNil; }
    // REQUIRES: !at_end().
    IpPrefix key() const { return trie_->nodes_[node_].key().prefix(); }
    // REQUIRES: has_value().
    const T& value() const { return trie_->values_[trie_->nodes_[node_].value]; }
    // Moves to the next node holding a value. REQUIRES: !at_end().
    Iterator& operator++() {
      const uint32_t next = trie_->next_valued(node_);
      if (next != kNil) trie_->pin(next);
      release();
      node_ = next;
      return *this;
    }

   private:
    friend class RouteTrie;
    Iterator(RouteTrie* t, uint32_t n) : trie_(t), node_(n) { hold(); }
    void hold() {
      if (node_ != kNil) trie_->pin(node_);
    }
    void release() {
      if (node_ == kNil) return;
      trie_->unpin(node_);
      trie_->prune(node_);
      node_ = kNil;
    }
    RouteTrie* trie_ = nullptr;
    uint32_t node_ = kNil;
  };

  RouteTrie() = default;
  RouteTrie(const RouteTrie&) = delete;
  RouteTrie& operator=(const RouteTrie&) = delete;
  // REQUIRES for moves: no iterator is open on the source (nor, for assignment, the target).
  RouteTrie(RouteTrie&& o) noexcept
      : nodes_(std::move(o.nodes_)),
        values_(std::move(o.values_)),
        roots_(std::exchange(o.roots_, {kNil, kNil})),
        size_(std::exchange(o.size_, 0)) {
    o.pins_.clear();
  }
  RouteTrie& operator=(RouteTrie&& o) noexcept {
    RouteTrie tmp(std::move(o));
    std::swap(nodes_, tmp.nodes_);
    std::swap(values_, tmp.values_);
    std::swap(roots_, tmp.roots_);
    std::swap(size_, tmp.size_);
    return *this;
  }
  ~RouteTrie() { destroy_values(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Inserts or overwrites; returns true if the key was new.
  bool insert(const IpPrefix& prefix, T value) {
    const TrieKey key = TrieKey::Of(prefix);
    uint32_t* slot = &root(key.family);
    while (*slot != kNil) {
      const uint32_t cur = *slot;
      Node& c = nodes_[cur];
      const TrieKey ck = c.key();
      if (ck == key) {
        if (c.value != kNil) {
          values_[c.value] = std::move(value);
          return false;
        }
        c.value = values_.alloc(std::move(value));
        ++size_;
        return true;
      }
      if (ck.Contains(key)) {
        slot = &c.child[key.bit(c.len)];
        continue;
      }
      // cur does not contain key: put a new node above cur.
      const int common = TrieKey::Common(ck, key);
      uint32_t top;
      if (common == key.len) {  // key contains cur
        top = new_node(key);
        nodes_[top].value = values_.alloc(std::move(value));
        nodes_[top].child[ck.bit(key.len)] = cur;
      } else {  // siblings under a new glue node
        top = new_node(key.Masked(common));
        const uint32_t leaf = new_node(key);
        nodes_[leaf].value = values_.alloc(std::move(value));
        const int bit = key.bit(common);
        nodes_[top].child[bit] = leaf;
        nodes_[top].child[1 - bit] = cur;
      }
      *slot = top;
      ++size_;
      return true;
    }
    *slot = new_node(key);
    nodes_[*slot].value = values_.alloc(std::move(value));
    ++size_;
    return true;
  }

  // Removes the value at key; returns false if there was none. Iterators on it stay valid.
  bool erase(const IpPrefix& key) {
    const uint32_t n = find_node(TrieKey::Of(key));
    if (n == kNil || nodes_[n].value == kNil) return false;
    values_.free(nodes_[n].value);
    nodes_[n].value = kNil;
    --size_;
    prune(n);
    return true;
  }

  const T* find(const IpPrefix& key) const {
    const uint32_t n = find_node(TrieKey::Of(key));
    return n != kNil && nodes_[n].value != kNil ? &values_[nodes_[n].value] : nullptr;
  }
  T* find_mutable(const IpPrefix& key) {
    const uint32_t n = find_node(TrieKey::Of(key));
    return n != kNil && nodes_[n].value != kNil ? &values_[nodes_[n].value] : nullptr;
  }

  // The longest prefix holding a value that contains addr.
  Hit longest_match(const IpAddr& addr) const {
    const uint32_t n = longest_node(TrieKey::Of(addr));
    if (n == kNil) return Hit{IpPrefix::Default(addr.family()), nullptr};
    return Hit{nodes_[n].key().prefix(), &values_[nodes_[n].value]};
  }

  // True if some value lies at a prefix strictly inside p (longer and contained).
  bool has_more_specific(const IpPrefix& p) const { return more_specific(TrieKey::Of(p)); }

  Range range(const IpAddr& addr) const {
    const TrieKey host = TrieKey::Of(addr);
    const uint32_t n = longest_node(host);
    Range r{Hit{IpPrefix::Default(addr.family()), nullptr}, IpPrefix::Default(addr.family())};
    TrieKey valid = host.Masked(0);
    if (n != kNil) {
      valid = nodes_[n].key();
      r.match = Hit{valid.prefix(), &values_[nodes_[n].value]};
    }
    while (valid.len < host.len && more_specific(valid)) valid = host.Masked(valid.len + 1);
    r.valid = valid.prefix();
    return r;
  }

  // The first entry holding a value whose key comes after `after` in the order described above
  // (the first entry of all for nullopt); value is null past the end. No iterator needed.
  Hit next_after(const std::optional<IpPrefix>& after) const {
    const uint32_t n = after ? successor(TrieKey::Of(*after)) : first_valued();
    if (n == kNil) return Hit{IpPrefix(), nullptr};
    return Hit{nodes_[n].key().prefix(), &values_[nodes_[n].value]};
  }

  // The first node holding a value, in the order described above.
  Iterator begin() {
    const uint32_t n = first_valued();
    return n == kNil ? Iterator() : Iterator(this, n);
  }

 private:
  uint32_t new_node(const TrieKey& k) { return nodes_.alloc(k); }

  bool subtree_has_value(uint32_t n) const {
    if (n == kNil) return false;
    if (nodes_[n].value != kNil) return true;
    return subtree_has_value(nodes_[n].child[0]) || subtree_has_value(nodes_[n].child[1]);
  }

  uint32_t& root(Family f) { return roots_[f == Family::kIpv4 ? 0 : 1]; }
  uint32_t root(Family f) const { return roots_[f == Family::kIpv4 ? 0 : 1]; }

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
  bool pinned(uint32_t n) const {
    for (const auto& [node, count] : pins_) {
      if (node == n) return true;
    }
    return false;
  }

  uint32_t find_node(const TrieKey& key) const {
    uint32_t n = root(key.family);
    while (n != kNil) {
      const Node& c = nodes_[n];
      if (!c.key().Contains(key)) return kNil;
      if (c.len == key.len) return n;
      n = c.child[key.bit(c.len)];
    }
    return kNil;
  }

  // The deepest node holding a value whose key contains the host key; kNil if none.
  uint32_t longest_node(const TrieKey& host) const {
    uint32_t best = kNil;
    for (uint32_t n = root(host.family); n != kNil;) {
      const Node& c = nodes_[n];
      if (!c.key().Contains(host)) break;
      if (c.value != kNil) best = n;
      if (c.len == host.len) break;
      n = c.child[host.bit(c.len)];
    }
    return best;
  }

  bool more_specific(const TrieKey& p) const {
    uint32_t n = root(p.family);
    while (n != kNil && !p.Contains(nodes_[n].key())) {
      if (!nodes_[n].key().Contains(p)) return false;
      n = nodes_[n].child[p.bit(nodes_[n].len)];
    }
    if (n == kNil) return false;
    if (nodes_[n].len > p.len) return subtree_has_value(n);
    return subtree_has_value(nodes_[n].child[0]) || subtree_has_value(nodes_[n].child[1]);
  }

  // Pops subtrees off `pending` (the next one on top) and walks them in pre-order: the first node
  // holding a value, or kNil once pending is empty.
  uint32_t first_of(Stack& pending) const {
    while (pending.size > 0) {
      const uint32_t i = pending.pop();
      if (nodes_[i].value != kNil) return i;
      pending.push(nodes_[i].child[1]);
      pending.push(nodes_[i].child[0]);
    }
    return kNil;
  }
  uint32_t first_valued() const {
    Stack pending;
    pending.push(roots_[1]);
    pending.push(roots_[0]);
    return first_of(pending);
  }
  // The next node holding a value after n in iteration order (n may be an emptied node).
  uint32_t next_valued(uint32_t n) const { return successor(nodes_[n].key()); }
  // The first node holding a value whose key comes after k (k need not be in the trie).
  uint32_t successor(const TrieKey& k) const {
    Stack pending;  // subtrees after the descent point, nearest on top
    if (k.family == Family::kIpv4) pending.push(roots_[1]);
    uint32_t n = root(k.family);
    while (n != kNil) {
      const Node& c = nodes_[n];
      const TrieKey ck = c.key();
      if (ck == k) {
        pending.push(c.child[1]);
        pending.push(c.child[0]);
        break;
      }
      if (ck.Contains(k)) {
        const int b = k.bit(c.len);
        if (b == 0) pending.push(c.child[1]);
        n = c.child[b];
        continue;
      }
      // Every key under n shares ck's bits: the whole subtree lies on one side of k.
      if (k.Contains(ck) || k.hi < ck.hi || (k.hi == ck.hi && k.lo < ck.lo)) pending.push(n);
      break;
    }
    return first_of(pending);
  }

  // Removes empty nodes that no iterator stands on and that no longer join two branches.
  void prune(uint32_t n) {
    if (nodes_[n].value != kNil || pinned(n)) return;
    // The ancestors of n, from the root.
    Stack path;
    const TrieKey k = nodes_[n].key();
    for (uint32_t c = root(k.family); c != n; c = nodes_[c].child[k.bit(nodes_[c].len)]) {
      path.push(c);
    }
    while (nodes_[n].value == kNil && !pinned(n)) {
      const std::array<uint32_t, 2> child = nodes_[n].child;
      const int children = (child[0] != kNil) + (child[1] != kNil);
      if (children == 2) return;
      const uint32_t parent = path.size > 0 ? path.pop() : kNil;
      uint32_t& slot = parent == kNil
                           ? root(nodes_[n].family)
                           : nodes_[parent].child[nodes_[n].key().bit(nodes_[parent].len)];
      slot = children == 1 ? (child[0] != kNil ? child[0] : child[1]) : kNil;
      nodes_.free(n);
      if (children == 1 || parent == kNil) return;
      n = parent;
    }
  }

  // Destroys the values still held (nodes are trivially destructible).
  void destroy_values() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      for (uint32_t r : roots_) {
        std::vector<uint32_t> stack;
        if (r != kNil) stack.push_back(r);
        while (!stack.empty()) {
          const Node& n = nodes_[stack.back()];
          stack.pop_back();
          if (n.value != kNil) values_.free(n.value);
          for (uint32_t c : n.child) {
            if (c != kNil) stack.push_back(c);
          }
        }
      }
    }
  }

  static_assert(std::is_trivially_destructible_v<Node>);
  SlabPool<Node> nodes_;
  SlabPool<T> values_;
  std::array<uint32_t, 2> roots_ = {kNil, kNil};
  size_t size_ = 0;
  // Iterator counts of the nodes iterators stand on (node, count); a handful at most.
  std::vector<std::pair<uint32_t, uint32_t>> pins_;
};

}  // namespace strata::rib
