#include "bgp/process/attribute_interner.h"

#include <utility>

namespace strata::bgp {
namespace {

// A set looked for: attributes and their hash, compared with the sets in the table by value.
struct Probe {
  const PathAttributes* attrs;
  size_t hash;
};

struct SetHash {
  using is_transparent = void;
  size_t operator()(const AttributeSet* s) const { return s->hash(); }
  size_t operator()(const Probe& p) const { return p.hash; }
};

struct SetEq {
  using is_transparent = void;
  // The table holds one set per value: two of its sets are equal only if they are the same.
  bool operator()(const AttributeSet* a, const AttributeSet* b) const { return a == b; }
  bool operator()(const AttributeSet* a, const Probe& p) const {
    return a->hash() == p.hash && a->attrs() == *p.attrs;
  }
  bool operator()(const Probe& p, const AttributeSet* a) const { return (*this)(a, p); }
};

}  // namespace

// The live sets, told by each of them as it goes.
struct AttributeInterner::Table : AttributeSet::Registry {
  void Forget(const AttributeSet* set) override { sets.erase(set); }
  absl::flat_hash_set<const AttributeSet*, SetHash, SetEq> sets;
};

AttributeInterner::AttributeInterner() : table_(std::make_shared<Table>()) {}

AttributeSetPtr AttributeInterner::Intern(PathAttributes attrs) {
  const size_t h = attrs.Hash();
  if (auto it = table_->sets.find(Probe{&attrs, h}); it != table_->sets.end()) {
    return AttributeSetPtr(*it);
  }
  AttributeSetPtr made(new AttributeSet(std::move(attrs), h, table_));
  table_->sets.insert(made.get());
  return made;
}

size_t AttributeInterner::size() const { return table_->sets.size(); }

}  // namespace strata::bgp
