#include "common/profiler.h"

#include <ctime>

namespace strata {

int64_t ProfilePoint::NowNs() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void ProfilePoint::Record(std::string detail) {
  if (records_.size() >= limit_) {
    records_.pop_front();
    ++dropped_;
  }
  records_.push_back(ProfileRecord{NowNs(), std::move(detail)});
}

std::vector<ProfileRecord> ProfilePoint::Take() {
  std::vector<ProfileRecord> out(std::make_move_iterator(records_.begin()),
                                 std::make_move_iterator(records_.end()));
  records_.clear();
  return out;
}

Profiler& Profiler::Get() {
  static Profiler* profiler = new Profiler();  // never destroyed: points outlive every user
  return *profiler;
}

ProfilePoint& Profiler::Point(std::string_view name) {
  auto it = points_.find(name);
  if (it == points_.end()) {
    it =
        points_.emplace(std::string(name), std::make_unique<ProfilePoint>(std::string(name))).first;
  }
  return *it->second;
}

ProfilePoint* Profiler::Find(std::string_view name) {
  auto it = points_.find(name);
  return it == points_.end() ? nullptr : it->second.get();
}

std::vector<ProfilePoint*> Profiler::Points() {
  std::vector<ProfilePoint*> out;
  out.reserve(points_.size());
  for (auto& [name, p] : points_) out.push_back(p.get());
  return out;
}

}  // namespace strata
