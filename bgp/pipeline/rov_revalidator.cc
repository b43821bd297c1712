#include "bgp/pipeline/rov_revalidator.h"

#include <cassert>
#include <utility>

namespace strata::bgp {

RovRevalidator::RovRevalidator(PrefixWalk next, VisitFn visit, Background background)
    : next_(std::move(next)), visit_(std::move(visit)), background_(std::move(background)) {
  assert(background_.slice > 0);
}

RovRevalidator::RovRevalidator(PrefixWalk next, VisitFn visit)
    : RovRevalidator(std::move(next), std::move(visit), Background()) {}

void RovRevalidator::Changed(std::span<const IpPrefix> vrp_prefixes) {
  if (vrp_prefixes.empty()) return;
  ++stats_.changes;
  pending_.insert(vrp_prefixes.begin(), vrp_prefixes.end());
  schedule();
}

void RovRevalidator::ChangedAll() {
  const IpPrefix all[] = {IpPrefix::Default(Family::kIpv4), IpPrefix::Default(Family::kIpv6)};
  Changed(all);
}

void RovRevalidator::schedule() {
  if (!background_.scheduler) {
    while (Slice(background_.slice)) {
    }
    return;
  }
  if (task_.active()) return;
  task_ = background_.scheduler->add(background_.name, [this] {
    if (background_.throttle && background_.throttle()) {
      ++stats_.held;
      return true;
    }
    return Slice(background_.slice);
  });
}

bool RovRevalidator::next_range() {
  if (pending_.empty()) return false;
  auto it = pending_.begin();
  const IpPrefix range = *it;
  // The prefixes inside it come right after it in the order: their routes are walked anyway.
  auto end = std::next(it);
  while (end != pending_.end() && range.Contains(*end)) ++end;
  pending_.erase(it, end);
  range_ = range;
  cursor_.reset();
  ++stats_.ranges;
  return true;
}

bool RovRevalidator::Slice(size_t budget) {
  size_t n = 0;
  while (n < budget) {
    if (!range_ && !next_range()) break;
    std::optional<IpPrefix> at;
    if (!cursor_) {
      at = *range_;  // the VRP's own prefix first (visit ignores one nobody holds)
    } else {
      at = next_(cursor_);
      if (at && !range_->Contains(*at)) at.reset();
    }
    if (!at) {
      range_.reset();
      continue;
    }
    cursor_ = at;
    stats_.changed += visit_(*at);
    ++stats_.visited;
    ++n;
  }
  if (n > 0) ++stats_.slices;
  return walking();
}

}  // namespace strata::bgp
