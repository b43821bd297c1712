// RouteMonitor: watches one kernel routing table, as `ip monitor route` would, and keeps its own
// copy of it, so that tests and benchmarks can prove what happened to each route (was it ever
// deleted or replaced?) and how small the table got.
//
// It runs on a thread of its own, in a network namespace given by name (/var/run/netns/NAME),
// subscribed to the route and nexthop-object groups, then dumps the table and the objects; every
// message after that updates the copy and is recorded as an event. The kernel does not report
// the routes it takes along when a nexthop object is deleted: the monitor removes the routes
// that used the object and records each as kFlushed. If the kernel drops messages (ENOBUFS; the
// receive buffer is 64 MB) the monitor dumps the table again and counts the loss (`overruns`):
// events in between are unknown. Only routes of `table` (and of `protocol`, unless 0) count.
// Threading: the getters are thread-safe (a mutex); Stop() joins the thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/ip_prefix.h"
#include "common/status.h"
#include "fea/kernel_route.h"

namespace strata::fea::netlink {

class RouteMonitor {
 public:
  using Clock = std::chrono::steady_clock;
  enum class EventKind : uint8_t { kAdd, kReplace, kDelete, kFlushed };
  struct Event {
    Clock::time_point at;
    EventKind kind = EventKind::kAdd;
    KernelRoute route;  // as reported (kFlushed: as it was)
    uint32_t nhid = 0;  // the route's nexthop object, if it names one
  };
  struct Options {
    std::string netns;  // "" : the calling thread's namespace
    uint32_t table = 254;
    uint8_t protocol = 0;     // 0: every protocol
    bool keep_events = true;  // false: only counts and the per-prefix tallies
  };
  // What happened to one prefix since the start (or Reset()).
  struct Tally {
    uint32_t deletes = 0;  // kDelete and kFlushed
    uint32_t replaces = 0;
    uint32_t adds = 0;
  };

  static StatusOr<std::unique_ptr<RouteMonitor>> Start(Options options);
  ~RouteMonitor();
  void Stop();

  size_t count() const;      // routes in the table now
  size_t min_count() const;  // smallest since Start or ResetMin
  void ResetMin();
  std::map<IpPrefix, KernelRoute> table() const;
  // Calls fn(prefix, route) for each route now, under the monitor's lock (keep it short: the
  // monitor cannot read the kernel's messages meanwhile).
  void ForEach(const std::function<void(const IpPrefix&, const KernelRoute&)>& fn) const;
  std::vector<Event> events() const;
  std::map<IpPrefix, Tally> tallies() const;
  // Forgets events, tallies and the minimum (the table stays).
  void Reset();
  uint64_t overruns() const { return overruns_.load(); }
  uint64_t messages() const { return messages_.load(); }

 private:
  explicit RouteMonitor(Options options) : options_(std::move(options)) {}
  void Run(std::promise<Status>* started);

  struct Entry {
    KernelRoute route;
    uint32_t nhid = 0;
  };
  void Apply(const void* msg, bool dump);
  void Resync();
  void Record(EventKind kind, const KernelRoute& r, uint32_t nhid);

  Options options_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  int sock_ = -1;
  mutable std::mutex mu_;
  std::map<IpPrefix, Entry> routes_;
  size_t min_count_ = 0;
  std::vector<Event> events_;
  std::map<IpPrefix, Tally> tallies_;
  std::atomic<uint64_t> overruns_{0};
  std::atomic<uint64_t> messages_{0};
};

}  // namespace strata::fea::netlink
