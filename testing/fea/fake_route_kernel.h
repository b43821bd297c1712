// FakeRouteKernel: an in-memory RouteKernel for tests, with the Linux semantics the FEA relies
// on: a route is keyed by (table, prefix, metric); add with NLM_F_EXCL fails EEXIST if any
// route holds the key (whatever its protocol); replace overwrites the route at the key; delete
// needs the key and the protocol (ESRCH otherwise). Records every op and every released hop,
// and can fail chosen ops.
// Threading: single-threaded test code.
#pragma once

#include <map>
#include <set>
#include <tuple>

#include "fea/route_kernel.h"

namespace strata::fea {

class FakeRouteKernel : public RouteKernel {
 public:
  using Key = std::tuple<uint32_t, IpPrefix, uint32_t>;

  std::vector<Status> Apply(std::span<const KernelOp> ops) override {
    std::vector<Status> out;
    for (const KernelOp& op : ops) {
      applied.push_back(op);
      const Key key{op.route.table, op.route.prefix, op.route.metric};
      if (fail_prefixes.contains(op.route.prefix)) {
        out.push_back(Internal("injected failure"));
        continue;
      }
      auto it = routes.find(key);
      switch (op.type) {
        case KernelOpType::kAdd:
          if (it != routes.end()) {
            out.push_back(AlreadyExists("File exists"));
            continue;
          }
          routes[key] = op.route;
          break;
        case KernelOpType::kReplace:
          routes[key] = op.route;
          break;
        case KernelOpType::kDelete:
          if (it == routes.end() || it->second.protocol != op.route.protocol) {
            out.push_back(NotFound("No such process"));
            continue;
          }
          routes.erase(it);
          break;
      }
      out.push_back(Status());
    }
    return out;
  }

  StatusOr<std::vector<KernelRoute>> Dump(uint32_t table, size_t expected) override {
    ++dumps;
    std::vector<KernelRoute> out;
    out.reserve(expected);
    for (const auto& [key, r] : routes) {
      if (std::get<0>(key) == table) out.push_back(r);
    }
    return out;
  }

  void ReleaseGatewayHops(std::span<const GatewayHop> hops) override {
    released.insert(released.end(), hops.begin(), hops.end());
  }
  void ReleaseAllHops() override { ++released_all; }

  void Put(const KernelRoute& r) { routes[Key{r.table, r.prefix, r.metric}] = r; }
  const KernelRoute* Get(uint32_t table, const IpPrefix& p, uint32_t metric) const {
    auto it = routes.find(Key{table, p, metric});
    return it == routes.end() ? nullptr : &it->second;
  }

  std::map<Key, KernelRoute> routes;
  std::vector<KernelOp> applied;
  std::set<IpPrefix> fail_prefixes;
  std::vector<GatewayHop> released;  // every ReleaseGatewayHops, in order
  int released_all = 0;              // ReleaseAllHops calls
  int dumps = 0;
};

}  // namespace strata::fea
