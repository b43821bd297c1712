#include "fea/kernel_routes.h"

#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "common/profiler.h"
#include "fea/reconcile.h"

namespace strata::fea {
namespace {
ProfilePoint& profile_kernel = Profiler::Get().Point(kProfileFeaKernel);
}  // namespace

KernelRoutes::KernelRoutes(RouteKernel* kernel, const VrTable& vrs, KernelRoutesOptions options)
    : kernel_(kernel), vrs_(vrs), options_(options), log_(MakeLogger("fea.kernel")) {}

KernelRoutes::~KernelRoutes() = default;

KernelRoute KernelRoutes::Wanted(const Vr& vr, const FeaRoute& r) const {
  KernelRoute k;
  k.table = vr.table_id;
  k.prefix = r.prefix;
  k.protocol = options_.protocol;
  k.metric = options_.metric;
  k.type = r.type;
  for (const auto& nh : r.nexthops) {
    k.nexthops.push_back({nh.address, nh.ifindex, nh.weight});
  }
  return k;
}

void KernelRoutes::DropHopUse(const KernelRoute& r) {
  auto hop = SharedGatewayHop(r);
  if (!hop) return;
  auto it = hop_routes_.find(*hop);
  if (it == hop_routes_.end() || --it->second == 0) maybe_unused_.push_back(*hop);
}

void KernelRoutes::Install(VrState& st, KernelRoute r) {
  if (auto hop = SharedGatewayHop(r)) ++hop_routes_[*hop];
  auto [it, inserted] = st.installed.try_emplace(r.prefix);
  if (!inserted) DropHopUse(it->second);
  it->second = std::move(r);
}

void KernelRoutes::Uninstall(VrState& st, const IpPrefix& prefix) {
  auto it = st.installed.find(prefix);
  if (it == st.installed.end()) return;
  DropHopUse(it->second);
  st.installed.erase(it);
}

void KernelRoutes::UninstallAll(VrState& st) {
  for (const auto& [p, r] : st.installed) DropHopUse(r);
  st.installed.clear();
}

void KernelRoutes::ReleaseUnusedHops() {
  if (maybe_unused_.empty()) return;
  std::vector<GatewayHop> unused;
  absl::flat_hash_set<GatewayHop> seen;
  for (const GatewayHop& hop : maybe_unused_) {
    auto it = hop_routes_.find(hop);
    if (it != hop_routes_.end() && it->second != 0) continue;
    if (it != hop_routes_.end()) hop_routes_.erase(it);
    if (seen.insert(hop).second) unused.push_back(hop);
  }
  maybe_unused_.clear();
  if (kernel_ != nullptr && !unused.empty()) kernel_->ReleaseGatewayHops(unused);
}

size_t KernelRoutes::AddVr(const std::string& name) {
  const Vr* vr = vrs_.Find(name);
  if (kernel_ == nullptr || vr == nullptr || vr->table_id == 0 || state_.contains(name)) return 0;
  auto st = std::make_shared<VrState>();
  st->table = vr->table_id;
  state_[name] = st;
  ReconcileState(name, *st, false);
  const size_t adopted = st->installed.size();
  stats_.adopted += adopted;
  st->grace = adopted > 0;
  if (adopted > 0) {
    log_->info(
        "VR {}: adopted {} Strata routes from table {}; they stay until the RIB's resync "
        "ends (or the stale window closes)",
        name, adopted, st->table);
  }
  return adopted;
}

void KernelRoutes::RemoveVr(const std::string& name) {
  auto it = state_.find(name);
  if (it == state_.end()) return;
  VrState& st = *it->second;
  std::vector<KernelOp> ops;
  for (const auto& [p, k] : st.installed) ops.push_back({KernelOpType::kDelete, k});
  Run(st, ops);
  state_.erase(it);
}

void KernelRoutes::MoveVr(const std::string& name) {
  RemoveVr(name);
  AddVr(name);
  const Vr* vr = vrs_.Find(name);
  if (vr == nullptr) return;
  std::vector<IpPrefix> all;
  all.reserve(vr->routes.size());
  for (const auto& [p, r] : vr->routes) all.push_back(p);
  Sync(name, all);
}

void KernelRoutes::Sync(const std::string& name, std::span<const IpPrefix> changed) {
  auto it = state_.find(name);
  const Vr* vr = vrs_.Find(name);
  if (it == state_.end() || vr == nullptr) return;
  VrState& st = *it->second;
  // In slices: an EndResync or a MoveVr can name a whole table at once, and the ops and statuses
  // of one slice at a time keep what that holds bounded.
  constexpr size_t kSlice = 4096;
  for (size_t at = 0; at < changed.size(); at += kSlice) {
    SyncSlice(*vr, st, changed.subspan(at, std::min(kSlice, changed.size() - at)));
  }
}

void KernelRoutes::SyncSlice(const Vr& vr, VrState& st, std::span<const IpPrefix> changed) {
  std::vector<KernelOp> ops;
  ops.reserve(changed.size());
  for (const IpPrefix& p : changed) {
    auto r = vr.routes.find(p);
    auto have = st.installed.find(p);
    if (r != vr.routes.end()) {
      KernelRoute w = Wanted(vr, r->second);
      if (have == st.installed.end()) {
        ops.push_back({KernelOpType::kAdd, std::move(w)});
      } else if (!SameForwarding(have->second, w)) {
        ops.push_back({KernelOpType::kReplace, std::move(w)});
      }
    } else if (have != st.installed.end()) {
      ops.push_back({KernelOpType::kDelete, have->second});
    }
  }
  Run(st, ops);
}

size_t KernelRoutes::Run(VrState& st, std::span<const KernelOp> ops) {
  if (ops.empty() || kernel_ == nullptr) return 0;
  if (profile_kernel.enabled()) {
    for (const KernelOp& op : ops) {
      profile_kernel.Record((op.type == KernelOpType::kDelete ? "delete " : "add ") +
                            op.route.prefix.ToString());
    }
  }
  std::vector<Status> results = kernel_->Apply(ops);
  stats_.ops += ops.size();
  size_t deleted = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    const KernelOp& op = ops[i];
    const bool ok = i < results.size() && results[i].ok();
    if (!ok) {
      ++stats_.errors;
      log_->warn("kernel refused {} {}: {}",
                 op.type == KernelOpType::kDelete ? "delete of" : "install of", op.route.ToString(),
                 i < results.size() ? results[i].ToString() : "no answer");
    }
    if (op.route.protocol != options_.protocol || op.route.metric != options_.metric) {
      if (ok) ++deleted;  // a stale route at another metric
      continue;
    }
    if (op.type == KernelOpType::kDelete) {
      // Gone either way: a failed delete means the kernel had no such route.
      Uninstall(st, op.route.prefix);
      if (ok) ++deleted;
    } else if (ok) {
      Install(st, op.route);
    } else {
      // The kernel may have made the route's hop for nothing. A refused replace leaves the old
      // route unknown; if no other route of ours shares its hop, releasing the hop takes it out.
      if (auto hop = SharedGatewayHop(op.route)) maybe_unused_.push_back(*hop);
      if (op.type == KernelOpType::kReplace) Uninstall(st, op.route.prefix);
    }
  }
  ReleaseUnusedHops();
  return deleted;
}

size_t KernelRoutes::ReconcileState(const std::string& name, VrState& st, bool remove_unwanted) {
  const Vr* vr = vrs_.Find(name);
  if (kernel_ == nullptr || vr == nullptr) return 0;
  auto dump = kernel_->Dump(st.table, std::max(st.installed.size(), vr->routes.size()) + 64);
  if (!dump.ok()) {
    ++stats_.errors;
    log_->warn("VR {}: cannot dump table {}: {}", name, st.table, dump.status().ToString());
    return 0;
  }
  // The dump replaces `installed`, and the wanted routes live only while planning: at a full
  // table each of the three is a million routes, and one fewer is held at a time.
  UninstallAll(st);
  std::vector<KernelOp> ops;
  {
    std::vector<KernelRoute> wanted;
    wanted.reserve(vr->routes.size());
    for (const auto& [p, r] : vr->routes) wanted.push_back(Wanted(*vr, r));
    ops = PlanReconcile(*dump, wanted, options_.protocol, options_.metric, remove_unwanted).ops;
  }
  for (auto& k : *dump) {
    if (k.protocol == options_.protocol && k.metric == options_.metric) Install(st, std::move(k));
  }
  dump->clear();
  dump->shrink_to_fit();
  const size_t removed = Run(st, ops);
  ReleaseUnusedHops();  // Run sends nothing when there is nothing to repair
  if (remove_unwanted) stats_.stale_removed += removed;
  return removed;
}

size_t KernelRoutes::EndGrace(const std::string& name) {
  auto it = state_.find(name);
  if (it == state_.end()) return 0;
  auto st = it->second;
  st->grace = false;
  return ReconcileState(name, *st, true);
}

bool KernelRoutes::InGrace(const std::string& name) const {
  auto it = state_.find(name);
  return it != state_.end() && it->second->grace;
}

size_t KernelRoutes::Installed(const std::string& name) const {
  auto it = state_.find(name);
  return it == state_.end() ? 0 : it->second->installed.size();
}

size_t KernelRoutes::RemoveAll() {
  if (kernel_ == nullptr) return 0;
  // The nexthop objects first: the kernel takes every route through one along, a message per
  // object instead of one per route. What is left (routes spelt out, or through an object the
  // kernel could not make) is found by a dump and deleted.
  kernel_->ReleaseAllHops();
  size_t removed = 0;
  for (auto& [name, st] : state_) {
    removed += st->installed.size();
    auto dump = kernel_->Dump(st->table, st->installed.size());
    UninstallAll(*st);
    if (!dump.ok()) {
      ++stats_.errors;
      log_->warn("VR {}: cannot dump table {}: {}", name, st->table, dump.status().ToString());
      continue;
    }
    Run(*st, PlanReconcile(*dump, {}, options_.protocol, options_.metric, true).ops);
  }
  state_.clear();
  hop_routes_.clear();
  maybe_unused_.clear();
  log_->info("removed {} Strata routes and every nexthop object from the kernel", removed);
  return removed;
}

size_t KernelRoutes::Reconcile(const std::string& name) {
  auto it = state_.find(name);
  if (it == state_.end()) return 0;
  auto st = it->second;
  return ReconcileState(name, *st, !st->grace);
}

bool KernelRoutes::InKernel(const std::string& vr, const IpPrefix& prefix) const {
  auto it = state_.find(vr);
  return it != state_.end() && it->second->installed.contains(prefix);
}

KernelStats KernelRoutes::stats() const {
  KernelStats s = stats_;
  s.installed = 0;
  for (const auto& [name, st] : state_) s.installed += st->installed.size();
  return s;
}

}  // namespace strata::fea
