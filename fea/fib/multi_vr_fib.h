// MultiVrFib: the forwarding table of every virtual router in one process, IPv4 or IPv6.
//
// What: a RouteMaster (every VR's prefix -> next hop, the source of truth), per-VR NextHopTables,
// and the lookup structure: VRs are partitioned into groups and each group is one SharedTrie (a
// leaf-pushed level-compressed trie whose leaves name rows of one NextHopId per member VR, after
// Fu & Rexford). Why groups: sharing pays off only when tables are alike. Rebuild() picks the
// partition by measurement (GroupingPolicy::kAdaptive): it builds one group of all VRs and, when
// its next-hop rows outweigh its trie, tries halving it, keeping a split only when the halves
// are smaller. A VR added at run time starts in a group of its own until the next Rebuild().
//
// Reader contract (lock-free lookups):
//   ReaderSlot slot(fib);            // once per reader thread (at most 64 at a time)
//   { ReadSection rs(fib, slot);     // pins an epoch; keep it short, e.g. one packet batch
//     NextHopId id = rs.Lookup(vr, addr);          // 0 = no route (drop)
//     const NextHopGroup* g = rs.Resolve(vr, id);  // valid until the section ends
//     const NextHop& nh = g->Select(flow_hash); }  // ECMP: pick a member by flow hash
// Inside a section a lookup sees, for each address, the table as it was before or after any
// update running concurrently (each address's answer comes from one atomically published
// subtree). Memory the writer unlinks is freed only after every section that could see it ended.
//
// Writer contract: AddVr/RemoveVr/AddRoute/DeleteRoute/Rebuild/Stats may be called from any
// thread; they are serialized by an internal mutex that readers never take. Rebuild() holds it
// while it builds; RebuildConcurrently() (or the FIB's own worker, MaybeStartBackgroundRebuild /
// FibOptions::auto_rebuild) holds it only to copy the master and to catch up and swap, so route
// changes continue during the build. Lookups continue in both cases.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "common/ip_prefix.h"
#include "common/status.h"
#include "fea/fib/epoch_manager.h"
#include "fea/fib/fib_stats.h"
#include "fea/fib/next_hop_table.h"
#include "fea/fib/retire_list.h"
#include "fea/fib/route_master.h"
#include "fea/fib/shared_trie.h"

namespace strata::fib {

enum class GroupingPolicy : uint8_t {
  kAdaptive = 0,  // shared where it is smaller, split where next-hop rows explode
  kShared = 1,    // one group of all VRs (the paper)
  kPerVr = 2,     // one LC-trie per VR (the baseline)
};

struct FibOptions {
  TrieOptions trie;
  GroupingPolicy policy = GroupingPolicy::kAdaptive;
  // kAdaptive tries to split a group when its row bytes exceed this multiple of its trie bytes,
  double split_row_ratio = 1.0;
  // and keeps the split when the halves use less than this fraction of the group's bytes.
  double split_keep_fraction = 0.9;
  // Rebuild policy (NeedsRebuild): a group's used trie + row bytes grew by more than this
  // fraction over its size right after its build (incremental updates never re-collapse; 1.0:
  // doubled, so that tables that really grow are rebuilt at geometrically spaced sizes), or its
  // garbage (freed node slots and rows: SharedTrie::dead_bytes) exceeds this fraction of its used
  // bytes, or this many route changes were applied since the last rebuild (0: no count limit).
  double rebuild_growth = 1.0;
  double rebuild_dead_fraction = 0.5;
  uint64_t rebuild_after_updates = 1'000'000;
  // A concurrent rebuild logs the route changes applied while it builds; beyond this many it
  // gives up (a writer far outpacing the build), and the next attempt starts over.
  size_t rebuild_log_limit = size_t{1} << 22;
  // When true, AddRoute/DeleteRoute/ApplyBatch check the policy every 4096 route changes and
  // call MaybeStartBackgroundRebuild() (after releasing the writer lock).
  bool auto_rebuild = true;
  // Tests only: called by RebuildConcurrently() while it builds without the writer lock.
  std::function<void()> during_concurrent_rebuild = nullptr;
  static constexpr VrId kMaxVrs = 4096;
};

// One route change for MultiVrFib::ApplyBatch. Host bits of key are ignored.
template <typename Key>
struct RouteUpdate {
  VrId vr = 0;
  Key key{};
  int len = 0;
  bool withdraw = false;  // else add or replace with nh (or ecmp)
  NextHop nh;
  // When non-empty, the route's next hops (an ECMP group) instead of nh. The caller keeps the
  // members alive for the duration of the ApplyBatch call.
  std::span<const NextHop> ecmp = {};
};

template <typename Key>
class MultiVrFib {
 private:
  struct VrView {
    const SharedTrie<Key>* trie = nullptr;
    uint32_t col = 0;
    const NextHopTable* nht = nullptr;
  };
  struct Snapshot {
    std::vector<VrView> vrs;
  };

 public:
  using KeyType = Key;
  static constexpr int kBits = KeyTraits<Key>::kBits;

  explicit MultiVrFib(FibOptions options = {});
  ~MultiVrFib();
  MultiVrFib(const MultiVrFib&) = delete;
  MultiVrFib& operator=(const MultiVrFib&) = delete;

  // ---- writer API ----
  Status AddVr(VrId vr);
  // Drops the VR and all its routes.
  Status RemoveVr(VrId vr);
  // Adds or replaces vr's route for prefix. Host bits are ignored; wrong family is an error.
  Status AddRoute(VrId vr, const IpPrefix& prefix, const NextHop& nh);
  // Same with several next hops (ECMP; see NextHopTable::Acquire for what is rejected).
  Status AddRoute(VrId vr, const IpPrefix& prefix, std::span<const NextHop> hops);
  Status DeleteRoute(VrId vr, const IpPrefix& prefix);
  // Same on raw keys. REQUIRES: 0 <= len <= kBits (else InvalidArgument).
  Status AddRoute(VrId vr, Key key, int len, const NextHop& nh);
  Status AddRoute(VrId vr, Key key, int len, std::span<const NextHop> hops);
  Status DeleteRoute(VrId vr, Key key, int len);
  // Applies the updates in order under one lock and one publication, overlapping their cache
  // misses (for 1 to a few thousand updates at a time). A withdraw of an absent route is a
  // no-op. A bad length or unknown VR rejects the whole batch before anything is applied; a
  // next-hop table overflow or a bad next-hop group skips that update and is returned after
  // the rest are applied.
  Status ApplyBatch(std::span<const RouteUpdate<Key>> updates);
  // Re-partitions the VRs and rebuilds every group from the master, swapping each in atomically.
  // Holds the writer lock throughout (readers never wait; writers do).
  void Rebuild();
  // Whether the rebuild policy (FibOptions::rebuild_growth, rebuild_after_updates) asks for a
  // rebuild: some group grew by incremental updates, or many changes happened since the last.
  bool NeedsRebuild() const;
  // The same result as Rebuild() without blocking the writer while it builds: under the lock it
  // copies the route master (a copy of its arrays) and starts logging route changes; it builds
  // the new groups from the copy with the lock released, while AddRoute/DeleteRoute/ApplyBatch
  // go on; then, under the lock, it brings the new groups up to date by re-running the logged
  // changes against the live master (the incremental Update path) and swaps them in. Returns
  // false, changing nothing, when another concurrent rebuild is running, a bulk load is in
  // progress, a VR was added or removed meanwhile, or the log exceeded rebuild_log_limit. Cost: a
  // transient master copy.
  bool RebuildConcurrently();
  // If NeedsRebuild() and no background rebuild is running, starts RebuildConcurrently() on a
  // worker thread owned by the FIB and returns true. Call it from the writer now and then (e.g.
  // after each batch). The destructor waits for the worker.
  bool MaybeStartBackgroundRebuild();
  // Waits until the worker started by MaybeStartBackgroundRebuild() (if any) has finished.
  void WaitForBackgroundRebuild();
  // Between these, route changes only update the master (lookups keep the old answers);
  // EndBulkLoad() rebuilds. For loading whole tables.
  void BeginBulkLoad();
  void EndBulkLoad();
  FibStats Stats() const;
  std::vector<VrId> Vrs() const;

  // ---- reader API ----
  class ReaderSlot {
   public:
    explicit ReaderSlot(const MultiVrFib& fib) : fib_(fib), id_(fib.epoch_.Register()) {}
    ~ReaderSlot() {
      if (id_ >= 0) fib_.epoch_.Unregister(id_);
    }
    ReaderSlot(const ReaderSlot&) = delete;
    ReaderSlot& operator=(const ReaderSlot&) = delete;
    // False when all reader slots were taken.
    bool ok() const { return id_ >= 0; }
    int id() const { return id_; }

   private:
    const MultiVrFib& fib_;
    int id_;
  };

  class ReadSection {
   public:
    // REQUIRES: slot.ok(), one section per slot at a time.
    ReadSection(const MultiVrFib& fib, const ReaderSlot& slot) : fib_(fib), slot_(slot.id()) {
      fib_.epoch_.Enter(slot_);
      snap_ = fib_.snap_.load(std::memory_order_acquire);
    }
    ~ReadSection() { fib_.epoch_.Exit(slot_); }
    ReadSection(const ReadSection&) = delete;
    ReadSection& operator=(const ReadSection&) = delete;

    NextHopId Lookup(VrId vr, Key addr) const {
      // Reloaded per lookup so that a section never misses a group swapped in after it began.
      snap_ = fib_.snap_.load(std::memory_order_acquire);
      if (vr >= snap_->vrs.size()) return kDropNextHop;
      const VrView& v = snap_->vrs[vr];
      if (v.trie == nullptr) return kDropNextHop;
      return v.trie->Lookup(v.col, addr);
    }
    // Lookup(vrs[i], addrs[i]) into out[i] for every i, the trie walks of up to 32 addresses at
    // a time interleaved so that their cache misses overlap: for packet batches. Each answer is
    // one Lookup() would give. REQUIRES: the three spans have the same size.
    void LookupBatch(std::span<const VrId> vrs, std::span<const Key> addrs,
                     std::span<NextHopId> out) const {
      constexpr size_t kLanes = SharedTrie<Key>::kLanes;
      const SharedTrie<Key>* tries[kLanes];
      uint32_t cols[kLanes];
      Key keys[kLanes];
      NextHopId res[kLanes];
      uint32_t at[kLanes];
      for (size_t base = 0; base < addrs.size(); base += kLanes) {
        snap_ = fib_.snap_.load(std::memory_order_acquire);  // as in Lookup()
        const size_t end = std::min(addrs.size(), base + kLanes);
        size_t m = 0;
        for (size_t i = base; i < end; ++i) {
          const VrId vr = vrs[i];
          const VrView* v = vr < snap_->vrs.size() ? &snap_->vrs[vr] : nullptr;
          if (v == nullptr || v->trie == nullptr) {
            out[i] = kDropNextHop;
            continue;
          }
          tries[m] = v->trie;
          cols[m] = v->col;
          keys[m] = addrs[i];
          at[m++] = static_cast<uint32_t>(i);
        }
        SharedTrie<Key>::LookupLanes(tries, cols, keys, res, m);
        for (size_t j = 0; j < m; ++j) out[at[j]] = res[j];
      }
    }
    // kDropNextHop for a wrong family.
    NextHopId Lookup(VrId vr, const IpAddr& addr) const {
      if (addr.family() != KeyTraits<Key>::kFamily) return kDropNextHop;
      return Lookup(vr, KeyTraits<Key>::FromAddr(addr));
    }
    // The next hops behind an id from Lookup(vr, ...); nullptr for kDropNextHop. Pick the
    // member of an ECMP route with Select(flow hash).
    const NextHopGroup* Resolve(VrId vr, NextHopId id) const {
      if (id == kDropNextHop || vr >= snap_->vrs.size() || snap_->vrs[vr].nht == nullptr) {
        return nullptr;
      }
      return &snap_->vrs[vr].nht->Get(id);
    }

   private:
    const MultiVrFib& fib_;
    int slot_;
    mutable const Snapshot* snap_;
  };

 private:
  struct VrState {
    std::unique_ptr<NextHopTable> nht;
    size_t routes = 0;
  };
  using Group = std::unique_ptr<SharedTrie<Key>>;

  Group BuildGroup(const RouteMaster<Key>& master, std::vector<VrId> members) const;
  std::vector<Group> Partition(const RouteMaster<Key>& master, std::vector<VrId> members) const;
  std::vector<VrId> LiveVrsLocked() const;
  // Notes a route change for a concurrent rebuild in progress.
  void LogLocked(VrId vr, Key key, int len);
  // FibOptions::auto_rebuild: counts n route changes; every 4096 checks the policy.
  // REQUIRES: mu_ not held.
  void AfterChanges(size_t n);
  SharedTrie<Key>* GroupOf(VrId vr) const;
  // Replaces groups_ (retiring the old ones) and publishes a snapshot.
  void PublishLocked();
  // Tags what this operation unlinked and recycles what no reader can see.
  void FinishLocked(SharedTrie<Key>* touched, NextHopTable* nht);
  Status CheckVr(VrId vr) const;
  // The route change without publication (FinishLocked); REQUIRES: mu_ held, vr exists, key
  // masked. RemoveLocked returns false when there was no such route.
  Status SetLocked(VrId vr, Key key, int len, std::span<const NextHop> hops);
  bool RemoveLocked(VrId vr, Key key, int len);

  const FibOptions options_;
  mutable EpochManager epoch_;
  std::atomic<const Snapshot*> snap_{nullptr};

  mutable std::mutex mu_;
  RouteMaster<Key> master_;
  std::vector<std::unique_ptr<VrState>> vrs_;
  std::vector<Group> groups_;
  std::vector<SharedTrie<Key>*> group_of_;  // by VrId
  RetireList<Group> retired_groups_;
  RetireList<std::unique_ptr<const Snapshot>> retired_snaps_;
  RetireList<std::unique_ptr<NextHopTable>> retired_nhts_;
  uint64_t rebuilds_ = 0;
  uint64_t abandoned_rebuilds_ = 0;
  std::atomic<uint64_t> background_rebuilds_{0};
  std::atomic<uint64_t> background_started_{0};
  double last_rebuild_seconds_ = 0;
  int64_t last_rebuild_unix_ms_ = 0;
  uint64_t updates_ = 0;
  uint64_t finishes_ = 0;
  uint64_t updates_since_rebuild_ = 0;
  bool bulk_ = false;
  // Concurrent rebuild state (under mu_).
  struct LoggedChange {
    VrId vr;
    int len;
    Key key;
  };
  bool logging_ = false;
  bool log_overflow_ = false;
  uint64_t vr_generation_ = 0;  // bumped by AddVr/RemoveVr
  std::vector<LoggedChange> log_;
  // The background worker (MaybeStartBackgroundRebuild), guarded by worker_mu_.
  std::mutex worker_mu_;
  std::thread worker_;
  std::atomic<bool> worker_running_{false};
  std::atomic<uint64_t> auto_count_{0};
};

using Fib4 = MultiVrFib<uint32_t>;
using Fib6 = MultiVrFib<Uint128>;

extern template class MultiVrFib<uint32_t>;
extern template class MultiVrFib<Uint128>;

}  // namespace strata::fib
