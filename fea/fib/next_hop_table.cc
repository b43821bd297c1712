#include "fea/fib/next_hop_table.h"

namespace strata::fib {

NextHopTable::NextHopTable() : refs_(1, 0) {}

NextHopTable::~NextHopTable() {
  for (auto& c : chunks_) delete[] c.load(std::memory_order_relaxed);
}

StatusOr<NextHopId> NextHopTable::Acquire(std::span<const NextHop> hops) {
  if (hops.empty()) return InvalidArgument("a route needs at least one next hop");
  if (hops.size() > NextHopGroup::kMaxMembers) {
    return InvalidArgument("more than " + std::to_string(NextHopGroup::kMaxMembers) +
                           " next hops in one group");
  }
  for (const NextHop& nh : hops) {
    if (nh.weight == 0) return InvalidArgument("next hop weight 0");
  }
  if (hops.size() > 1) {  // canonical form: sorted, duplicates merged
    canon_.assign(hops.begin(), hops.end());
    std::sort(canon_.begin(), canon_.end(), [](const NextHop& a, const NextHop& b) {
      if (a.addr != b.addr) return a.addr < b.addr;
      if (a.ifindex != b.ifindex) return a.ifindex < b.ifindex;
      return a.weight < b.weight;
    });
    size_t out = 0;
    for (size_t i = 0; i < canon_.size(); ++i) {
      if (out > 0 && canon_[out - 1].addr == canon_[i].addr &&
          canon_[out - 1].ifindex == canon_[i].ifindex) {
        canon_[out - 1].weight += canon_[i].weight;
      } else {
        canon_[out++] = canon_[i];
      }
    }
    canon_.resize(out);
    hops = canon_;
  }
  auto it = index_.find(hops);
  if (it != index_.end()) {
    ++refs_[it->second];
    return it->second;
  }
  uint32_t id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else if (next_ < kMaxIds) {
    id = next_++;
    refs_.push_back(0);
  } else {
    return ResourceExhausted("more than 65535 distinct next-hop groups in one VR");
  }
  uint32_t chunk = id >> kChunkBits;
  NextHopGroup* c = chunks_[chunk].load(std::memory_order_relaxed);
  if (c == nullptr) {
    c = new NextHopGroup[1u << kChunkBits];
    chunks_[chunk].store(c, std::memory_order_release);
  }
  // The slot is unreachable by readers until a route with this id is published (release); a
  // reused slot was last resolvable before a grace period that has passed.
  NextHopGroup& g = c[id & ((1u << kChunkBits) - 1)];
  g.hops_.assign(hops.begin(), hops.end());
  g.upto_.clear();
  g.total_ = 0;
  for (const NextHop& nh : hops) {
    g.total_ += nh.weight;
    if (hops.size() > 1) g.upto_.push_back(g.total_);
  }
  heap_bytes_ += g.hops_.capacity() * sizeof(NextHop) + g.upto_.capacity() * sizeof(uint64_t);
  refs_[id] = 1;
  index_.emplace(g.hops_, static_cast<NextHopId>(id));
  ++live_;
  return static_cast<NextHopId>(id);
}

void NextHopTable::Release(NextHopId id) {
  if (id == kDropNextHop || --refs_[id] != 0) return;
  index_.erase(Get(id).hops_);
  retired_.Add(id);
  --live_;
}

void NextHopTable::Reclaim(uint64_t min_active) {
  retired_.Collect(min_active, [this](NextHopId id) {
    // The group stays readable until here; its slot is overwritten when the id is reused.
    NextHopGroup& g =
        chunks_[id >> kChunkBits].load(std::memory_order_relaxed)[id & ((1u << kChunkBits) - 1)];
    heap_bytes_ -= g.hops_.capacity() * sizeof(NextHop) + g.upto_.capacity() * sizeof(uint64_t);
    g.hops_ = {};
    g.upto_ = {};
    free_.push_back(id);
  });
}

size_t NextHopTable::bytes() const {
  size_t chunks = 0;
  for (const auto& c : chunks_) chunks += c.load(std::memory_order_relaxed) != nullptr;
  return chunks * (sizeof(NextHopGroup) << kChunkBits) + heap_bytes_;
}

}  // namespace strata::fib
