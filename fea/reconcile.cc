#include "fea/reconcile.h"

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace strata::fea {

ReconcilePlan PlanReconcile(std::span<const KernelRoute> kernel,
                            std::span<const KernelRoute> wanted, uint8_t protocol, uint32_t metric,
                            bool remove_unwanted) {
  // One hash map, prefix -> index into `wanted`, and a bit per wanted route for "a Strata route
  // at `metric` is there": a full table is a million routes, and order comes from the inputs.
  absl::flat_hash_map<IpPrefix, uint32_t, std::hash<IpPrefix>> want;
  want.reserve(wanted.size());
  for (size_t i = 0; i < wanted.size(); ++i) want[wanted[i].prefix] = static_cast<uint32_t>(i);
  std::vector<bool> ours(wanted.size());
  ReconcilePlan plan;
  std::vector<KernelOp> replaces;
  for (const auto& k : kernel) {
    if (k.protocol != protocol) continue;
    auto w = want.find(k.prefix);
    if (k.metric != metric || w == want.end()) {
      if (remove_unwanted) plan.ops.push_back({KernelOpType::kDelete, k});
      continue;
    }
    if (ours[w->second]) continue;  // duplicates: the kernel merged them
    ours[w->second] = true;
    if (SameForwarding(k, wanted[w->second])) {
      plan.kept.push_back(&k);
    } else {
      replaces.push_back({KernelOpType::kReplace, wanted[w->second]});
    }
  }
  plan.ops.insert(plan.ops.end(), replaces.begin(), replaces.end());
  for (size_t i = 0; i < wanted.size(); ++i) {
    if (!ours[i]) plan.ops.push_back({KernelOpType::kAdd, wanted[i]});
  }
  return plan;
}

}  // namespace strata::fea
