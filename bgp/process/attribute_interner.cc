#include "bgp/process/attribute_interner.h"

#include <type_traits>
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

struct AttributeInterner::Table {
  absl::flat_hash_set<const AttributeSet*, SetHash, SetEq> sets;
};

namespace {

// Allocates like std::allocator; destroying an AttributeSet first takes it out of the table.
template <typename T>
struct TableAllocator {
  using value_type = T;
  explicit TableAllocator(std::shared_ptr<AttributeInterner::Table> t) : table(std::move(t)) {}
  template <typename U>
  TableAllocator(const TableAllocator<U>& o) : table(o.table) {}  // NOLINT: rebinding

  T* allocate(size_t n) { return std::allocator<T>().allocate(n); }
  void deallocate(T* p, size_t n) { std::allocator<T>().deallocate(p, n); }
  template <typename U>
  void destroy(U* p) {
    if constexpr (std::is_same_v<std::remove_cv_t<U>, AttributeSet>) table->sets.erase(p);
    p->~U();
  }
  template <typename U>
  friend bool operator==(const TableAllocator& a, const TableAllocator<U>& b) {
    return a.table == b.table;
  }

  std::shared_ptr<AttributeInterner::Table> table;
};

}  // namespace

AttributeInterner::AttributeInterner() : table_(std::make_shared<Table>()) {}

AttributeSetPtr AttributeInterner::Intern(PathAttributes attrs) {
  const size_t h = attrs.Hash();
  if (auto it = table_->sets.find(Probe{&attrs, h}); it != table_->sets.end()) {
    return (*it)->shared_from_this();
  }
  AttributeSetPtr made = std::allocate_shared<const AttributeSet>(
      TableAllocator<AttributeSet>(table_), std::move(attrs), h);
  table_->sets.insert(made.get());
  return made;
}

size_t AttributeInterner::size() const { return table_->sets.size(); }

}  // namespace strata::bgp
