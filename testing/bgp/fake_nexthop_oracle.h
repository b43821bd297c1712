// FakeNexthopOracle: an in-memory NexthopOracle for tests, standing in for the RIB.
//
// It holds a table of IGP routes (prefix -> metric) and answers a registration with the longest
// match and the largest subnet over which that answer holds (RouteTrie::range), like the RIB's
// register stage. Answers are queued until answer_all() (tests move time by hand) unless
// set_auto_answer(true). Changing a route invalidates every answered subnet it overlaps.
// Threading: single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "bgp/pipeline/nexthop_oracle.h"
#include "common/route_trie.h"

namespace strata::bgp {

class FakeNexthopOracle : public NexthopOracle {
 public:
  void set_listener(NexthopListener* listener) override { listener_ = listener; }
  void register_interest(const IpAddr& nexthop) override;
  void deregister_interest(const IpPrefix& covering) override { registered_.erase(covering); }

  void set_auto_answer(bool on) { auto_answer_ = on; }
  // Answers every queued registration; returns how many.
  size_t answer_all();
  // The IGP route for `prefix` appears or changes metric / goes away.
  void set_route(const IpPrefix& prefix, uint32_t metric);
  // A directly connected subnet with our address `local` on it (metric 0).
  void set_connected(const IpPrefix& subnet, const IpAddr& local);
  void remove_route(const IpPrefix& prefix);

  // What an answer for `nexthop` would be now.
  NexthopAnswer Answer(const IpAddr& nexthop) const;
  size_t questions() const { return questions_; }
  size_t queued() const { return queue_.size(); }
  const std::set<IpPrefix>& registered() const { return registered_; }

 private:
  void answer(const IpAddr& nexthop);
  void invalidate_overlapping(const IpPrefix& prefix);

  NexthopListener* listener_ = nullptr;
  RouteTrie<uint32_t> igp_;
  std::map<IpPrefix, IpAddr> connected_;  // subnet -> our address on it
  std::vector<IpAddr> queue_;
  std::set<IpPrefix> registered_;
  bool auto_answer_ = false;
  size_t questions_ = 0;
};

}  // namespace strata::bgp
