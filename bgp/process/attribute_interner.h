// AttributeInterner: the speaker's table of shared attribute sets, so that routes with equal
// attributes (from any peer) point at one AttributeSet and the pipeline's per-set grouping and
// memo caches hit. Holds weak references: a set lives as long as some route uses it; dead
// entries are swept as the table grows. Threading: single-threaded.
#pragma once

#include <cstddef>
#include <memory>
#include <unordered_map>
#include <vector>

#include "bgp/wire/attribute_set.h"

namespace strata::bgp {

class AttributeInterner {
 public:
  // The shared set equal to `attrs` (a new one if none is alive).
  AttributeSetPtr Intern(PathAttributes attrs);
  // Live sets (sweeps first).
  size_t size();

 private:
  void sweep();

  std::unordered_map<size_t, std::vector<std::weak_ptr<const AttributeSet>>> by_hash_;
  size_t entries_ = 0;
  size_t sweep_at_ = 1024;
};

}  // namespace strata::bgp
