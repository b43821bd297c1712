#include "fea/fib/multi_vr_fib.h"

#include <algorithm>

namespace strata::fib {

template <typename Key>
MultiVrFib<Key>::MultiVrFib(FibOptions options) : options_(options) {
  snap_.store(new Snapshot(), std::memory_order_release);
}

template <typename Key>
MultiVrFib<Key>::~MultiVrFib() {
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
typename MultiVrFib<Key>::Group MultiVrFib<Key>::BuildGroup(std::vector<VrId> members) const {
  auto g = std::make_unique<SharedTrie<Key>>(master_, std::move(members), options_.trie);
  g->Build();
  return g;
}

template <typename Key>
std::vector<typename MultiVrFib<Key>::Group> MultiVrFib<Key>::Partition(
    std::vector<VrId> members) const {
  std::vector<Group> out;
  if (options_.policy == GroupingPolicy::kPerVr) {
    for (VrId vr : members) out.push_back(BuildGroup({vr}));
    return out;
  }
  Group whole = BuildGroup(members);
  const double whole_bytes = double(whole->used_trie_bytes() + whole->used_row_bytes());
  if (options_.policy == GroupingPolicy::kShared || members.size() == 1 ||
      double(whole->used_row_bytes()) <= options_.split_row_ratio * whole->used_trie_bytes()) {
    out.push_back(std::move(whole));
    return out;
  }
  size_t half = members.size() / 2;
  std::vector<Group> a = Partition({members.begin(), members.begin() + half});
  std::vector<Group> b = Partition({members.begin() + half, members.end()});
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
  groups_.push_back(BuildGroup({vr}));
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
  if (!rest.empty()) groups_.push_back(BuildGroup(std::move(rest)));
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
Status MultiVrFib<Key>::DeleteRoute(VrId vr, const IpPrefix& prefix) {
  if (prefix.family() != KeyTraits<Key>::kFamily) return InvalidArgument("wrong address family");
  return DeleteRoute(vr, KeyTraits<Key>::FromAddr(prefix.addr()), prefix.len());
}

template <typename Key>
Status MultiVrFib<Key>::SetLocked(VrId vr, Key key, int len, const NextHop& nh) {
  VrState& v = *vrs_[vr];
  StatusOr<NextHopId> id = v.nht->Acquire(nh);
  if (!id.ok()) return id.status();
  NextHopId old = master_.Set(vr, key, len, *id);
  ++updates_;
  if (old == kDropNextHop) {
    ++v.routes;
  } else {
    v.nht->Release(old);
    if (old == *id) return Status::Ok();
  }
  if (!bulk_) GroupOf(vr)->Update(vr, key, len);
  return Status::Ok();
}

template <typename Key>
bool MultiVrFib<Key>::RemoveLocked(VrId vr, Key key, int len) {
  VrState& v = *vrs_[vr];
  NextHopId old = master_.Remove(vr, key, len);
  if (old == kDropNextHop) return false;
  ++updates_;
  --v.routes;
  v.nht->Release(old);
  if (!bulk_) GroupOf(vr)->Update(vr, key, len);
  return true;
}

template <typename Key>
Status MultiVrFib<Key>::AddRoute(VrId vr, Key key, int len, const NextHop& nh) {
  if (len < 0 || len > kBits) return InvalidArgument("bad prefix length");
  key = MaskKey(key, len);
  std::lock_guard lock(mu_);
  if (Status s = CheckVr(vr); !s.ok()) return s;
  Status s = SetLocked(vr, key, len, nh);
  FinishLocked(GroupOf(vr), vrs_[vr]->nht.get());
  return s;
}

template <typename Key>
Status MultiVrFib<Key>::DeleteRoute(VrId vr, Key key, int len) {
  if (len < 0 || len > kBits) return InvalidArgument("bad prefix length");
  key = MaskKey(key, len);
  std::lock_guard lock(mu_);
  if (Status s = CheckVr(vr); !s.ok()) return s;
  if (!RemoveLocked(vr, key, len)) return NotFound("no such route");
  FinishLocked(GroupOf(vr), vrs_[vr]->nht.get());
  return Status::Ok();
}

template <typename Key>
Status MultiVrFib<Key>::ApplyBatch(std::span<const RouteUpdate<Key>> updates) {
  for (size_t i = 0; i < updates.size(); ++i) {
    if (updates[i].len < 0 || updates[i].len > kBits) {
      return InvalidArgument("updates[" + std::to_string(i) + "]: bad prefix length");
    }
  }
  std::lock_guard lock(mu_);
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
    if (i + kAhead < updates.size()) master_.PrefetchIndex(key_of(i + kAhead), updates[i + kAhead].len);
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
    const RouteUpdate<Key>& u = updates[i];
    if (u.withdraw) {
      RemoveLocked(u.vr, key_of(i), u.len);
    } else if (Status s = SetLocked(u.vr, key_of(i), u.len, u.nh); !s.ok() && first.ok()) {
      first = s;
    }
  }
  FinishLocked(nullptr, nullptr);
  return first;
}

template <typename Key>
void MultiVrFib<Key>::Rebuild() {
  std::lock_guard lock(mu_);
  std::vector<VrId> all;
  for (size_t vr = 0; vr < vrs_.size(); ++vr) {
    if (vrs_[vr] != nullptr) all.push_back(static_cast<VrId>(vr));
  }
  std::vector<Group> fresh;
  if (!all.empty()) fresh = Partition(all);
  for (Group& g : groups_) retired_groups_.Add(std::move(g));
  groups_ = std::move(fresh);
  ++rebuilds_;
  PublishLocked();
  FinishLocked(nullptr, nullptr);
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
  s.updates = updates_;
  return s;
}

template class MultiVrFib<uint32_t>;
template class MultiVrFib<Uint128>;

}  // namespace strata::fib
