// RetireList: things the writer unlinked, held until no reader can still see them.
//
// Usage: Add() while unlinking, Stamp(EpochManager::Advance()) once the unlink is published, and
// Collect(EpochManager::MinActive(), fn) later: fn runs on (and thereby frees or recycles) every
// stamped item whose tag is below the oldest pinned reader epoch.
//
// Threading: writer-only.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace strata::fib {

template <typename T>
class RetireList {
 public:
  void Add(T item) { unstamped_.push_back(std::move(item)); }
  void Stamp(uint64_t tag) {
    for (T& t : unstamped_) stamped_.emplace_back(tag, std::move(t));
    unstamped_.clear();
  }
  template <typename Fn>
  void Collect(uint64_t min_active, Fn&& fn) {
    size_t keep = 0;
    for (size_t i = 0; i < stamped_.size(); ++i) {
      if (stamped_[i].first < min_active) {
        fn(std::move(stamped_[i].second));
      } else {
        if (keep != i) stamped_[keep] = std::move(stamped_[i]);
        ++keep;
      }
    }
    stamped_.resize(keep);
  }
  size_t pending() const { return unstamped_.size() + stamped_.size(); }

 private:
  std::vector<T> unstamped_;
  std::vector<std::pair<uint64_t, T>> stamped_;
};

}  // namespace strata::fib
