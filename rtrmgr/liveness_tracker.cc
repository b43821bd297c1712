#include "rtrmgr/liveness_tracker.h"

#include <algorithm>

namespace strata::rtrmgr {

void LivenessTracker::Watch(const std::string& instance, TimePoint now) {
  entries_.try_emplace(instance, Entry{now + options_.interval, std::nullopt});
}

std::vector<std::string> LivenessTracker::DuePings(TimePoint now) {
  std::vector<std::string> out;
  for (auto& [name, e] : entries_) {
    if (e.outstanding_since || now < e.next_ping) continue;
    e.outstanding_since = now;
    out.push_back(name);
  }
  return out;
}

void LivenessTracker::Answered(const std::string& instance, TimePoint now) {
  auto it = entries_.find(instance);
  if (it == entries_.end()) return;
  if (instance == kFinder) finder_answered_ = now;
  it->second.outstanding_since.reset();
  it->second.next_ping = now + options_.interval;
}

std::vector<std::string> LivenessTracker::Hung(TimePoint now) {
  std::vector<std::string> out;
  const bool finder_watched = entries_.contains(kFinder);
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (OverDue(it->second, now) && Proven(it->first, it->second, finder_watched)) {
      out.push_back(it->first);
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
  if (std::find(out.begin(), out.end(), kFinder) != out.end()) {
    // Pings that waited for the hung Finder prove nothing: the others are asked again.
    for (auto& [name, e] : entries_) Answered(name, now);
  }
  return out;
}

bool LivenessTracker::Proven(const std::string& instance, const Entry& e,
                             bool finder_watched) const {
  return instance == kFinder || !finder_watched ||
         (finder_answered_ && e.outstanding_since && *finder_answered_ >= *e.outstanding_since);
}

std::optional<LivenessTracker::TimePoint> LivenessTracker::NextDeadline(TimePoint now) const {
  std::optional<TimePoint> next;
  const bool finder_watched = entries_.contains(kFinder);
  for (const auto& [name, e] : entries_) {
    // Overdue but waiting for the Finder's next answer: the Finder's own deadline decides.
    if (OverDue(e, now) && !Proven(name, e, finder_watched)) continue;
    const TimePoint t = e.outstanding_since ? *e.outstanding_since + options_.timeout : e.next_ping;
    if (!next || t < *next) next = t;
  }
  return next;
}

}  // namespace strata::rtrmgr
