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
// REQUIRES: iterators do not outlive their trie. Thread-compatible; not thread-safe.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <memory>
#include <optional>
#include <utility>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"

namespace strata::rib {

template <typename T>
class RouteTrie {
  struct Node {
    explicit Node(const IpPrefix& k) : key(k) {}
    IpPrefix key;
    std::optional<T> value;
    Node* parent = nullptr;
    std::array<std::unique_ptr<Node>, 2> child;
    uint32_t iterators = 0;
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
    Iterator(Iterator&& o) noexcept : trie_(o.trie_), node_(std::exchange(o.node_, nullptr)) {}
    Iterator& operator=(Iterator o) {
      std::swap(trie_, o.trie_);
      std::swap(node_, o.node_);
      return *this;
    }
    ~Iterator() { release(); }

    bool at_end() const { return node_ == nullptr; }
    // False when the route under the iterator was erased while it stood there.
    bool has_value() const { return node_ && node_->value.has_value(); }
    // REQUIRES: !at_end().
    const IpPrefix& key() const { return node_->key; }
    // REQUIRES: has_value().
    const T& value() const { return *node_->value; }
    // Moves to the next node holding a value. REQUIRES: !at_end().
    Iterator& operator++() {
      Node* next = trie_->next_valued(node_);
      if (next) ++next->iterators;
      release();
      node_ = next;
      return *this;
    }

   private:
    friend class RouteTrie;
    Iterator(RouteTrie* t, Node* n) : trie_(t), node_(n) { hold(); }
    void hold() {
      if (node_) ++node_->iterators;
    }
    void release() {
      if (!node_) return;
      --node_->iterators;
      trie_->prune(node_);
      node_ = nullptr;
    }
    RouteTrie* trie_ = nullptr;
    Node* node_ = nullptr;
  };

  RouteTrie() = default;
  RouteTrie(const RouteTrie&) = delete;
  RouteTrie& operator=(const RouteTrie&) = delete;
  // REQUIRES for moves: no iterator is open on the source.
  RouteTrie(RouteTrie&&) noexcept = default;
  RouteTrie& operator=(RouteTrie&&) noexcept = default;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Inserts or overwrites; returns true if the key was new.
  bool insert(const IpPrefix& key, T value) {
    std::unique_ptr<Node>* slot = &root(key.family());
    Node* parent = nullptr;
    while (*slot) {
      Node* cur = slot->get();
      if (cur->key == key) {
        const bool fresh = !cur->value.has_value();
        cur->value = std::move(value);
        size_ += fresh;
        return fresh;
      }
      if (cur->key.Contains(key)) {
        parent = cur;
        slot = &cur->child[key.addr().bit(cur->key.len())];
        continue;
      }
      // cur does not contain key: put a new node above cur.
      const int common = CommonLength(cur->key, key);
      auto old = std::move(*slot);
      std::unique_ptr<Node> top;
      if (common == key.len()) {  // key contains cur
        top = std::make_unique<Node>(key);
        top->value = std::move(value);
        old->parent = top.get();
        top->child[old->key.addr().bit(key.len())] = std::move(old);
      } else {  // siblings under a new glue node
        top = std::make_unique<Node>(IpPrefix(key.addr(), common));
        auto leaf = std::make_unique<Node>(key);
        leaf->value = std::move(value);
        leaf->parent = top.get();
        old->parent = top.get();
        const int bit = key.addr().bit(common);
        top->child[bit] = std::move(leaf);
        top->child[1 - bit] = std::move(old);
      }
      top->parent = parent;
      *slot = std::move(top);
      ++size_;
      return true;
    }
    *slot = std::make_unique<Node>(key);
    (*slot)->value = std::move(value);
    (*slot)->parent = parent;
    ++size_;
    return true;
  }

  // Removes the value at key; returns false if there was none. Iterators on it stay valid.
  bool erase(const IpPrefix& key) {
    Node* n = find_node(key);
    if (!n || !n->value) return false;
    n->value.reset();
    --size_;
    prune(n);
    return true;
  }

  const T* find(const IpPrefix& key) const {
    const Node* n = find_node(key);
    return n && n->value ? &*n->value : nullptr;
  }
  T* find_mutable(const IpPrefix& key) {
    Node* n = find_node(key);
    return n && n->value ? &*n->value : nullptr;
  }

  // The longest prefix holding a value that contains addr.
  Hit longest_match(const IpAddr& addr) const {
    Hit hit{IpPrefix::Default(addr.family()), nullptr};
    for (const Node* n = root(addr.family()).get(); n && n->key.Contains(addr);) {
      if (n->value) hit = Hit{n->key, &*n->value};
      if (n->key.len() == addr.bit_length()) break;
      n = n->child[addr.bit(n->key.len())].get();
    }
    return hit;
  }

  // True if some value lies at a prefix strictly inside p (longer and contained).
  bool has_more_specific(const IpPrefix& p) const {
    const Node* n = root(p.family()).get();
    while (n && !p.Contains(n->key)) {
      if (!n->key.Contains(p)) return false;
      n = n->child[p.addr().bit(n->key.len())].get();
    }
    if (!n) return false;
    if (n->key.len() > p.len()) return subtree_has_value(n);
    return subtree_has_value(n->child[0].get()) || subtree_has_value(n->child[1].get());
  }

  Range range(const IpAddr& addr) const {
    Range r{longest_match(addr), IpPrefix::Default(addr.family())};
    r.valid = r.match.prefix;
    while (r.valid.len() < addr.bit_length() && has_more_specific(r.valid)) {
      r.valid = IpPrefix(addr, r.valid.len() + 1);
    }
    return r;
  }

  // The first node holding a value, in the order described above.
  Iterator begin() {
    for (auto& r : roots_) {
      if (!r) continue;
      Node* n = r->value ? r.get() : next_valued(r.get());
      return Iterator(this, n);
    }
    return Iterator();
  }

 private:
  static int CommonLength(const IpPrefix& a, const IpPrefix& b) {
    const int max = std::min(a.len(), b.len());
    int i = 0;
    while (i < max && a.addr().bit(i) == b.addr().bit(i)) ++i;
    return i;
  }
  static bool subtree_has_value(const Node* n) {
    if (!n) return false;
    if (n->value) return true;
    return subtree_has_value(n->child[0].get()) || subtree_has_value(n->child[1].get());
  }

  std::unique_ptr<Node>& root(Family f) { return roots_[f == Family::kIpv4 ? 0 : 1]; }
  const std::unique_ptr<Node>& root(Family f) const { return roots_[f == Family::kIpv4 ? 0 : 1]; }
  std::unique_ptr<Node>& slot_of(Node* n) {
    if (!n->parent) return root(n->key.family());
    return n->parent->child[0].get() == n ? n->parent->child[0] : n->parent->child[1];
  }

  Node* find_node(const IpPrefix& key) const {
    Node* n = root(key.family()).get();
    while (n && n->key.Contains(key)) {
      if (n->key.len() == key.len()) return n;
      n = n->child[key.addr().bit(n->key.len())].get();
    }
    return nullptr;
  }

  // Pre-order successor of n holding a value, crossing from IPv4 to IPv6; null at the end.
  Node* next_valued(Node* n) const {
    while (true) {
      n = next_node(n);
      if (!n || n->value) return n;
    }
  }
  Node* next_node(Node* n) const {
    if (n->child[0]) return n->child[0].get();
    if (n->child[1]) return n->child[1].get();
    while (n->parent) {
      Node* p = n->parent;
      if (p->child[0].get() == n && p->child[1]) return p->child[1].get();
      n = p;
    }
    if (n->key.family() == Family::kIpv4 && roots_[1]) return roots_[1].get();
    return nullptr;
  }

  // Removes empty nodes that no iterator stands on and that no longer join two branches.
  void prune(Node* n) {
    while (n && !n->value && n->iterators == 0) {
      const int children = (n->child[0] != nullptr) + (n->child[1] != nullptr);
      if (children == 2) return;
      Node* parent = n->parent;
      std::unique_ptr<Node>& slot = slot_of(n);
      if (children == 1) {
        auto only = std::move(n->child[0] ? n->child[0] : n->child[1]);
        only->parent = parent;
        slot = std::move(only);  // destroys n
        return;
      }
      slot.reset();
      n = parent;
    }
  }

  std::array<std::unique_ptr<Node>, 2> roots_;
  size_t size_ = 0;
};

}  // namespace strata::rib
