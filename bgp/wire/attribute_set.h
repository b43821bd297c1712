// AttributeSet: an immutable, hashable, ordered PathAttributes to be shared between routes.
//
// Routes point at an `AttributeSetPtr`, a boost::intrusive_ptr: the set counts its references
// itself (atomically, so sets may be shared between threads), so a reference is 8 bytes, not
// the 16 of a std::shared_ptr, and a set needs no separate control block. An interning table
// (the speaker's) registers itself with the sets it makes (`Registry`) and is told when one is
// destroyed, so it can hold plain pointers; tables of references can key on
// AttributeSetPtrHash/AttributeSetPtrEq so that equal sets are stored once. The hash is
// computed once at construction. Immutable, so safe to share between threads.
#pragma once

#include <atomic>
#include <boost/intrusive_ptr.hpp>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "bgp/wire/path_attributes.h"

namespace strata::bgp {

class AttributeSet {
 public:
  // The owner of the sets it made: told just before one of them is destroyed (the last
  // reference went), on the thread that dropped it.
  class Registry {
   public:
    virtual void Forget(const AttributeSet* set) = 0;

   protected:
    ~Registry() = default;
  };

  explicit AttributeSet(PathAttributes attrs) : attrs_(std::move(attrs)), hash_(attrs_.Hash()) {
    attrs_.Compact();
  }
  // With the hash already computed (attrs.Hash()), and the registry to tell at the end (may be
  // null).
  AttributeSet(PathAttributes attrs, size_t hash, std::shared_ptr<Registry> registry = nullptr)
      : attrs_(std::move(attrs)), hash_(hash), registry_(std::move(registry)) {
    attrs_.Compact();
  }
  AttributeSet(const AttributeSet&) = delete;
  AttributeSet& operator=(const AttributeSet&) = delete;

  static boost::intrusive_ptr<const AttributeSet> Make(PathAttributes attrs) {
    return boost::intrusive_ptr<const AttributeSet>(new AttributeSet(std::move(attrs)));
  }

  const PathAttributes& attrs() const { return attrs_; }
  const PathAttributes* operator->() const { return &attrs_; }
  size_t hash() const { return hash_; }
  // References held now (for tests and statistics).
  uint32_t use_count() const { return refs_.load(std::memory_order_relaxed); }

  friend bool operator==(const AttributeSet& a, const AttributeSet& b) {
    return a.hash_ == b.hash_ && a.attrs_ == b.attrs_;
  }
  friend std::strong_ordering operator<=>(const AttributeSet& a, const AttributeSet& b) {
    return a.attrs_ <=> b.attrs_;
  }

  friend void intrusive_ptr_add_ref(const AttributeSet* s) {
    s->refs_.fetch_add(1, std::memory_order_relaxed);
  }
  friend void intrusive_ptr_release(const AttributeSet* s) {
    if (s->refs_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    if (s->registry_) s->registry_->Forget(s);
    delete s;
  }

 private:
  PathAttributes attrs_;
  size_t hash_;
  std::shared_ptr<Registry> registry_;  // kept alive by its sets: they may outlive the interner
  mutable std::atomic<uint32_t> refs_{0};
};

using AttributeSetPtr = boost::intrusive_ptr<const AttributeSet>;

// Hash and equality by value for interning tables of AttributeSetPtr.
struct AttributeSetPtrHash {
  size_t operator()(const AttributeSetPtr& p) const { return p ? p->hash() : 0; }
};
struct AttributeSetPtrEq {
  bool operator()(const AttributeSetPtr& a, const AttributeSetPtr& b) const {
    return a == b || (a && b && *a == *b);
  }
};

}  // namespace strata::bgp

template <>
struct std::hash<strata::bgp::AttributeSet> {
  size_t operator()(const strata::bgp::AttributeSet& s) const noexcept { return s.hash(); }
};
template <>
struct std::hash<strata::bgp::PathAttributes> {
  size_t operator()(const strata::bgp::PathAttributes& a) const noexcept { return a.Hash(); }
};
