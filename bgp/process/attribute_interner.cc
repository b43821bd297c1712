#include "bgp/process/attribute_interner.h"

#include <algorithm>

namespace strata::bgp {

AttributeSetPtr AttributeInterner::Intern(PathAttributes attrs) {
  const size_t h = attrs.Hash();
  auto& bucket = by_hash_[h];
  for (const auto& weak : bucket) {
    if (AttributeSetPtr s = weak.lock(); s && s->attrs() == attrs) return s;
  }
  AttributeSetPtr made = AttributeSet::Make(std::move(attrs));
  bucket.push_back(made);
  if (++entries_ >= sweep_at_) {
    sweep();
    sweep_at_ = std::max<size_t>(1024, entries_ * 2);
  }
  return made;
}

void AttributeInterner::sweep() {
  entries_ = 0;
  for (auto it = by_hash_.begin(); it != by_hash_.end();) {
    auto& bucket = it->second;
    std::erase_if(bucket, [](const auto& w) { return w.expired(); });
    entries_ += bucket.size();
    it = bucket.empty() ? by_hash_.erase(it) : std::next(it);
  }
}

size_t AttributeInterner::size() {
  sweep();
  return entries_;
}

}  // namespace strata::bgp
