// PlanReconcile: what to do to make a kernel routing table hold exactly the wanted Strata routes.
//
// Why a pure function: the rules that protect other daemons' routes are the riskiest part of
// kernel programming, and as a function of (dump, wanted) they are tested exhaustively in
// memory. Rules:
//   - routes of another protocol are never touched (no op names them);
//   - a Strata route at `metric` for a wanted prefix is kept if it forwards the same way, else
//     replaced;
//   - a wanted prefix without such a route is added;
//   - other Strata routes (unwanted prefixes, other metrics) are deleted if `remove_unwanted`.
// Ops are ordered deletes, replaces, adds (a delete may free a slot an add needs).
// Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "fea/kernel_route.h"

namespace strata::fea {

struct ReconcilePlan {
  std::vector<KernelOp> ops;
  std::vector<const KernelRoute*> kept;  // Strata routes already right (into `kernel`)
};

// REQUIRES: every wanted route carries `protocol` and `metric` (one per prefix).
ReconcilePlan PlanReconcile(std::span<const KernelRoute> kernel,
                            std::span<const KernelRoute> wanted, uint8_t protocol, uint32_t metric,
                            bool remove_unwanted);

}  // namespace strata::fea
