// Profiler: named profiling points at which a process records route events, as in the XORP
// paper's section 8.2 (figures 10 to 12): "entering BGP", "sent to the RIB", "entering the
// kernel"... Each point is off until enabled at run time (profile/1.0 over IPC); a disabled
// point costs one load and a branch, so hooks stay in the code permanently:
//
//   ProfilePoint& in_ = Profiler::Get().Point(kProfileBgpIn);   // once, at construction
//   if (in_.enabled()) in_.Record("add " + prefix.ToString());  // per event
//
// A record is the time (CLOCK_MONOTONIC, which every process on the host shares, so records of
// different processes compare) and a short detail text. The detail names the event the same
// way at every point ("add 10.0.0.0/24", "delete 10.0.0.0/24") so that a collector can follow
// one route through the processes. Records are kept up to a bound per point; past it the oldest
// go and are counted as dropped.
// Threading: one process-wide instance; points are used from the io_context thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// The route's path through Strata; the order is the order of the pipeline.
inline constexpr std::string_view kProfileBgpIn = "bgp_in";                 // UPDATE handed to BGP
inline constexpr std::string_view kProfileBgpRibQueued = "bgp_rib_queued";  // queued for the RIB
inline constexpr std::string_view kProfileBgpRibSent = "bgp_rib_sent";      // sent to the RIB
inline constexpr std::string_view kProfileRibIn = "rib_in";                 // arriving at the RIB
inline constexpr std::string_view kProfileRibFeaQueued = "rib_fea_queued";  // queued for the FEA
inline constexpr std::string_view kProfileRibFeaSent = "rib_fea_sent";      // sent to the FEA
inline constexpr std::string_view kProfileFeaIn = "fea_in";                 // arriving at the FEA
inline constexpr std::string_view kProfileFeaKernel = "fea_kernel";         // entering the kernel

struct ProfileRecord {
  int64_t time_ns = 0;  // CLOCK_MONOTONIC
  std::string detail;
};

class ProfilePoint {
 public:
  static constexpr size_t kDefaultLimit = 100000;

  explicit ProfilePoint(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }
  bool enabled() const { return enabled_; }
  void set_enabled(bool on) { enabled_ = on; }
  // Records an event now. Call only when enabled() (the caller builds `detail` only then).
  void Record(std::string detail);
  // Removes and returns the records held.
  std::vector<ProfileRecord> Take();
  size_t size() const { return records_.size(); }
  uint64_t dropped() const { return dropped_; }
  void set_limit(size_t limit) { limit_ = limit == 0 ? 1 : limit; }

  static int64_t NowNs();

 private:
  std::string name_;
  bool enabled_ = false;
  size_t limit_ = kDefaultLimit;
  uint64_t dropped_ = 0;
  std::deque<ProfileRecord> records_;
};

class Profiler {
 public:
  // The process's profiler.
  static Profiler& Get();

  // The point named `name`, created (disabled) on first use; references stay valid.
  ProfilePoint& Point(std::string_view name);
  // nullptr when no such point exists.
  ProfilePoint* Find(std::string_view name);
  // Every point, by name.
  std::vector<ProfilePoint*> Points();

 private:
  std::map<std::string, std::unique_ptr<ProfilePoint>, std::less<>> points_;
};

}  // namespace strata
