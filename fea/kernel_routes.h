// KernelRoutes: installs each VR's routes into its own kernel routing table and reconciles
// that table with the VrTable after a restart.
//
// Strata's kernel routes carry one protocol number (rtm_protocol, default 201) and one
// priority (default 20), whatever the RIB's metric: the protocol tells them apart from every
// other daemon's routes, which this class never adds, replaces or deletes; the fixed priority
// makes (prefix, table) name exactly one Strata route.
//
// Lifecycle per VR: AddVr() dumps the table and adopts the Strata routes it finds (left from a
// previous run). Routes the RIB sends again are kept as they are (or replaced if they differ);
// the others are deleted by EndGrace(), which the FEA calls when the RIB ends its resync or when
// the VR's stale window closes (VrRecovery decides when; this class keeps no timer). Sync()
// installs what a batch changed, in one netlink batch.
// Reconcile() dumps and repairs the table (after a link comes up: the kernel flushes routes
// through a link that goes down). Kernel failures are counted and logged, and the route stays
// in the VrTable (shown with in_kernel false); the next Reconcile() retries it.
// Without a RouteKernel (--no-kernel) every call is a no-op. It counts the installed routes
// through each gateway and tells the RouteKernel when a gateway has none left, so that
// NetlinkRouteKernel can delete the nexthop object it made for it. RemoveAll() takes every Strata
// route and nexthop object out of the kernel (a clean stop of the router).
// Threading: the io_context thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>

#include "absl/container/btree_map.h"
#include "absl/container/flat_hash_map.h"
#include "common/asio.h"
#include "common/log.h"
#include "fea/route_kernel.h"
#include "fea/vr_table.h"

namespace strata::fea {

struct KernelRoutesOptions {
  uint8_t protocol = 201;  // RTPROT_* value for Strata's routes (see /etc/iproute2/rt_protos)
  uint32_t metric = 20;    // kernel priority of every Strata route
};

struct KernelStats {
  uint64_t installed = 0;  // Strata routes now in the kernel
  uint64_t ops = 0;        // route messages sent
  uint64_t errors = 0;     // route messages the kernel refused, failed dumps
  uint64_t adopted = 0;    // Strata routes found at start
  uint64_t stale_removed = 0;
};

class KernelRoutes {
 public:
  // `kernel` may be null (no kernel programming); it must outlive this object.
  KernelRoutes(RouteKernel* kernel, const VrTable& vrs, KernelRoutesOptions options);
  ~KernelRoutes();

  // REQUIRES: vr exists in the VrTable. Returns how many Strata routes were adopted from its
  // table (they stay until EndGrace).
  size_t AddVr(const std::string& vr);
  // Deletes the VR's Strata routes from its table. Call before VrTable::DeleteVr.
  void RemoveVr(const std::string& vr);
  // After VrTable::SetTable: deletes the VR's Strata routes from the table they are in and
  // installs its routes in its new table (adopting Strata routes already there, as AddVr does).
  void MoveVr(const std::string& vr);
  // Makes the kernel match the VrTable for these prefixes of `vr`.
  void Sync(const std::string& vr, std::span<const IpPrefix> changed);
  // Ends the grace period: removes adopted routes the RIB did not send again. Returns how many.
  size_t EndGrace(const std::string& vr);
  // Whether adopted routes of `vr` wait for EndGrace.
  bool InGrace(const std::string& vr) const;
  // Deletes every Strata route of every VR and every nexthop object from the kernel (a clean
  // stop); the VRs' kernel state is forgotten. Returns how many routes went.
  size_t RemoveAll();
  // Strata routes of `vr` in the kernel now.
  size_t Installed(const std::string& vr) const;
  // Dumps the table and makes it match (removing unwanted routes only after the grace period).
  size_t Reconcile(const std::string& vr);

  bool InKernel(const std::string& vr, const IpPrefix& prefix) const;
  KernelStats stats() const;
  const KernelRoutesOptions& options() const { return options_; }

 private:
  struct VrState {
    uint32_t table = 0;
    // Strata routes at our metric in the kernel; a B-tree (no node per route, as VrTable's).
    absl::btree_map<IpPrefix, KernelRoute> installed;
    bool grace = false;  // adopted routes wait for EndGrace
  };

  KernelRoute Wanted(const Vr& vr, const FeaRoute& r) const;
  // Every change to a VR's `installed` goes through these, which count the routes through
  // each GatewayHop; ReleaseUnusedHops() hands the kernel the hops no route uses any more.
  void Install(VrState& st, KernelRoute r);
  void Uninstall(VrState& st, const IpPrefix& prefix);
  void UninstallAll(VrState& st);
  void DropHopUse(const KernelRoute& r);
  void ReleaseUnusedHops();
  void SyncSlice(const Vr& vr, VrState& st, std::span<const IpPrefix> changed);
  // Sends ops, updates `installed`; returns how many deletes succeeded.
  size_t Run(VrState& st, std::span<const KernelOp> ops);
  size_t ReconcileState(const std::string& vr, VrState& st, bool remove_unwanted);

  RouteKernel* kernel_;
  const VrTable& vrs_;
  const KernelRoutesOptions options_;
  std::shared_ptr<spdlog::logger> log_;
  std::map<std::string, std::shared_ptr<VrState>> state_;
  // Installed routes (all VRs: the kernel shares nexthop objects across tables) through each
  // hop; hops whose count fell to zero, or that a refused route may have left unused.
  absl::flat_hash_map<GatewayHop, uint32_t> hop_routes_;
  std::vector<GatewayHop> maybe_unused_;
  KernelStats stats_;
};

}  // namespace strata::fea
