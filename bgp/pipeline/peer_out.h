// PeerOut: the end of one peer's output branch; batches changes for the peer's session.
//
// Changes arriving from the output filter are coalesced per prefix (the newest state wins: an
// attribute set to announce, or a withdrawal) until flush(), which the fanout calls after each
// run of deliveries, or until max_batch prefixes are pending. flush() groups the prefixes by
// attribute set (by value) and family and hands one UpdateBatch to the SessionSink. While the
// sink is busy nothing is sent and the flow callback asks the fanout to stop delivering to this
// peer; sink_ready() sends what is pending and lets the fanout resume. PeerOut stores no routes,
// only the pending batch of attribute references. Lookups pass upstream.
// Threading: single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/container/flat_hash_map.h"
#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/session_sink.h"

namespace strata::bgp {

class PeerOut : public PassThroughStage {
 public:
  struct Counters {
    uint64_t advertised = 0;  // prefixes currently advertised (after the output filter)
    uint64_t announcements_sent = 0;
    uint64_t withdrawals_sent = 0;
    uint64_t batches_sent = 0;
    uint64_t busy_pauses = 0;
  };
  // Called with true when the sink became busy, false when it is ready again.
  using FlowFn = std::function<void(bool busy)>;

  // REQUIRES: max_batch > 0; sink outlives this stage.
  PeerOut(PeerId peer, SessionSink& sink, BgpStage* parent, size_t max_batch, FlowFn flow);

  std::string name() const override { return "peer-out:" + std::to_string(peer_); }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;

  // Sends the pending batch unless the sink is busy.
  void flush();
  // The sink drained: send what is pending and resume pulling.
  void sink_ready();

  size_t pending() const { return pending_.size(); }
  bool blocked() const { return blocked_; }
  const Counters& counters() const { return counters_; }

 private:
  void queue(const IpPrefix& prefix, AttributeSetPtr attrs);
  void set_blocked(bool blocked);
  // Counts the batch and hands it to the sink.
  void send(UpdateBatch batch);

  PeerId peer_;
  SessionSink& sink_;
  size_t max_batch_;
  FlowFn flow_;
  absl::btree_map<IpPrefix, AttributeSetPtr> pending_;  // null: withdraw; sorted
  // flush()'s scratch, kept for its capacity: the groups by attribute set (per family), their
  // sizes, and each pending prefix's group.
  static constexpr uint32_t kWithdrawal = UINT32_MAX;
  absl::flat_hash_map<AttributeSetPtr, uint32_t, AttributeSetPtrHash, AttributeSetPtrEq> groups_[2];
  std::vector<uint32_t> group_sizes_;
  std::vector<uint32_t> group_of_;
  bool blocked_ = false;
  Counters counters_;
};

}  // namespace strata::bgp
