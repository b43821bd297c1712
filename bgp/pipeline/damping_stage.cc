#include "bgp/pipeline/damping_stage.h"

#include <algorithm>

namespace strata::bgp {

DampingStage::DampingStage(PeerId peer, DampingParams params, BgpStage* parent,
                           PipelineClock& clock, TaskScheduler& scheduler, size_t slice_events)
    : PassThroughStage(parent),
      peer_(peer),
      params_(params),
      ceiling_(DampingCeiling(params)),
      clock_(clock),
      scheduler_(scheduler),
      slice_events_(slice_events),
      timer_(clock.make_timer([this] { on_timer(); })) {}

DampingStage::~DampingStage() = default;

bool DampingStage::chargeable(const BgpRouteRef& route) const {
  return charging_ && session_ && route->peer.get() == session_.get();
}

double DampingStage::penalty_at(const History& h, TimePoint now) const {
  return DecayPenalty(h.penalty, now - h.updated, params_.half_life);
}

DampingStage::History& DampingStage::charge(const IpPrefix& prefix, uint32_t amount,
                                            TimePoint now) {
  auto [it, inserted] = history_.try_emplace(prefix);
  History& h = it->second;
  const double before = inserted ? 0.0 : penalty_at(h, now);
  h.penalty = std::min(before + amount, ceiling_);
  h.updated = now;
  if (!h.suppressed && h.penalty >= params_.suppress) set_suppressed(h, true);
  return h;
}

void DampingStage::set_suppressed(History& h, bool on) {
  if (h.suppressed == on) return;
  h.suppressed = on;
  if (on) {
    ++suppressed_;
  } else {
    --suppressed_;
  }
}

void DampingStage::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  auto it = history_.find(route->prefix);
  if (it == history_.end()) {
    send_add(route);
    return;
  }
  it->second.present = true;
  if (!it->second.suppressed) send_add(route);
}

void DampingStage::replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                                 BgpStage* /*caller*/) {
  const IpPrefix& prefix = new_route->prefix;
  auto it = history_.find(prefix);
  const bool was_passed = it == history_.end() || !it->second.suppressed;
  if (params_.attribute_change_penalty > 0 && chargeable(new_route) &&
      old_route->peer == new_route->peer && !(*old_route->attrs == *new_route->attrs)) {
    charge(prefix, params_.attribute_change_penalty, clock_.now());
    it = history_.find(prefix);
  }
  if (it == history_.end()) {
    send_replace(old_route, new_route);
    return;
  }
  it->second.present = true;
  reschedule(it);
  if (it->second.suppressed) {
    if (was_passed) send_delete(old_route);
  } else {
    send_replace(old_route, new_route);
  }
}

void DampingStage::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  const IpPrefix& prefix = route->prefix;
  auto it = history_.find(prefix);
  if (it == history_.end() || !it->second.suppressed) send_delete(route);
  if (chargeable(route)) {
    ++charge(prefix, params_.withdraw_penalty, clock_.now()).flaps;
    it = history_.find(prefix);
  }
  if (it == history_.end()) return;
  it->second.present = false;
  reschedule(it);
}

BgpRouteRef DampingStage::lookup_route(const IpPrefix& prefix) const {
  auto it = history_.find(prefix);
  if (it != history_.end() && it->second.suppressed) return nullptr;
  return PassThroughStage::lookup_route(prefix);
}

void DampingStage::unqueue(HistoryMap::iterator it) {
  History& h = it->second;
  if (h.due) queue_.erase({*h.due, it->first});
  h.due.reset();
}

void DampingStage::reschedule(HistoryMap::iterator it) {
  unqueue(it);
  History& h = it->second;
  const double target = h.suppressed ? params_.reuse : params_.reuse / 2.0;
  h.due = h.updated + TimeToDecay(h.penalty, target, params_.half_life);
  queue_.emplace(*h.due, it->first);
  arm_timer();
}

void DampingStage::arm_timer() {
  if (task_.active()) return;  // the task re-arms when it is done
  if (queue_.empty()) {
    timer_->stop();
  } else {
    timer_->start_at(queue_.begin()->first);
  }
}

void DampingStage::on_timer() {
  if (task_.active()) return;
  task_ = scheduler_.add(name(), [this] { return run_slice(); });
}

bool DampingStage::run_slice() {
  const TimePoint now = clock_.now();
  size_t done = 0;
  while (!queue_.empty() && queue_.begin()->first <= now) {
    if (done++ == slice_events_) return true;
    auto it = history_.find(queue_.begin()->second);
    queue_.erase(queue_.begin());
    History& h = it->second;
    h.due.reset();
    if (!h.suppressed) {
      history_.erase(it);
      continue;
    }
    h.penalty = penalty_at(h, now);
    h.updated = now;
    set_suppressed(h, false);
    if (h.present) {
      if (BgpRouteRef r = PassThroughStage::lookup_route(it->first)) send_add(r);
    }
    reschedule(it);
  }
  if (queue_.empty()) {
    timer_->stop();
  } else {
    timer_->start_at(queue_.begin()->first);
  }
  return false;
}

size_t DampingStage::Clear(const std::optional<IpPrefix>& prefix) {
  size_t cleared = 0;
  for (auto it = history_.begin(); it != history_.end();) {
    if (prefix && it->first != *prefix) {
      ++it;
      continue;
    }
    unqueue(it);
    const IpPrefix p = it->first;
    const bool release = it->second.suppressed && it->second.present;
    set_suppressed(it->second, false);
    it = history_.erase(it);
    ++cleared;
    if (release) {
      if (BgpRouteRef r = PassThroughStage::lookup_route(p)) send_add(r);
    }
  }
  arm_timer();
  return cleared;
}

std::vector<DampingStage::Entry> DampingStage::Entries() const {
  const TimePoint now = clock_.now();
  std::vector<Entry> out;
  out.reserve(history_.size());
  for (const auto& [prefix, h] : history_) {
    Entry e;
    e.prefix = prefix;
    e.penalty = penalty_at(h, now);
    e.suppressed = h.suppressed;
    e.withdrawn = !h.present;
    if (h.suppressed && h.due && *h.due > now) e.reuse_in = *h.due - now;
    e.flaps = h.flaps;
    out.push_back(e);
  }
  return out;
}

}  // namespace strata::bgp
