// AttributeSet: an immutable, hashable, ordered PathAttributes to be shared between routes.
//
// Routes point at a `std::shared_ptr<const AttributeSet>`; an interning table (the speaker's) can
// key on AttributeSetPtrHash/AttributeSetPtrEq so that equal sets are stored once, or hold raw
// pointers and hand out shared_from_this() while a set lives. The hash is
// computed once at construction. Immutable, so safe to share between threads.
#pragma once

#include <compare>
#include <cstddef>
#include <functional>
#include <memory>

#include "bgp/wire/path_attributes.h"

namespace strata::bgp {

class AttributeSet : public std::enable_shared_from_this<AttributeSet> {
 public:
  explicit AttributeSet(PathAttributes attrs) : attrs_(std::move(attrs)), hash_(attrs_.Hash()) {}
  // With the hash already computed (attrs.Hash()).
  AttributeSet(PathAttributes attrs, size_t hash) : attrs_(std::move(attrs)), hash_(hash) {}
  static std::shared_ptr<const AttributeSet> Make(PathAttributes attrs) {
    return std::make_shared<const AttributeSet>(std::move(attrs));
  }

  const PathAttributes& attrs() const { return attrs_; }
  const PathAttributes* operator->() const { return &attrs_; }
  size_t hash() const { return hash_; }

  friend bool operator==(const AttributeSet& a, const AttributeSet& b) {
    return a.hash_ == b.hash_ && a.attrs_ == b.attrs_;
  }
  friend std::strong_ordering operator<=>(const AttributeSet& a, const AttributeSet& b) {
    return a.attrs_ <=> b.attrs_;
  }

 private:
  PathAttributes attrs_;
  size_t hash_;
};

using AttributeSetPtr = std::shared_ptr<const AttributeSet>;

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
