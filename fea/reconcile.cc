#include "fea/reconcile.h"

#include "absl/container/flat_hash_map.h"

namespace strata::fea {

ReconcilePlan PlanReconcile(std::span<const KernelRoute> kernel,
                            std::span<const KernelRoute> wanted, uint8_t protocol, uint32_t metric,
                            bool remove_unwanted) {
  // Hash maps: a full table is a million routes, and order comes from the inputs.
  absl::flat_hash_map<IpPrefix, const KernelRoute*, std::hash<IpPrefix>> want;
  want.reserve(wanted.size());
  for (const auto& w : wanted) want[w.prefix] = &w;
  absl::flat_hash_map<IpPrefix, const KernelRoute*, std::hash<IpPrefix>> ours;  // ours at `metric`
  ours.reserve(wanted.size());
  ReconcilePlan plan;
  std::vector<KernelOp> replaces;
  for (const auto& k : kernel) {
    if (k.protocol != protocol) continue;
    auto w = want.find(k.prefix);
    if (k.metric != metric || w == want.end()) {
      if (remove_unwanted) plan.ops.push_back({KernelOpType::kDelete, k});
      continue;
    }
    if (!ours.emplace(k.prefix, &k).second) continue;  // duplicates: the kernel merged them
    if (SameForwarding(k, *w->second)) {
      plan.kept.push_back(&k);
    } else {
      replaces.push_back({KernelOpType::kReplace, *w->second});
    }
  }
  plan.ops.insert(plan.ops.end(), replaces.begin(), replaces.end());
  for (const auto& w : wanted) {
    if (!ours.contains(w.prefix)) plan.ops.push_back({KernelOpType::kAdd, w});
  }
  return plan;
}

}  // namespace strata::fea
