#include "fea/fib/epoch_manager.h"

namespace strata::fib {

EpochManager::EpochManager() = default;

int EpochManager::Register() {
  for (int i = 0; i < kMaxReaders; ++i) {
    bool expected = false;
    if (slots_[i].used.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
      slots_[i].epoch.store(kIdle, std::memory_order_release);
      return i;
    }
  }
  return -1;
}

void EpochManager::Unregister(int slot) {
  slots_[slot].epoch.store(kIdle, std::memory_order_release);
  slots_[slot].used.store(false, std::memory_order_release);
}

uint64_t EpochManager::Advance() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return global_.fetch_add(1, std::memory_order_seq_cst);
}

uint64_t EpochManager::MinActive() const {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  uint64_t min = kIdle;
  for (const Slot& s : slots_) {
    uint64_t e = s.epoch.load(std::memory_order_acquire);
    if (e < min) min = e;
  }
  return min;
}

}  // namespace strata::fib
