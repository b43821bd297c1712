// RouteTrie<T>: a Patricia trie keyed by IpPrefix (IPv4 and IPv6 side by side) with safe iterators.
//
// Why safe iterators: background tasks (deleting a protocol's routes, re-stamping a table after an
// admin distance change, sweeping stale routes) walk a table in slices and pause between them,
// while ordinary route changes keep arriving. As in XORP (paper section 5.3), each node counts the
// iterators standing on it; erasing a node that an iterator stands on only clears its value, and
// the last iterator to leave removes it. An iterator therefore never dangles: after a pause it
// either still stands on its route or on an emptied node, and ++ moves to the next live route.
//
// Order: IPv4 before IPv6; within a family, pre-order, i.e. by address and a covering prefix
// before the prefixes it contains (the order of IpPrefix's operator<=>).
// Memory: nodes and values live in SlabPools, linked by 32-bit indexes; a node keeps its key as
// two 64-bit words and a length (40 bytes, where a heap node with an IpPrefix key and pointers took
// a 96-byte chunk). Glue nodes hold no value slot.
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
    uint32_t parent = kNil;
    std::array<uint32_t, 2> child = {kNil, kNil};
    uint32_t value = kNil;  // index in values_, kNil for none
    uint32_t iterators = 0;
    uint8_t len;
    Family family;
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
      if (next != kNil) ++trie_->nodes_[next].iterators;
      release();
      node_ = next;
      return *this;
    }

   private:
    friend class RouteTrie;
    Iterator(RouteTrie* t, uint32_t n) : trie_(t), node_(n) { hold(); }
    void hold() {
      if (node_ != kNil) ++trie_->nodes_[node_].iterators;
    }
    void release() {
      if (node_ == kNil) return;
      --trie_->nodes_[node_].iterators;
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
        size_(std::exchange(o.size_, 0)) {}
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
    uint32_t parent = kNil;
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
        parent = cur;
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
        nodes_[leaf].parent = top;
        const int bit = key.bit(common);
        nodes_[top].child[bit] = leaf;
        nodes_[top].child[1 - bit] = cur;
      }
      nodes_[cur].parent = top;
      nodes_[top].parent = parent;
      *slot = top;
      ++size_;
      return true;
    }
    *slot = new_node(key);
    nodes_[*slot].value = values_.alloc(std::move(value));
    nodes_[*slot].parent = parent;
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
    uint32_t n = kNil;
    if (!after) {
      n = first_valued_from(roots_[0] != kNil ? roots_[0] : roots_[1]);
    } else {
      n = successor(TrieKey::Of(*after));
    }
    if (n == kNil) return Hit{IpPrefix(), nullptr};
    return Hit{nodes_[n].key().prefix(), &values_[nodes_[n].value]};
  }

  // The first node holding a value, in the order described above.
  Iterator begin() {
    for (uint32_t r : roots_) {
      if (r == kNil) continue;
      return Iterator(this, nodes_[r].value != kNil ? r : next_valued(r));
    }
    return Iterator();
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
  uint32_t& slot_of(uint32_t n) {
    const uint32_t p = nodes_[n].parent;
    if (p == kNil) return root(nodes_[n].family);
    return nodes_[p].child[0] == n ? nodes_[p].child[0] : nodes_[p].child[1];
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

  // Pre-order successor of n holding a value, crossing from IPv4 to IPv6; kNil at the end.
  uint32_t next_valued(uint32_t n) const {
    while (true) {
      n = next_node(n);
      if (n == kNil || nodes_[n].value != kNil) return n;
    }
  }
  uint32_t next_node(uint32_t n) const {
    if (nodes_[n].child[0] != kNil) return nodes_[n].child[0];
    if (nodes_[n].child[1] != kNil) return nodes_[n].child[1];
    while (nodes_[n].parent != kNil) {
      const uint32_t p = nodes_[n].parent;
      if (nodes_[p].child[0] == n && nodes_[p].child[1] != kNil) return nodes_[p].child[1];
      n = p;
    }
    if (nodes_[n].family == Family::kIpv4 && roots_[1] != kNil) return roots_[1];
    return kNil;
  }

  uint32_t first_valued_from(uint32_t n) const {
    if (n == kNil || nodes_[n].value != kNil) return n;
    return next_valued(n);
  }
  // The first node holding a value after the whole subtree of n.
  uint32_t after_subtree(uint32_t n) const {
    while (nodes_[n].parent != kNil) {
      const uint32_t p = nodes_[n].parent;
      if (nodes_[p].child[0] == n && nodes_[p].child[1] != kNil) {
        return first_valued_from(nodes_[p].child[1]);
      }
      n = p;
    }
    if (nodes_[n].family == Family::kIpv4) return first_valued_from(roots_[1]);
    return kNil;
  }
  // The first node holding a value whose key comes after k (k need not be in the trie).
  uint32_t successor(const TrieKey& k) const {
    uint32_t n = root(k.family);
    if (n == kNil) return k.family == Family::kIpv4 ? first_valued_from(roots_[1]) : kNil;
    while (true) {
      const Node& c = nodes_[n];
      const TrieKey ck = c.key();
      if (ck == k) return next_valued(n);
      if (ck.Contains(k)) {
        const int b = k.bit(c.len);
        if (c.child[b] != kNil) {
          n = c.child[b];
          continue;
        }
        if (b == 0 && c.child[1] != kNil) return first_valued_from(c.child[1]);
        return after_subtree(n);
      }
      // Every key under n shares ck's bits: the whole subtree lies on one side of k.
      const bool subtree_after = k.Contains(ck) || k.hi < ck.hi || (k.hi == ck.hi && k.lo < ck.lo);
      return subtree_after ? first_valued_from(n) : after_subtree(n);
    }
  }

  // Removes empty nodes that no iterator stands on and that no longer join two branches.
  void prune(uint32_t n) {
    while (n != kNil && nodes_[n].value == kNil && nodes_[n].iterators == 0) {
      const std::array<uint32_t, 2> child = nodes_[n].child;
      const int children = (child[0] != kNil) + (child[1] != kNil);
      if (children == 2) return;
      const uint32_t parent = nodes_[n].parent;
      uint32_t& slot = slot_of(n);
      if (children == 1) {
        const uint32_t only = child[0] != kNil ? child[0] : child[1];
        nodes_[only].parent = parent;
        slot = only;
        nodes_.free(n);
        return;
      }
      slot = kNil;
      nodes_.free(n);
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
};

}  // namespace strata::rib
