// RedistStale: the mark-and-sweep that lets redistributed routes outlive a RIB restart (as
// graceful restart does for a BGP peer, RFC 4724, and BIRD's table refresh for a channel).
//
// When the RIB that gave us routes goes away, every prefix we hold from it is marked stale and
// stays advertised. The new RIB's subscription sends its current routes again: each one it sends
// (or deletes) is no longer stale. Once its dump is complete (and the client's settle time has
// passed), sweep() names the prefixes still stale, i.e. those the new RIB does not have: only
// those are withdrawn; unchanged ones are neither withdrawn nor announced again. Pure state: the
// timers are RibRedistClient's. Threading: single-threaded.
#pragma once

#include <cstddef>
#include <set>
#include <vector>

#include "common/ip_prefix.h"

namespace strata::bgp {

class RedistStale {
 public:
  // The RIB that gave `given` is gone: all of them become stale (those already stale stay).
  void mark(const std::set<IpPrefix>& given);
  // The new RIB sent (or deleted) `prefix`: it is no longer stale. True if it was.
  bool refresh(const IpPrefix& prefix);
  // The prefixes still stale, which the new RIB did not send; none are stale afterwards.
  std::vector<IpPrefix> sweep();
  // Forgets every mark (the routes went another way, e.g. redistribution turned off).
  void clear() { stale_.clear(); }

  bool contains(const IpPrefix& prefix) const { return stale_.contains(prefix); }
  bool empty() const { return stale_.empty(); }
  size_t size() const { return stale_.size(); }

 private:
  std::set<IpPrefix> stale_;
};

}  // namespace strata::bgp
