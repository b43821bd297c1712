// FeaClientConsumer: the RIB's FEA output over IPC (rib::FeaConsumer -> fea/1.0 on target "fea").
//
// Each FeaBatch becomes, in order, BeginResync (resync_start), ApplyRoutes for this VR, and
// EndResync (resync_end); calls to one target arrive in order, so they are pipelined. At most
// `max_in_flight` calls are outstanding: past that push() refuses (ResourceExhausted) and the
// FeaStage keeps the batch in its bounded queue; each reply calls on_drained so the stage sends
// more. While the FEA is unreachable push() refuses with Unavailable and the RIB keeps working
// (the FeaStage's queue overflows into a later full resync). The owner feeds it the Finder's
// lifetime events for instance "fea": on each birth it sends AddVr for this VR (its answer says
// how many routes the FEA holds for the VR: on_vr_added), then WaitConfig, which the FEA answers
// once the rtrmgr has given it its configuration (the VR's interfaces are bound), and then calls
// on_ready (the process then resyncs, or holds its routes back while its table is not complete,
// and re-subscribes to interface events; docs/restart.md). A call lost to the FEA's death or a
// timeout also leads to a resync; a batch the FEA rejects is counted and logged, not resent.
// Every BeginResync asks the FEA to keep what is not re-sent at most `resync_hold` for the
// EndResync (the RIB may die mid-resync); begin_hold() sends one alone, to claim the FEA's
// routes while the table is being rebuilt.
// Refused entries: batches go with report_refused, so when the FEA refuses entries (a next hop on
// no interface of the VR) it names every one and applies nothing; the rest of the batch is sent
// again at once (in the same in-flight slot; entries that a batch sent later changes again are
// left out, that later change wins), and the refused prefixes go to the refusal listener (the
// FeaStage keeps them for the next re-offer). An EndResync waits for the ApplyRoutes sent
// before it, re-sent parts included, so a re-sent route is not removed as stale.
// Threading: the io_context thread.
#pragma once

#include <google/protobuf/arena.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "common/log.h"
#include "libipc/interfaces/fea.strata.h"
#include "libipc/router.h"
#include "rib/fea_consumer.h"

namespace strata::rib {

class FeaClientConsumer : public FeaConsumer {
 public:
  struct Options {
    std::string vr;
    uint32_t table_id = 0;
    size_t max_in_flight = 4;
    std::string target = "fea";
    std::chrono::milliseconds resync_hold{600000};
  };

  FeaClientConsumer(ipc::Router& router, Options options);
  ~FeaClientConsumer() override;

  void set_on_ready(std::function<void()> cb) { on_ready_ = std::move(cb); }
  void set_on_vr_added(std::function<void(uint64_t held_routes)> cb) {
    on_vr_added_ = std::move(cb);
  }
  void set_on_drained(std::function<void()> cb) { on_drained_ = std::move(cb); }

  // A lifetime event of the FEA instance.
  void fea_event(bool alive);

  Status push(const FeaBatch& batch) override;
  // Sends BeginResync alone, asking the FEA to keep this VR's routes at most `hold` for the
  // EndResync that the resync at the release of the FeaStage will send. False if not ready.
  bool begin_hold(std::chrono::milliseconds hold);
  bool accepting() const override {
    return ready_ && in_flight_ < options_.max_in_flight && !resync_after_drain_;
  }

  bool ready() const { return ready_; }
  size_t in_flight() const { return in_flight_; }
  uint64_t calls_sent() const { return calls_sent_; }
  uint64_t calls_failed() const { return calls_failed_; }
  uint64_t batches_rejected() const { return batches_rejected_; }
  uint64_t batches_resent() const { return batches_resent_; }  // after refused entries
  uint64_t routes_refused() const { return routes_refused_; }

 private:
  void send_add_vr();
  void send_wait_config();
  // Calls `fn` again in 1 s if the FEA incarnation is still the same.
  void retry_later(std::function<void()> fn);
  // Counts a call in flight; `done` runs if the reply is of the current FEA incarnation.
  std::function<void(const Status&)> track(const char* what);
  void call_finished(const Status& status, const char* what);
  // Sends one ApplyRoutes; `resend` reuses the in-flight slot of the call it replaces.
  // A request lives on an arena of its own until answered (a few blocks instead of a malloc and
  // a free per field of each route); NewApply makes one.
  struct ArenaRequest {
    std::unique_ptr<google::protobuf::Arena> arena;
    fea::v1::ApplyRoutesRequest* request = nullptr;
  };
  ArenaRequest NewApply() const;
  void send_apply(ArenaRequest req, bool before_end, bool resend);
  void apply_finished(uint64_t id, const Status& status, const fea::v1::ApplyRoutesReply& reply);
  // Sends the EndResync held back while ApplyRoutes sent before it were unanswered.
  void maybe_send_end_resync();

  struct PendingApply {
    uint64_t id = 0;
    ArenaRequest held;
    const fea::v1::ApplyRoutesRequest& request() const { return *held.request; }
    bool before_end = false;  // sent before an EndResync that waits for it
  };

  ipc::Router& router_;
  Options options_;
  fea::v1::FeaClient client_;
  std::shared_ptr<spdlog::logger> log_;
  std::function<void()> on_ready_;
  std::function<void(uint64_t)> on_vr_added_;
  std::function<void()> on_drained_;
  bool alive_ = false;
  bool ready_ = false;
  bool resync_after_drain_ = false;
  uint64_t generation_ = 0;
  size_t in_flight_ = 0;
  uint64_t calls_sent_ = 0;
  uint64_t calls_failed_ = 0;
  uint64_t batches_rejected_ = 0;
  uint64_t batches_resent_ = 0;
  uint64_t routes_refused_ = 0;
  std::deque<PendingApply> applies_;  // ApplyRoutes in flight, in the order sent
  uint64_t next_apply_id_ = 1;
  bool end_resync_held_ = false;  // an EndResync waits (its in-flight slot is taken)
  std::unique_ptr<boost::asio::steady_timer> retry_timer_;
  std::shared_ptr<bool> self_ = std::make_shared<bool>(true);
};

}  // namespace strata::rib
