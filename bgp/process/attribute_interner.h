// AttributeInterner: the speaker's table of shared attribute sets, so that routes with equal
// attributes (from any peer) point at one AttributeSet and the pipeline's per-set grouping and
// memo caches hit. Threading: single-threaded.
//
// How a set leaves the table: the sets it makes hold the table as their AttributeSet::Registry
// and tell it when they are destroyed, so the table holds plain pointers to live sets (8 bytes a
// set in a flat hash set) and never sweeps. The earlier table of weak references (a hash node and
// a vector per hash value, swept as it doubled) cost about 100 bytes a set, kept dead sets'
// memory until a sweep, and its sweep walked every set in one go. The sets share the table's
// ownership, so they may outlive the interner.
#pragma once

#include <cstddef>
#include <memory>

#include "absl/container/flat_hash_set.h"
#include "bgp/wire/attribute_set.h"

namespace strata::bgp {

class AttributeInterner {
 public:
  AttributeInterner();

  // The shared set equal to `attrs` (a new one if none is alive).
  AttributeSetPtr Intern(PathAttributes attrs);
  // Live sets.
  size_t size() const;

  struct Table;  // the live sets (attribute_interner.cc)

 private:
  std::shared_ptr<Table> table_;
};

}  // namespace strata::bgp
