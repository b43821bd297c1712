// FeaStage: the last stage of the RIB pipeline; queues winning-route changes for the FEA.
//
// Each change arriving from upstream becomes an add, replace or delete in a bounded queue, and
// changes to a prefix still queued are coalesced (delete + add -> replace, add + delete -> none),
// so a flapping route costs one slot. flush() sends the queue in batches of at most max_batch;
// the Rib process calls it after each burst of work (it also runs by itself once a full batch is
// queued). If the consumer refuses a batch (unreachable), the stage keeps working and keeps
// queueing; past max_queue it drops the queue and marks itself out of sync. It re-synchronises
// with the full current table (a dump, one batch per scheduler slice, see fea_consumer.h) once the
// consumer accepts batches again after an overflow, or when consumer_reconnected() says the
// consumer lost its state. A dump the consumer refuses (busy) waits for consumer_drained(). The
// stage keeps no index of the prefixes present: the dump walks the table upstream with lookup_next.
// Refused routes: the consumer reports the prefixes whose change the FEA refused (a next hop on
// no interface of the VR); it has sent the rest of their batch again itself. The stage keeps the
// refused prefixes with the FEA's reason (dropping one when a newer change for it is queued;
// `show route` shows them as not installed) and reoffer_refused()
// queues each again with its current route, e.g. when the VR gains a connected subnet.
// Held (set_held): while the RIB's table is not complete after a restart and the FEA keeps the
// routes it had (docs/restart.md), nothing goes to the consumer, so the FEA never sees a partial
// table; releasing sends the whole table as one resync.
// Threading: single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "absl/container/flat_hash_map.h"
#include "common/task_scheduler.h"
#include "rib/fea_consumer.h"
#include "rib/pass_through_stage.h"

namespace strata::rib {

class FeaStage : public PassThroughStage {
 public:
  struct Options {
    size_t max_batch = 256;
    size_t max_queue = 100000;
  };
  enum class SyncState : uint8_t { kInSync, kNeedResync, kResyncing };

  // REQUIRES: consumer and scheduler outlive this stage.
  FeaStage(RouteStage* parent, FeaConsumer& consumer, TaskScheduler& scheduler, Options options);
  ~FeaStage() override;
  FeaStage(const FeaStage&) = delete;
  FeaStage& operator=(const FeaStage&) = delete;

  std::string name() const override { return "fea-out"; }
  // Told of every winner change as it arrives (before any coalescing or holding): `monitor
  // route` records them. A replace is a kDelete of the old route then a kAdd of the new one.
  using Observer = std::function<void(FeaOp op, const RouteRef& route)>;
  void set_observer(Observer observer) { observer_ = std::move(observer); }
  void add_route(const RouteRef& route, RouteStage* caller) override;
  void delete_route(const RouteRef& route, RouteStage* caller) override;

  // Sends queued changes while the consumer takes them; starts a pending resync.
  void flush();
  // The consumer restarted or reconnected without its old state: re-send the whole table.
  void consumer_reconnected();
  // A call to the consumer finished, so it may accept again: a resync dump it refused goes on
  // at the next flush() (until then flush() does not restart it).
  void consumer_drained();
  // Queues every refused prefix again (as an add of its current route, if it still has one).
  void reoffer_refused();
  // Holding drops what is queued and sends nothing until released; the release resyncs.
  void set_held(bool held);
  bool held() const { return held_; }

  SyncState sync_state() const { return state_; }
  size_t queued() const { return live_; }
  size_t routes() const { return routes_; }
  uint64_t batches_sent() const { return batches_sent_; }
  uint64_t send_failures() const { return send_failures_; }
  uint64_t overflows() const { return overflows_; }
  uint64_t resyncs() const { return resyncs_; }
  size_t refused() const { return refused_prefixes_.size(); }  // waiting for a re-offer
  uint64_t routes_refused() const { return routes_refused_; }  // refusals ever reported
  // Why the FEA refused the route for `prefix` (it is not installed), or null if it did not (or
  // a newer change for the prefix is on its way).
  const std::string* refusal(const IpPrefix& prefix) const {
    auto it = refused_prefixes_.find(prefix);
    return it == refused_prefixes_.end() ? nullptr : &it->second;
  }

 private:
  void enqueue(FeaOp op, const IpPrefix& prefix, const RouteRef& route);
  void on_refused(std::span<const FeaConsumer::Refusal> refusals);
  // Sends one batch of queued changes; false if none was queued or the consumer refused it.
  bool send_queued();
  bool dump_slice();
  void start_resync();
  // Forgets the queue and any dump under way: the whole table goes again in a resync.
  void drop_backlog();
  bool covered_by_dump(const IpPrefix& p) const;

  FeaConsumer& consumer_;
  TaskScheduler& scheduler_;
  Options options_;
  size_t routes_ = 0;  // prefixes present downstream (a dump walks them upstream: lookup_next)
  std::deque<std::optional<FeaChange>> queue_;  // coalesced changes leave empty slots
  // prefix -> sequence number in queue_. Open addressing: no node per entry, so dropping a full
  // queue on overflow is one free, not one per change (a stall other calls would wait behind).
  absl::flat_hash_map<IpPrefix, uint64_t, std::hash<IpPrefix>> queued_at_;
  uint64_t head_seq_ = 0;
  size_t live_ = 0;
  SyncState state_ = SyncState::kInSync;
  bool resync_start_sent_ = false;
  std::optional<IpPrefix> dumped_to_;
  bool flushing_ = false;
  bool held_ = false;
  bool refused_ = false;     // the consumer refused the last batch; retried on the next flush()
  bool dump_waits_ = false;  // the consumer refused the dump: it waits for consumer_drained()
  uint64_t batches_sent_ = 0;
  uint64_t send_failures_ = 0;
  uint64_t overflows_ = 0;
  uint64_t resyncs_ = 0;
  std::map<IpPrefix, std::string> refused_prefixes_;  // and the FEA's reason
  uint64_t routes_refused_ = 0;
  TaskHandle dump_task_;
  Observer observer_;
};

}  // namespace strata::rib
