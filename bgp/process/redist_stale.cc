#include "bgp/process/redist_stale.h"

namespace strata::bgp {

void RedistStale::mark(const std::set<IpPrefix>& given) {
  stale_.insert(given.begin(), given.end());
}

bool RedistStale::refresh(const IpPrefix& prefix) { return stale_.erase(prefix) != 0; }

std::vector<IpPrefix> RedistStale::sweep() {
  std::vector<IpPrefix> out(stale_.begin(), stale_.end());
  stale_.clear();
  return out;
}

}  // namespace strata::bgp
