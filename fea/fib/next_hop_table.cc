#include "fea/fib/next_hop_table.h"

namespace strata::fib {

NextHopTable::NextHopTable() : refs_(1, 0) {}

NextHopTable::~NextHopTable() {
  for (auto& c : chunks_) delete[] c.load(std::memory_order_relaxed);
}

StatusOr<NextHopId> NextHopTable::Acquire(const NextHop& nh) {
  auto it = index_.find(nh);
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
    return ResourceExhausted("more than 65535 distinct next hops in one VR");
  }
  uint32_t chunk = id >> kChunkBits;
  NextHop* c = chunks_[chunk].load(std::memory_order_relaxed);
  if (c == nullptr) {
    c = new NextHop[1u << kChunkBits];
    chunks_[chunk].store(c, std::memory_order_release);
  }
  // The slot is unreachable by readers until a route with this id is published (release).
  c[id & ((1u << kChunkBits) - 1)] = nh;
  refs_[id] = 1;
  index_.emplace(nh, static_cast<NextHopId>(id));
  ++live_;
  return static_cast<NextHopId>(id);
}

void NextHopTable::Release(NextHopId id) {
  if (id == kDropNextHop || --refs_[id] != 0) return;
  index_.erase(Get(id));
  retired_.Add(id);
  --live_;
}

void NextHopTable::Reclaim(uint64_t min_active) {
  retired_.Collect(min_active, [this](NextHopId id) { free_.push_back(id); });
}

size_t NextHopTable::bytes() const {
  size_t chunks = 0;
  for (const auto& c : chunks_) chunks += c.load(std::memory_order_relaxed) != nullptr;
  return chunks * (sizeof(NextHop) << kChunkBits);
}

}  // namespace strata::fib
