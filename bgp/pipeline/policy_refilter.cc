#include "bgp/pipeline/policy_refilter.h"

#include <cassert>
#include <utility>

namespace strata::bgp {

PolicyRefilter::PolicyRefilter(RoutePolicy policy, VisitFn visit) : visit_(std::move(visit)) {
  layers_.push_back(Layer{std::move(policy), std::nullopt, {}});
}

const RoutePolicy& PolicyRefilter::policy_for(const IpPrefix& prefix, size_t n) const {
  for (size_t i = n; i-- > 1;) {
    if (covers(layers_[i], prefix)) return layers_[i].policy;
  }
  return layers_.front().policy;
}

void PolicyRefilter::Touch(const IpPrefix& prefix) {
  if (!walking()) return;
  Layer& active = layers_.back();
  if (!covers(active, prefix)) active.touched.insert(prefix);
}

void PolicyRefilter::Change(RoutePolicy policy, NextFn next) {
  ++stats_.changes;
  next_ = std::move(next);
  Layer& active = layers_.back();
  if (walking() && !active.cursor && active.touched.empty()) {
    active.policy = std::move(policy);  // nothing went through it yet: just retarget the walk
  } else {
    if (walking()) ++stats_.restarts;
    layers_.push_back(Layer{std::move(policy), std::nullopt, {}});
  }
  if (!background_.scheduler) {
    while (Slice(background_.slice)) {
    }
    return;
  }
  Resume();
}

void PolicyRefilter::Resume() {
  if (!walking() || !background_.scheduler || task_.active()) return;
  task_ = background_.scheduler->add(background_.name, [this] { return run_slice(); });
}

bool PolicyRefilter::run_slice() {
  if (!walking()) return false;
  if (background_.throttle && background_.throttle()) return true;
  if (background_.paused && background_.paused()) return false;  // until Resume()
  if (background_.before_slice) background_.before_slice();
  const bool more = Slice(background_.slice);
  if (background_.after_slice) background_.after_slice();
  return more;
}

bool PolicyRefilter::Slice(size_t budget) {
  assert(budget > 0);
  if (!walking()) return false;
  ++stats_.slices;
  const size_t n = layers_.size();
  for (size_t done = 0; done < budget;) {
    Layer& active = layers_.back();
    const std::optional<IpPrefix> p = next_(active.cursor);
    if (!p) {
      finish();
      return false;
    }
    const bool touched = active.touched.erase(*p) > 0;
    if (touched) {
      active.cursor = *p;
      ++stats_.skipped;
      ++done;  // cheap, but counted so a slice stays bounded
      continue;
    }
    const RoutePolicy& before = policy_for(*p, n - 1);
    active.cursor = *p;  // lookups of p answer with the new policy from here on (rule 2)
    visit_(*p, before, active.policy);
    ++stats_.visited;
    ++done;
  }
  return true;
}

void PolicyRefilter::finish() {
  Layer settled{std::move(layers_.back().policy), std::nullopt, {}};
  layers_.clear();
  layers_.push_back(std::move(settled));
}

}  // namespace strata::bgp
