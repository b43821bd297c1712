#include "fea/vr_recovery.h"

namespace strata::fea {

VrRecovery::VrRecovery(Options options, TimePoint start)
    : options_(options),
      config_complete_(options.await_config.count() <= 0),
      config_deadline_(start + options.await_config) {}

bool VrRecovery::ConfigComplete() {
  if (config_complete_) return false;
  config_complete_ = true;
  return true;
}

void VrRecovery::Adopted(const std::string& vr, size_t routes, TimePoint now) {
  if (routes == 0) return;
  windows_[vr] = now + options_.grace;
}

void VrRecovery::BeginResync(const std::string& vr, std::chrono::milliseconds hold, TimePoint now) {
  std::optional<TimePoint> d;
  if (hold.count() > 0) d = now + hold;
  windows_[vr] = d;
}

std::optional<VrRecovery::TimePoint> VrRecovery::deadline(const std::string& vr) const {
  auto it = windows_.find(vr);
  return it == windows_.end() ? std::nullopt : it->second;
}

VrRecovery::Due VrRecovery::Expire(TimePoint now) {
  Due due;
  if (!config_complete_ && now >= config_deadline_) {
    config_complete_ = true;
    due.config_timed_out = true;
  }
  for (auto it = windows_.begin(); it != windows_.end();) {
    if (it->second && now >= *it->second) {
      due.vrs.push_back(it->first);
      it = windows_.erase(it);
    } else {
      ++it;
    }
  }
  return due;
}

std::optional<VrRecovery::TimePoint> VrRecovery::NextDeadline() const {
  std::optional<TimePoint> next;
  if (!config_complete_) next = config_deadline_;
  for (const auto& [vr, d] : windows_) {
    if (d && (!next || *d < *next)) next = d;
  }
  return next;
}

}  // namespace strata::fea
