#include "fea/fib/multi_vr_fib.h"

#include <algorithm>
#include <chrono>

#include "common/unix_time.h"

namespace strata::fib {

template <typename Key>
MultiVrFib<Key>::MultiVrFib(FibOptions options) : options_(options) {
  snap_.store(new Snapshot(), std::memory_order_release);
}

template <typename Key>
MultiVrFib<Key>::~MultiVrFib() {
  WaitForBackgroundRebuild();
  delete snap_.load(std::memory_order_relaxed);
}

template <typename Key>
Status MultiVrFib<Key>::CheckVr(VrId vr) const {
  if (vr >= vrs_.size() || vrs_[vr] == nullptr) {
    return NotFound("no VR " + std::to_string(vr));
  }
  return Status::Ok();
}

template <typename Key>
SharedTrie<Key>* MultiVrFib<Key>::GroupOf(VrId vr) const {
  return vr < group_of_.size() ? group_of_[vr] : nullptr;
}

template <typename Key>
typename MultiVrFib<Key>::Group MultiVrFib<Key>::BuildGroup(const RouteMaster<Key>& master,
                                                            std::vector<VrId> members) const {
  auto g = std::make_unique<SharedTrie<Key>>(master, std::move(members), options_.trie);
  g->Build();
  return g;
}

template <typename Key>
std::vector<typename MultiVrFib<Key>::Group> MultiVrFib<Key>::Partition(
    const RouteMaster<Key>& master, std::vector<VrId> members) const {
  std::vector<Group> out;
  if (options_.policy == GroupingPolicy::kPerVr) {
    for (VrId vr : members) out.push_back(BuildGroup(master, {vr}));
    return out;
  }
  Group whole = BuildGroup(master, members);
  const double whole_bytes = double(whole->used_trie_bytes() + whole->used_row_bytes());
  if (options_.policy == GroupingPolicy::kShared || members.size() == 1 ||
      double(whole->used_row_bytes()) <= options_.split_row_ratio * whole->used_trie_bytes()) {
    out.push_back(std::move(whole));
    return out;
  }
  size_t half = members.size() / 2;
  std::vector<Group> a = Partition(master, {members.begin(), members.begin() + half});
  std::vector<Group> b = Partition(master, {members.begin() + half, members.end()});
  double split_bytes = 0;
  for (auto* part : {&a, &b}) {
    for (const Group& g : *part) split_bytes += double(g->used_trie_bytes() + g->used_row_bytes());
  }
  if (split_bytes < options_.split_keep_fraction * whole_bytes) {
    for (auto* part : {&a, &b}) {
      for (Group& g : *part) out.push_back(std::move(g));
    }
  } else {
    out.push_back(std::move(whole));
  }
  return out;
}

template <typename Key>
void MultiVrFib<Key>::PublishLocked() {
  auto snap = std::make_unique<Snapshot>();
  snap->vrs.resize(vrs_.size());
  group_of_.assign(vrs_.size(), nullptr);
  for (const Group& g : groups_) {
    for (VrId vr : g->members()) {
      group_of_[vr] = g.get();
      snap->vrs[vr] = VrView{g.get(), static_cast<uint32_t>(g->ColumnOf(vr)), vrs_[vr]->nht.get()};
    }
  }
  const Snapshot* old = snap_.exchange(snap.release(), std::memory_order_acq_rel);
  retired_snaps_.Add(std::unique_ptr<const Snapshot>(old));
}

template <typename Key>
void MultiVrFib<Key>::FinishLocked(SharedTrie<Key>* touched, NextHopTable* nht) {
  uint64_t tag = epoch_.Advance();
  if (touched != nullptr) touched->Stamp(tag);
  if (nht != nullptr) nht->Stamp(tag);
  bool structural = touched == nullptr;
  if (structural) {
    for (Group& g : groups_) g->Stamp(tag);
    for (auto& v : vrs_) {
      if (v != nullptr) v->nht->Stamp(tag);
    }
    retired_groups_.Stamp(tag);
    retired_snaps_.Stamp(tag);
    retired_nhts_.Stamp(tag);
  }
  if (!structural && (++finishes_ & 31) != 0) return;
  uint64_t min = epoch_.MinActive();
  for (Group& g : groups_) g->Reclaim(min);
  for (auto& v : vrs_) {
    if (v != nullptr) v->nht->Reclaim(min);
  }
  retired_groups_.Collect(min, [](Group) {});
  retired_snaps_.Collect(min, [](auto) {});
  retired_nhts_.Collect(min, [](auto) {});
}

template <typename Key>
Status MultiVrFib<Key>::AddVr(VrId vr) {
  if (vr >= FibOptions::kMaxVrs) return InvalidArgument("VR id too large");
  std::lock_guard lock(mu_);
  if (vr < vrs_.size() && vrs_[vr] != nullptr) {
    return AlreadyExists("VR " + std::to_string(vr) + " exists");
  }
  if (vr >= vrs_.size()) vrs_.resize(vr + 1);
  vrs_[vr] = std::make_unique<VrState>();
  vrs_[vr]->nht = std::make_unique<NextHopTable>();
  groups_.push_back(BuildGroup(master_, {vr}));
  ++vr_generation_;
  PublishLocked();
  FinishLocked(nullptr, nullptr);
  return Status::Ok();
}

template <typename Key>
Status MultiVrFib<Key>::RemoveVr(VrId vr) {
  std::lock_guard lock(mu_);
  if (Status s = CheckVr(vr); !s.ok()) return s;
  NextHopTable* nht = vrs_[vr]->nht.get();
  master_.RemoveVr(vr, [nht](NextHopId id) { nht->Release(id); });
  SharedTrie<Key>* old = GroupOf(vr);
  std::vector<VrId> rest;
  for (VrId m : old->members()) {
    if (m != vr) rest.push_back(m);
  }
  auto it = std::find_if(groups_.begin(), groups_.end(),
                         [old](const Group& g) { return g.get() == old; });
  retired_groups_.Add(std::move(*it));
  groups_.erase(it);
  if (!rest.empty()) groups_.push_back(BuildGroup(master_, std::move(rest)));
  ++vr_generation_;
  retired_nhts_.Add(std::move(vrs_[vr]->nht));
  vrs_[vr].reset();
  PublishLocked();
  FinishLocked(nullptr, nullptr);
  return Status::Ok();
}

template <typename Key>
Status MultiVrFib<Key>::AddRoute(VrId vr, const IpPrefix& prefix, const NextHop& nh) {
  if (prefix.family() != KeyTraits<Key>::kFamily) return InvalidArgument("wrong address family");
  return AddRoute(vr, KeyTraits<Key>::FromAddr(prefix.addr()), prefix.len(), nh);
}

template <typename Key>
Status MultiVrFib<Key>::AddRoute(VrId vr, const IpPrefix& prefix, std::span<const NextHop> hops) {
  if (prefix.family() != KeyTraits<Key>::kFamily) return InvalidArgument("wrong address family");
  return AddRoute(vr, KeyTraits<Key>::FromAddr(prefix.addr()), prefix.len(), hops);
}

template <typename Key>
Status MultiVrFib<Key>::DeleteRoute(VrId vr, const IpPrefix& prefix) {
  if (prefix.family() != KeyTraits<Key>::kFamily) return InvalidArgument("wrong address family");
  return DeleteRoute(vr, KeyTraits<Key>::FromAddr(prefix.addr()), prefix.len());
}

template <typename Key>
Status MultiVrFib<Key>::SetLocked(VrId vr, Key key, int len, std::span<const NextHop> hops) {
  VrState& v = *vrs_[vr];
  StatusOr<NextHopId> id = v.nht->Acquire(hops);
  if (!id.ok()) return id.status();
  NextHopId old = master_.Set(vr, key, len, *id);
  ++updates_;
  ++updates_since_rebuild_;
  if (old == kDropNextHop) {
    ++v.routes;
  } else {
    v.nht->Release(old);
    if (old == *id) return Status::Ok();
  }
  if (logging_) LogLocked(vr, key, len);
  if (!bulk_) GroupOf(vr)->Update(vr, key, len);
  return Status::Ok();
}

template <typename Key>
bool MultiVrFib<Key>::RemoveLocked(VrId vr, Key key, int len) {
  VrState& v = *vrs_[vr];
  NextHopId old = master_.Remove(vr, key, len);
  if (old == kDropNextHop) return false;
  ++updates_;
  ++updates_since_rebuild_;
  --v.routes;
  v.nht->Release(old);
  if (logging_) LogLocked(vr, key, len);
  if (!bulk_) GroupOf(vr)->Update(vr, key, len);
  return true;
}

template <typename Key>
Status MultiVrFib<Key>::AddRoute(VrId vr, Key key, int len, const NextHop& nh) {
  return AddRoute(vr, key, len, std::span(&nh, 1));
}

template <typename Key>
Status MultiVrFib<Key>::AddRoute(VrId vr, Key key, int len, std::span<const NextHop> hops) {
  if (len < 0 || len > kBits) return InvalidArgument("bad prefix length");
  key = MaskKey(key, len);
  Status s;
  {
    std::lock_guard lock(mu_);
    if (Status c = CheckVr(vr); !c.ok()) return c;
    s = SetLocked(vr, key, len, hops);
    FinishLocked(GroupOf(vr), vrs_[vr]->nht.get());
  }
  AfterChanges(1);
  return s;
}

template <typename Key>
Status MultiVrFib<Key>::DeleteRoute(VrId vr, Key key, int len) {
  if (len < 0 || len > kBits) return InvalidArgument("bad prefix length");
  key = MaskKey(key, len);
  {
    std::lock_guard lock(mu_);
    if (Status s = CheckVr(vr); !s.ok()) return s;
    if (!RemoveLocked(vr, key, len)) return NotFound("no such route");
    FinishLocked(GroupOf(vr), vrs_[vr]->nht.get());
  }
  AfterChanges(1);
  return Status::Ok();
}

template <typename Key>
Status MultiVrFib<Key>::ApplyBatch(std::span<const RouteUpdate<Key>> updates) {
  for (size_t i = 0; i < updates.size(); ++i) {
    if (updates[i].len < 0 || updates[i].len > kBits) {
      return InvalidArgument("updates[" + std::to_string(i) + "]: bad prefix length");
    }
  }
  std::unique_lock lock(mu_);
  for (size_t i = 0; i < updates.size(); ++i) {
    if (Status s = CheckVr(updates[i].vr); !s.ok()) {
      return NotFound("updates[" + std::to_string(i) + "]: " + s.message());
    }
  }
  // Software pipeline: the prefix index slot of update i + kAhead, the master node and trie root
  // slot of update i + 2/3 kAhead, and the master entry and second trie level of update
  // i + 1/3 kAhead are prefetched while update i runs, so the cache misses of neighbouring
  // updates overlap instead of adding up.
  constexpr size_t kAhead = 12;
  auto key_of = [&](size_t i) { return MaskKey(updates[i].key, updates[i].len); };
  for (size_t i = 0; i < std::min(kAhead, updates.size()); ++i) {
    master_.PrefetchIndex(key_of(i), updates[i].len);
  }
  Status first = Status::Ok();
  for (size_t i = 0; i < updates.size(); ++i) {
    if (i + kAhead < updates.size())
      master_.PrefetchIndex(key_of(i + kAhead), updates[i + kAhead].len);
    if (i + 2 * kAhead / 3 < updates.size()) {
      const RouteUpdate<Key>& a = updates[i + 2 * kAhead / 3];
      master_.PrefetchNode(key_of(i + 2 * kAhead / 3), a.len);
      if (SharedTrie<Key>* g = bulk_ ? nullptr : GroupOf(a.vr); g != nullptr) {
        g->PrefetchRoot(key_of(i + 2 * kAhead / 3));
      }
    }
    if (i + kAhead / 3 < updates.size()) {
      const RouteUpdate<Key>& a = updates[i + kAhead / 3];
      master_.PrefetchEntry(key_of(i + kAhead / 3), a.len, a.vr);
      if (SharedTrie<Key>* g = bulk_ ? nullptr : GroupOf(a.vr); g != nullptr) {
        g->PrefetchLevel2(key_of(i + kAhead / 3));
      }
    }
    // Then one level deeper per step: level 3 (or the leaf's row) at i + 2, level 4 at i + 1.
    for (size_t d = 2; d >= 1 && !bulk_; --d) {
      if (i + d >= updates.size()) continue;
      const RouteUpdate<Key>& a = updates[i + d];
      GroupOf(a.vr)->PrefetchPath(key_of(i + d), a.len, static_cast<int>(4 - d));
    }
    const RouteUpdate<Key>& u = updates[i];
    if (u.withdraw) {
      RemoveLocked(u.vr, key_of(i), u.len);
    } else if (Status s =
                   SetLocked(u.vr, key_of(i), u.len, u.ecmp.empty() ? std::span(&u.nh, 1) : u.ecmp);
               !s.ok() && first.ok()) {
      first = s;
    }
  }
  FinishLocked(nullptr, nullptr);
  lock.unlock();
  AfterChanges(updates.size());
  return first;
}

template <typename Key>
std::vector<VrId> MultiVrFib<Key>::LiveVrsLocked() const {
  std::vector<VrId> all;
  for (size_t vr = 0; vr < vrs_.size(); ++vr) {
    if (vrs_[vr] != nullptr) all.push_back(static_cast<VrId>(vr));
  }
  return all;
}

namespace {

double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

template <typename Key>
void MultiVrFib<Key>::Rebuild() {
  std::lock_guard lock(mu_);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<VrId> all = LiveVrsLocked();
  std::vector<Group> fresh;
  if (!all.empty()) fresh = Partition(master_, all);
  for (Group& g : groups_) retired_groups_.Add(std::move(g));
  groups_ = std::move(fresh);
  ++rebuilds_;
  updates_since_rebuild_ = 0;
  PublishLocked();
  FinishLocked(nullptr, nullptr);
  last_rebuild_seconds_ = SecondsSince(t0);
  last_rebuild_unix_ms_ = UnixMillisNow();
}

template <typename Key>
void MultiVrFib<Key>::LogLocked(VrId vr, Key key, int len) {
  if (log_.size() >= options_.rebuild_log_limit) {
    log_overflow_ = true;
    return;
  }
  log_.push_back(LoggedChange{vr, len, key});
}

template <typename Key>
bool MultiVrFib<Key>::NeedsRebuild() const {
  std::lock_guard lock(mu_);
  if (bulk_) return false;  // EndBulkLoad() rebuilds
  if (options_.rebuild_after_updates != 0 &&
      updates_since_rebuild_ >= options_.rebuild_after_updates) {
    return true;
  }
  for (const Group& g : groups_) {
    double used = double(g->used_trie_bytes() + g->used_row_bytes());
    if (used > double(g->built_bytes()) * (1.0 + options_.rebuild_growth)) return true;
    if (double(g->dead_bytes()) > options_.rebuild_dead_fraction * used) return true;
  }
  return false;
}

template <typename Key>
bool MultiVrFib<Key>::RebuildConcurrently() {
  const auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<RouteMaster<Key>> copy;  // destroyed last, after the lock is released
  std::vector<VrId> all;
  uint64_t generation;
  {
    std::lock_guard lock(mu_);
    if (logging_ || bulk_) return false;
    copy = std::make_unique<RouteMaster<Key>>(master_);
    all = LiveVrsLocked();
    generation = vr_generation_;
    logging_ = true;
    log_overflow_ = false;
    log_.clear();
  }
  std::vector<Group> fresh;
  if (!all.empty()) fresh = Partition(*copy, all);
  if (options_.during_concurrent_rebuild) options_.during_concurrent_rebuild();
  std::lock_guard lock(mu_);
  logging_ = false;
  if (generation != vr_generation_ || log_overflow_ || bulk_) {
    log_.clear();
    ++abandoned_rebuilds_;
    return false;  // `fresh` is unpublished: freed right away
  }
  // The new groups describe the copy; the logged changes are exactly where the live master
  // differs. Re-running each against the live master (in any order: each re-derives its
  // region from the final state) brings the groups up to date before anyone can see them.
  std::vector<SharedTrie<Key>*> group_of(vrs_.size(), nullptr);
  for (Group& g : fresh) {
    g->Rebind(master_);
    for (VrId vr : g->members()) group_of[vr] = g.get();
  }
  for (const LoggedChange& c : log_) group_of[c.vr]->Update(c.vr, c.key, c.len);
  log_.clear();
  log_.shrink_to_fit();
  for (Group& g : groups_) retired_groups_.Add(std::move(g));
  groups_ = std::move(fresh);
  ++rebuilds_;
  updates_since_rebuild_ = 0;
  PublishLocked();
  FinishLocked(nullptr, nullptr);
  last_rebuild_seconds_ = SecondsSince(t0);  // copy, build, replay and swap
  last_rebuild_unix_ms_ = UnixMillisNow();
  return true;
}

template <typename Key>
bool MultiVrFib<Key>::MaybeStartBackgroundRebuild() {
  std::lock_guard wl(worker_mu_);
  if (worker_running_.load(std::memory_order_acquire) || !NeedsRebuild()) return false;
  if (worker_.joinable()) worker_.join();
  worker_running_.store(true, std::memory_order_release);
  background_started_.fetch_add(1, std::memory_order_relaxed);
  worker_ = std::thread([this] {
    if (RebuildConcurrently()) background_rebuilds_.fetch_add(1, std::memory_order_relaxed);
    worker_running_.store(false, std::memory_order_release);
  });
  return true;
}

template <typename Key>
void MultiVrFib<Key>::AfterChanges(size_t n) {
  if (!options_.auto_rebuild) return;
  constexpr uint64_t kEvery = 4096;
  uint64_t before = auto_count_.fetch_add(n, std::memory_order_relaxed);
  if (before / kEvery == (before + n) / kEvery) return;
  (void)MaybeStartBackgroundRebuild();
}

template <typename Key>
void MultiVrFib<Key>::WaitForBackgroundRebuild() {
  std::lock_guard wl(worker_mu_);
  if (worker_.joinable()) worker_.join();
}

template <typename Key>
void MultiVrFib<Key>::BeginBulkLoad() {
  std::lock_guard lock(mu_);
  bulk_ = true;
}

template <typename Key>
void MultiVrFib<Key>::EndBulkLoad() {
  {
    std::lock_guard lock(mu_);
    bulk_ = false;
  }
  Rebuild();
}

template <typename Key>
std::vector<VrId> MultiVrFib<Key>::Vrs() const {
  std::lock_guard lock(mu_);
  std::vector<VrId> out;
  for (size_t vr = 0; vr < vrs_.size(); ++vr) {
    if (vrs_[vr] != nullptr) out.push_back(static_cast<VrId>(vr));
  }
  return out;
}

template <typename Key>
FibStats MultiVrFib<Key>::Stats() const {
  std::lock_guard lock(mu_);
  FibStats s;
  for (const Group& g : groups_) {
    GroupStats gs = g->Stats();
    s.trie_nodes += gs.trie_nodes;
    s.shared_rows += gs.rows;
    s.trie_bytes += gs.trie_bytes;
    s.row_bytes += gs.row_bytes;
    s.dead_bytes += g->dead_bytes();
    s.dead_trie_nodes += g->dead_slots();
    s.dead_rows += g->dead_rows();
    if (s.depth_histogram.size() < gs.depth_histogram.size()) {
      s.depth_histogram.resize(gs.depth_histogram.size(), 0);
    }
    for (size_t d = 0; d < gs.depth_histogram.size(); ++d) {
      s.depth_histogram[d] += gs.depth_histogram[d];
    }
    s.groups.push_back(std::move(gs));
  }
  for (const auto& v : vrs_) {
    if (v == nullptr) continue;
    ++s.vrs;
    s.routes += v->routes;
    s.next_hop_bytes += v->nht->bytes();
  }
  s.master_bytes = master_.bytes();
  s.lookup_bytes = s.trie_bytes + s.row_bytes + s.next_hop_bytes;
  s.rebuilds = rebuilds_;
  s.background_rebuilds = background_rebuilds_.load(std::memory_order_relaxed);
  s.background_rebuilds_started = background_started_.load(std::memory_order_relaxed);
  s.abandoned_rebuilds = abandoned_rebuilds_;
  s.last_rebuild_seconds = last_rebuild_seconds_;
  s.last_rebuild_unix_ms = last_rebuild_unix_ms_;
  s.updates = updates_;
  return s;
}

template class MultiVrFib<uint32_t>;
template class MultiVrFib<Uint128>;

}  // namespace strata::fib
