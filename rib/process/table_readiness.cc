#include "rib/process/table_readiness.h"

#include <algorithm>

namespace strata::rib {

TableReadiness::TableReadiness(Options options, TimePoint start)
    : options_(options), deadline_(start + options.recovery_time), config_(!options.await_config) {}

void TableReadiness::ConfigComplete(const std::vector<std::string>& owners, TimePoint now) {
  config_ = true;
  if (complete_) return;
  for (const std::string& o : owners) {
    if (!owners_done_.contains(o)) owners_waited_.insert(o);
  }
  Check(now);
}

void TableReadiness::ConnectedSynced(TimePoint now) {
  connected_ = true;
  Check(now);
}

void TableReadiness::OwnerDone(const std::string& owner, TimePoint now) {
  if (complete_) return;
  owners_done_.insert(owner);
  owners_waited_.erase(owner);
  Check(now);
}

void TableReadiness::OwnerDefers(const std::string& owner, std::chrono::milliseconds deferral,
                                 TimePoint now) {
  if (complete_ || owners_done_.contains(owner)) return;
  deadline_ = std::max(deadline_, now + std::min(deferral, options_.max_extension));
}

void TableReadiness::FeaAnswered(bool holds_routes, TimePoint now) {
  fea_answered_ = true;
  fea_holds_ = holds_routes;
  Check(now);
}

void TableReadiness::Tick(TimePoint now) { Check(now); }

std::vector<std::string> TableReadiness::awaiting() const {
  std::vector<std::string> out;
  if (complete_) return out;
  if (!config_) out.push_back("configuration");
  if (!connected_) out.push_back("connected routes");
  for (const std::string& o : owners_waited_) out.push_back("owner " + o);
  return out;
}

void TableReadiness::Check(TimePoint now) {
  if (!complete_) {
    if (config_ && connected_ && owners_waited_.empty()) {
      Complete("every owner re-sent its routes");
    } else if (now >= deadline_) {
      std::string waited;
      for (const std::string& a : awaiting()) waited += (waited.empty() ? "" : ", ") + a;
      Complete("the recovery deadline passed (awaiting " + waited + ")");
    }
  }
  if (on_change_) on_change_();
}

void TableReadiness::Complete(std::string how) {
  complete_ = true;
  completed_how_ = std::move(how);
  owners_waited_.clear();
  if (on_complete_) on_complete_();
}

}  // namespace strata::rib
