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
// Memory: one FamilyTrie per family (family_trie.h): nodes and values in SlabPools linked by
// 32-bit indexes; an IPv4 node is 20 bytes (a 32-bit key), an IPv6 node 32. Glue nodes hold no
// value slot. Nodes have no parent link: stepping an iterator and pruning descend from the root.
// A large IPv4 trie starts its descents at the root of their /16 block (FamilyTrie's jump table).
// REQUIRES: iterators do not outlive their trie. Thread-compatible; not thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/family_trie.h"
#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "common/trie_key.h"

namespace strata {

template <typename T>
class RouteTrie {
  static constexpr uint32_t kNil = kTrieNil;
  using Trie4 = FamilyTrie<T, TrieKey4>;
  using Trie6 = FamilyTrie<T, TrieKey6>;

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
    Iterator(const Iterator& o) : trie_(o.trie_), v6_(o.v6_), node_(o.node_) { hold(); }
    Iterator(Iterator&& o) noexcept
        : trie_(o.trie_), v6_(o.v6_), node_(std::exchange(o.node_, kNil)) {}
    Iterator& operator=(Iterator o) {
      std::swap(trie_, o.trie_);
      std::swap(v6_, o.v6_);
      std::swap(node_, o.node_);
      return *this;
    }
    ~Iterator() { release(); }

    bool at_end() const { return node_ == kNil; }
    // False when the route under the iterator was erased while it stood there.
    bool has_value() const { return node_ != kNil && value_ptr() != nullptr; }
    // REQUIRES: !at_end().
    IpPrefix key() const {
      return v6_ ? trie_->v6_.key(node_).prefix() : trie_->v4_.key(node_).prefix();
    }
    // REQUIRES: has_value().
    const T& value() const { return *value_ptr(); }
    // The value in place, for walks that update every entry. REQUIRES: has_value().
    T& mutable_value() const { return *const_cast<T*>(value_ptr()); }
    // Moves to the next node holding a value. REQUIRES: !at_end().
    Iterator& operator++() {
      bool v6 = v6_;
      uint32_t next = v6 ? trie_->v6_.successor(trie_->v6_.key(node_))
                         : trie_->v4_.successor(trie_->v4_.key(node_));
      if (next == kNil && !v6) {
        v6 = true;
        next = trie_->v6_.first_valued();
      }
      Iterator moved(trie_, v6, next);
      std::swap(v6_, moved.v6_);
      std::swap(node_, moved.node_);
      return *this;
    }

   private:
    friend class RouteTrie;
    Iterator(RouteTrie* t, bool v6, uint32_t n) : trie_(t), v6_(v6), node_(n) { hold(); }
    const T* value_ptr() const { return v6_ ? trie_->v6_.value(node_) : trie_->v4_.value(node_); }
    void hold() {
      if (node_ == kNil) return;
      if (v6_) {
        trie_->v6_.pin(node_);
      } else {
        trie_->v4_.pin(node_);
      }
    }
    void release() {
      if (node_ == kNil) return;
      if (v6_) {
        trie_->v6_.unpin(node_);
        trie_->v6_.prune(node_);
      } else {
        trie_->v4_.unpin(node_);
        trie_->v4_.prune(node_);
      }
      node_ = kNil;
    }
    RouteTrie* trie_ = nullptr;
    bool v6_ = false;
    uint32_t node_ = kNil;
  };

  RouteTrie() = default;
  RouteTrie(const RouteTrie&) = delete;
  RouteTrie& operator=(const RouteTrie&) = delete;
  // REQUIRES for moves: no iterator is open on the source (nor, for assignment, the target).
  RouteTrie(RouteTrie&& o) noexcept = default;
  RouteTrie& operator=(RouteTrie&& o) noexcept = default;

  size_t size() const { return v4_.size() + v6_.size(); }
  bool empty() const { return size() == 0; }
  // True once the IPv4 trie has its jump table (family_trie.h).
  bool ipv4_jumps() const { return v4_.jumping(); }

  // Inserts or overwrites; returns true if the key was new.
  bool insert(const IpPrefix& prefix, T value) {
    if (prefix.family() == Family::kIpv4) return v4_.insert(TrieKey4::Of(prefix), std::move(value));
    return v6_.insert(TrieKey6::Of(prefix), std::move(value));
  }

  // The value at prefix, inserted as `value` if there was none (one descent; an existing value
  // is kept). Returns the value (stable until erased) and whether it was inserted.
  std::pair<T*, bool> try_emplace(const IpPrefix& prefix, T value) {
    if (prefix.family() == Family::kIpv4)
      return v4_.try_emplace(TrieKey4::Of(prefix), std::move(value));
    return v6_.try_emplace(TrieKey6::Of(prefix), std::move(value));
  }

  // Handles: 32-bit names of values, stable until erased (their slab index, the top bit set
  // for IPv6), for owners that link their values to one another (chains) in 4 bytes a link
  // instead of 8. kNoHandle names nothing.
  static constexpr uint32_t kNoHandle = kNil;
  uint32_t find_handle(const IpPrefix& key) const {
    if (key.family() == Family::kIpv4) return v4_.find_value(TrieKey4::Of(key));
    const uint32_t i = v6_.find_value(TrieKey6::Of(key));
    return i == kNil ? kNil : (i | kV6Handle);
  }
  // try_emplace, answering the value's handle.
  std::pair<uint32_t, bool> try_emplace_handle(const IpPrefix& prefix, T value) {
    if (prefix.family() == Family::kIpv4) {
      auto r = v4_.try_emplace_index(TrieKey4::Of(prefix), std::move(value));
      if (r.first & kV6Handle) std::abort();  // 2^31 values: more than a node can name anyway
      return r;
    }
    auto [i, fresh] = v6_.try_emplace_index(TrieKey6::Of(prefix), std::move(value));
    if (i & kV6Handle) std::abort();
    return {i | kV6Handle, fresh};
  }
  // REQUIRES: h names a live value.
  T& at(uint32_t h) { return h & kV6Handle ? v6_.value_at(h & ~kV6Handle) : v4_.value_at(h); }
  const T& at(uint32_t h) const {
    return h & kV6Handle ? v6_.value_at(h & ~kV6Handle) : v4_.value_at(h);
  }

  // Removes the value at key; returns false if there was none. Iterators on it stay valid.
  bool erase(const IpPrefix& key) {
    if (key.family() == Family::kIpv4) return v4_.erase(TrieKey4::Of(key));
    return v6_.erase(TrieKey6::Of(key));
  }

  const T* find(const IpPrefix& key) const {
    return const_cast<RouteTrie*>(this)->find_mutable(key);
  }
  T* find_mutable(const IpPrefix& key) {
    if (key.family() == Family::kIpv4) return found(v4_, v4_.find_node(TrieKey4::Of(key)));
    return found(v6_, v6_.find_node(TrieKey6::Of(key)));
  }

  // Warms the paths to these prefixes for the changes or lookups about to follow (see
  // FamilyTrie::warm); a hint that changes nothing.
  void warm(std::span<const IpPrefix> prefixes) const {
    constexpr size_t kChunk = 64;
    std::array<TrieKey4, kChunk> k4;
    std::array<TrieKey6, kChunk> k6;
    size_t n4 = 0;
    size_t n6 = 0;
    for (const IpPrefix& p : prefixes) {
      if (p.family() == Family::kIpv4) {
        k4[n4++] = TrieKey4::Of(p);
        if (n4 == kChunk) v4_.warm(k4.data(), std::exchange(n4, 0));
      } else {
        k6[n6++] = TrieKey6::Of(p);
        if (n6 == kChunk) v6_.warm(k6.data(), std::exchange(n6, 0));
      }
    }
    v4_.warm(k4.data(), n4);
    v6_.warm(k6.data(), n6);
  }

  // The longest prefix holding a value that contains addr.
  Hit longest_match(const IpAddr& addr) const {
    if (addr.family() == Family::kIpv4) return longest(v4_, TrieKey4::Of(addr));
    return longest(v6_, TrieKey6::Of(addr));
  }

  // True if some value lies at a prefix strictly inside p (longer and contained).
  bool has_more_specific(const IpPrefix& p) const {
    if (p.family() == Family::kIpv4) return v4_.more_specific(TrieKey4::Of(p));
    return v6_.more_specific(TrieKey6::Of(p));
  }

  // Calls f(prefix, value) for every entry whose prefix contains p (p itself too), from the
  // shortest prefix to the longest.
  template <typename F>
  void each_covering(const IpPrefix& p, F&& f) const {
    if (p.family() == Family::kIpv4) {
      v4_.each_covering(TrieKey4::Of(p),
                        [&](uint32_t n) { f(v4_.key(n).prefix(), *v4_.value(n)); });
    } else {
      v6_.each_covering(TrieKey6::Of(p),
                        [&](uint32_t n) { f(v6_.key(n).prefix(), *v6_.value(n)); });
    }
  }

  Range range(const IpAddr& addr) const {
    if (addr.family() == Family::kIpv4) return range_in(v4_, TrieKey4::Of(addr));
    return range_in(v6_, TrieKey6::Of(addr));
  }

  // The first entry holding a value whose key comes after `after` in the order described above
  // (the first entry of all for nullopt); value is null past the end. No iterator needed.
  Hit next_after(const std::optional<IpPrefix>& after) const {
    if (after && after->family() == Family::kIpv6) {
      return hit(v6_, v6_.successor(TrieKey6::Of(*after)));
    }
    const uint32_t n4 = after ? v4_.successor(TrieKey4::Of(*after)) : v4_.first_valued();
    if (n4 != kNil) return hit(v4_, n4);
    return hit(v6_, v6_.first_valued());
  }

  // The first node holding a value, in the order described above.
  Iterator begin() {
    const uint32_t n4 = v4_.first_valued();
    if (n4 != kNil) return Iterator(this, false, n4);
    const uint32_t n6 = v6_.first_valued();
    return n6 == kNil ? Iterator() : Iterator(this, true, n6);
  }

 private:
  template <typename Trie>
  static T* found(Trie& t, uint32_t n) {
    return n == kNil ? nullptr : t.value(n);
  }
  // The entry at node n (a match holding a value), or a null hit for kNil.
  template <typename Trie>
  static Hit hit(const Trie& t, uint32_t n) {
    if (n == kNil) return Hit{IpPrefix(), nullptr};
    return Hit{t.key(n).prefix(), t.value(n)};
  }
  template <typename Trie, typename K>
  static Hit longest(const Trie& t, const K& host) {
    const uint32_t n = t.longest_node(host);
    if (n == kNil) return Hit{IpPrefix::Default(K::kFamily), nullptr};
    return Hit{t.key(n).prefix(), t.value(n)};
  }
  template <typename Trie, typename K>
  static Range range_in(const Trie& t, const K& host) {
    const uint32_t n = t.longest_node(host);
    Range r{Hit{IpPrefix::Default(K::kFamily), nullptr}, IpPrefix::Default(K::kFamily)};
    K valid = host.Masked(0);
    if (n != kNil) {
      valid = t.key(n);
      r.match = Hit{valid.prefix(), t.value(n)};
    }
    while (valid.len < host.len && t.more_specific(valid)) valid = host.Masked(valid.len + 1);
    r.valid = valid.prefix();
    return r;
  }

  static constexpr uint32_t kV6Handle = uint32_t{1} << 31;
  Trie4 v4_;
  Trie6 v6_;
};

}  // namespace strata
