// RouteCounter: what the benchmark's counting session has received, updated by its reader
// thread and read by the benchmark's thread.
//
// Table prefixes (the N the feeder sends) are counted: how many are present now and how many
// withdrawals of present ones arrived. Watched prefixes (the probes of the latency phases) get
// the time their last announcement and withdrawal arrived. Other prefixes are ignored.
// ScanUpdate reads only the Withdrawn Routes and NLRI fields of an UPDATE body, which is all the
// counting needs; the codec's full decoder is not used on this hot path.
// Thread-safety: OnUpdate from one thread; the getters and Reset* from any.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "common/ip_prefix.h"

namespace strata::bench {

using Clock = std::chrono::steady_clock;

class RouteCounter {
 public:
  // REQUIRES: IPv4 prefixes; watched ones not in the table.
  RouteCounter(const std::vector<IpPrefix>& table, const std::vector<IpPrefix>& watched);

  // One UPDATE body (after the 19-byte header). False if it is malformed.
  bool OnUpdate(std::span<const uint8_t> body);

  size_t present() const { return present_.load(std::memory_order_acquire); }
  size_t withdrawn() const { return withdrawn_.load(std::memory_order_acquire); }
  uint64_t updates() const { return updates_.load(std::memory_order_relaxed); }
  // Nanoseconds on Clock of the last announcement / withdrawal of watched prefix i; 0: none.
  int64_t announced_at(size_t i) const { return watch_[i].announced.load(); }
  int64_t withdrawn_at(size_t i) const { return watch_[i].withdrawn.load(); }
  void ResetWatch(size_t i) {
    watch_[i].announced = 0;
    watch_[i].withdrawn = 0;
  }

  static int64_t NowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
        .count();
  }

 private:
  struct Watch {
    std::atomic<int64_t> announced{0};
    std::atomic<int64_t> withdrawn{0};
  };
  static uint64_t Key(uint32_t addr, int len) {
    return (static_cast<uint64_t>(addr) << 8) | static_cast<uint64_t>(len);
  }
  // Calls fn(index) for each known prefix in a prefix field; false if malformed.
  template <typename Fn>
  bool ScanPrefixes(const uint8_t* p, const uint8_t* end, Fn fn);
  void Seen(uint32_t index, bool announce, int64_t now);

  std::unordered_map<uint64_t, uint32_t> index_;  // table prefixes first, then watched
  size_t table_size_;
  std::vector<uint8_t> is_present_;
  std::unique_ptr<Watch[]> watch_;
  std::atomic<size_t> present_{0};
  std::atomic<size_t> withdrawn_{0};
  std::atomic<uint64_t> updates_{0};
};

}  // namespace strata::bench
