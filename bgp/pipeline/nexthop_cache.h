// NexthopCache: the pipeline's shared view of next hop reachability, between the oracle and the
// per-branch nexthop resolvers.
//
// Resolvers add and remove users of a next hop; the cache registers interest with the oracle
// only for a next hop no answer covers yet (one answer covers a whole subnet), and deregisters
// a covering subnet when no next hop in it is used. On an invalidation the old answers are kept
// as stale (routes stay usable with their old metric) and every used next hop inside is asked
// again; each new answer notifies the clients with the subnet it covers, so they re-evaluate the
// routes whose next hop lies there.
// Threading: single-threaded.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "bgp/pipeline/nexthop_oracle.h"
#include "common/route_trie.h"

namespace strata::bgp {

class NexthopClient {
 public:
  virtual ~NexthopClient() = default;
  // The answer for next hops inside `region` may have changed.
  virtual void nexthops_changed(const IpPrefix& region) = 0;
};

class NexthopCache : public NexthopListener {
 public:
  explicit NexthopCache(NexthopOracle& oracle);
  ~NexthopCache() override;

  void add_client(NexthopClient* client) { clients_.insert(client); }
  void remove_client(NexthopClient* client) { clients_.erase(client); }

  // Counts a user of the next hop and asks the oracle if nothing answers for it yet.
  void add_user(const IpAddr& nexthop);
  void remove_user(const IpAddr& nexthop);
  // The current (possibly stale) answer, or nullopt while the first answer is pending.
  std::optional<NexthopAnswer> lookup(const IpAddr& nexthop) const;

  void nexthop_answer(const IpAddr& nexthop, const NexthopAnswer& answer) override;
  void nexthop_invalidated(const IpPrefix& covering) override;

  size_t pending() const { return pending_.size(); }
  size_t answers() const { return answers_.size(); }

 private:
  bool used_inside(const IpPrefix& p) const;
  void ask(const IpAddr& nexthop);
  void drop_covered_stale();
  void notify(const IpPrefix& region);

  NexthopOracle& oracle_;
  RouteTrie<NexthopAnswer> answers_;  // fresh answers by covering subnet (disjoint)
  RouteTrie<NexthopAnswer> stale_;    // invalidated answers still in use
  std::map<IpAddr, size_t> users_;
  std::set<IpAddr> pending_;
  std::set<NexthopClient*> clients_;
};

}  // namespace strata::bgp
