// RtrClient: RTR sessions (RFC 8210, falling back to RFC 6810) to the configured RPKI caches,
// over RTRlib (Debian's librtr), delivering VRP additions and removals to the io_context.
//
// Caches of equal preference form one RTRlib group; RTRlib keeps the group of the lowest
// preference value that is synchronized active and the others connected only while it is not
// (RTRlib's rtr_mgr, as FRR and BIRD use caches). Transport is TCP; SSH transport (RFC 8210 7)
// is not offered.
// Threading, where RTRlib's threads meet ours: RTRlib runs one thread per cache socket and calls
// our pfx-update and status callbacks on those threads. The callbacks only append to a
// mutex-guarded queue inside a shared block and post one drain onto the io_context when the
// queue was empty; the drain runs on the io_context thread, swaps the queue out and hands the
// updates to on_update, and the status changes to the cache view. So every VRP change and
// every piece of state the rest of strata-bgp sees is touched on the io_context thread only,
// and the pipeline needs no lock. The shared block outlives this object (the posted drain
// holds it): after Stop() (which stops and joins RTRlib's threads) a drain still queued finds
// the generation changed and drops what it carries. Configure() replaces every session: the
// owner must clear its VRP table (updates of the old sessions are dropped, not removed one by
// one).
// Threading of the public interface: the io_context thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bgp/rpki/vrp_table.h"
#include "common/asio.h"
#include "common/status.h"

namespace strata::bgp {

struct RtrCacheConfig {
  std::string address;  // host name or address
  uint16_t port = 323;
  uint8_t preference = 1;  // lower is preferred (RFC 8210 has none; RTRlib groups use it)
  friend bool operator==(const RtrCacheConfig&, const RtrCacheConfig&) = default;
};

struct RtrTimers {
  uint32_t refresh_s = 3600;  // RFC 8210 6: 1..86400
  uint32_t retry_s = 600;     // 1..7200
  uint32_t expire_s = 7200;   // 600..172800, more than refresh and retry
  friend bool operator==(const RtrTimers&, const RtrTimers&) = default;
};

// Checks the ranges of RFC 8210 section 6 (the error names the field).
Status ValidateRtrTimers(const RtrTimers& t);

struct VrpUpdate {
  Vrp vrp;
  bool added = false;
  size_t cache = 0;  // index into the configured caches
};

class RtrClient {
 public:
  struct CacheStatus {
    RtrCacheConfig config;
    std::string state = "idle";  // RTRlib's socket state: "connecting", "established", ...
    bool group_active = false;   // its group is the one in use
    uint64_t vrps = 0;           // VRPs this cache currently gives
    uint64_t updates = 0;        // VRP additions and removals received
    uint64_t state_changes = 0;
    uint32_t session_id = 0;  // RTRlib's view, refreshed when the state changes
    uint32_t serial = 0;
    uint32_t version = 0;  // RTR protocol version in use (0: RFC 6810, 1: RFC 8210)
  };
  using UpdateFn = std::function<void(std::vector<VrpUpdate>)>;
  // What RTRlib's threads and the io_context thread share (opaque; rtr_client.cc).
  struct Shared;

  RtrClient(boost::asio::io_context& io, UpdateFn on_update);
  ~RtrClient();
  RtrClient(const RtrClient&) = delete;
  RtrClient& operator=(const RtrClient&) = delete;

  // Replaces every session by sessions to `caches` (none: stops). Error: invalid timers, a
  // cache without address or port, or RTRlib refusing the configuration.
  Status Configure(std::vector<RtrCacheConfig> caches, RtrTimers timers);
  void Stop();

  std::vector<CacheStatus> caches() const { return status_; }
  const RtrTimers& timers() const { return timers_; }
  // Drains that carried updates, and updates dropped because they were of stopped sessions.
  uint64_t drains() const { return drains_; }

 private:
  struct Sessions;
  void drain();

  boost::asio::io_context& io_;
  UpdateFn on_update_;
  RtrTimers timers_;
  std::vector<CacheStatus> status_;
  uint64_t drains_ = 0;
  std::shared_ptr<Shared> shared_;
  std::unique_ptr<Sessions> sessions_;
};

}  // namespace strata::bgp
