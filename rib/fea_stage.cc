#include "rib/fea_stage.h"

#include "common/profiler.h"

namespace strata::rib {
namespace {
ProfilePoint& profile_queued = Profiler::Get().Point(kProfileRibFeaQueued);
}  // namespace

std::string_view FeaOpName(FeaOp op) {
  switch (op) {
    case FeaOp::kAdd:
      return "add";
    case FeaOp::kReplace:
      return "replace";
    case FeaOp::kDelete:
      return "delete";
  }
  return "unknown";
}

FeaStage::FeaStage(RouteStage* parent, FeaConsumer& consumer, TaskScheduler& scheduler,
                   Options options)
    : PassThroughStage(parent), consumer_(consumer), scheduler_(scheduler), options_(options) {
  if (options_.max_batch == 0) options_.max_batch = 1;
  if (options_.max_queue < options_.max_batch) options_.max_queue = options_.max_batch;
  // The listener is a member of the consumer, which outlives this stage (see the constructor's
  // REQUIRES); the destructor removes it.
  consumer_.set_refusal_listener(
      [this](std::span<const FeaConsumer::Refusal> r) { on_refused(r); });
}

FeaStage::~FeaStage() { consumer_.set_refusal_listener(nullptr); }

void FeaStage::on_refused(std::span<const FeaConsumer::Refusal> refusals) {
  for (const FeaConsumer::Refusal& r : refusals) {
    // A newer change for the prefix is queued (or the queue was dropped for a resync): that
    // one goes to the FEA anyway.
    if (queued_at_.contains(r.prefix) || covered_by_dump(r.prefix)) continue;
    refused_prefixes_[r.prefix] = r.reason;
    ++routes_refused_;
  }
}

void FeaStage::reoffer_refused() {
  auto prefixes = std::move(refused_prefixes_);
  refused_prefixes_.clear();
  for (const auto& [p, reason] : prefixes) {
    if (queued_at_.contains(p) || covered_by_dump(p)) continue;
    if (RouteRef r = lookup_route(p)) enqueue(FeaOp::kAdd, p, r);
  }
  flush();
}

void FeaStage::add_route(const RouteRef& route, RouteStage* caller) {
  ++routes_;
  if (observer_) observer_(FeaOp::kAdd, route);
  enqueue(FeaOp::kAdd, route->prefix, route);
  PassThroughStage::add_route(route, caller);
}

void FeaStage::delete_route(const RouteRef& route, RouteStage* caller) {
  --routes_;
  if (observer_) observer_(FeaOp::kDelete, route);
  enqueue(FeaOp::kDelete, route->prefix, nullptr);
  PassThroughStage::delete_route(route, caller);
}

bool FeaStage::covered_by_dump(const IpPrefix& p) const {
  if (state_ == SyncState::kNeedResync) return true;
  return state_ == SyncState::kResyncing && !(dumped_to_ && p <= *dumped_to_);
}

void FeaStage::enqueue(FeaOp op, const IpPrefix& prefix, const RouteRef& route) {
  refused_prefixes_.erase(prefix);  // the newer change replaces the refused one
  if (covered_by_dump(prefix)) return;
  if (profile_queued.enabled()) {
    profile_queued.Record((op == FeaOp::kDelete ? "delete " : "add ") + prefix.ToString());
  }
  if (auto it = queued_at_.find(prefix); it != queued_at_.end()) {
    std::optional<FeaChange>& slot = queue_[it->second - head_seq_];
    const FeaOp prev = slot->op;
    if (op == FeaOp::kDelete && prev == FeaOp::kAdd) {  // the FEA never saw it
      slot.reset();
      --live_;
      queued_at_.erase(it);
    } else if (op == FeaOp::kDelete) {  // replace + delete
      slot = FeaChange{FeaOp::kDelete, prefix, nullptr};
    } else {  // delete + add
      slot = FeaChange{prev == FeaOp::kDelete ? FeaOp::kReplace : prev, prefix, route};
    }
  } else {
    queued_at_[prefix] = head_seq_ + queue_.size();
    queue_.push_back(FeaChange{op, prefix, route});
    ++live_;
  }
  if (live_ > options_.max_queue) {
    // The consumer has been away too long: drop the backlog and re-send everything later.
    drop_backlog();
    ++overflows_;
    return;
  }
  // A full batch goes at once, unless the consumer refused the last one: then copying a batch
  // per route only to be refused again would cost O(max_batch) per route; the owner's next
  // flush() (after the consumer drained or came back) tries again. Never right after a delete:
  // a replace reaches this stage as a delete then an add of the prefix, and a batch sent between
  // the two would have the FEA (and the kernel) drop a route that is only changing; the add
  // that follows turns the pair into one replace first.
  if (live_ >= options_.max_batch && !refused_ && op != FeaOp::kDelete) flush();
}

bool FeaStage::send_queued() {
  if (live_ == 0) {
    queue_.clear();  // only coalesced-away slots remain
    head_seq_ = 0;
    return false;
  }
  if (!consumer_.accepting()) {
    refused_ = true;
    return false;
  }
  FeaBatch batch;
  batch.resync_start = state_ == SyncState::kResyncing && !resync_start_sent_;
  size_t slots = 0;
  while (slots < queue_.size() && batch.changes.size() < options_.max_batch) {
    if (queue_[slots]) batch.changes.push_back(*queue_[slots]);
    ++slots;
  }
  if (Status s = consumer_.push(batch); !s.ok()) {
    ++send_failures_;
    refused_ = true;
    return false;
  }
  refused_ = false;
  ++batches_sent_;
  if (batch.resync_start) resync_start_sent_ = true;
  for (const FeaChange& c : batch.changes) queued_at_.erase(c.prefix);
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(slots));
  head_seq_ += slots;
  live_ -= batch.changes.size();
  return true;
}

void FeaStage::flush() {
  if (flushing_ || held_) return;
  flushing_ = true;
  if (state_ == SyncState::kNeedResync) start_resync();
  while (send_queued()) {
  }
  // A dump the consumer stopped waits for its next reply (consumer_drained()), not for the next
  // flush: the owner flushes after every slice, and a task re-added per flush to be refused
  // again would spin the process for as long as the consumer is busy.
  if (state_ == SyncState::kResyncing && !dump_task_.active() && !dump_waits_) {
    // dump_task_ is a member: the task cannot outlive this stage.
    dump_task_ = scheduler_.add("fea-resync", [this] {
      if (dump_slice()) return true;
      // Ended without reaching its end: the consumer refused a batch.
      dump_waits_ = state_ == SyncState::kResyncing;
      return false;
    });
  }
  flushing_ = false;
}

void FeaStage::consumer_drained() { dump_waits_ = false; }

void FeaStage::set_held(bool held) {
  if (held == held_) return;
  held_ = held;
  if (!held) {
    flush();
    return;
  }
  refused_prefixes_.clear();  // the resync at the release sends them with the rest
  drop_backlog();
  refused_ = false;
  dump_waits_ = false;
}

void FeaStage::drop_backlog() {
  queue_.clear();
  queued_at_.clear();
  head_seq_ = 0;
  live_ = 0;
  dump_task_.reset();
  dumped_to_.reset();
  state_ = SyncState::kNeedResync;
}

void FeaStage::start_resync() {
  state_ = SyncState::kResyncing;
  resync_start_sent_ = false;
  dump_waits_ = false;
  dumped_to_.reset();
  ++resyncs_;
}

void FeaStage::consumer_reconnected() {
  refused_prefixes_.clear();  // the resync sends them with the rest
  queue_.clear();
  queued_at_.clear();
  head_seq_ = 0;
  live_ = 0;
  dump_task_.reset();
  state_ = SyncState::kNeedResync;
  refused_ = false;
  dump_waits_ = false;
  flush();
}

bool FeaStage::dump_slice() {
  // Queued changes concern prefixes the dump has passed: they go first.
  while (live_ > 0) {
    if (!send_queued()) return false;  // refused: resumes after the consumer's next reply
  }
  if (!consumer_.accepting()) {  // not worth walking a batch's worth of the table
    refused_ = true;
    return false;
  }
  FeaBatch batch;
  batch.resync_start = !resync_start_sent_;
  RouteRef r = lookup_next(dumped_to_);
  for (; r && batch.changes.size() < options_.max_batch; r = lookup_next(r->prefix)) {
    batch.changes.push_back(FeaChange{FeaOp::kAdd, r->prefix, r});
  }
  batch.resync_end = !r;
  if (Status s = consumer_.push(batch); !s.ok()) {
    ++send_failures_;
    refused_ = true;
    return false;
  }
  refused_ = false;
  ++batches_sent_;
  resync_start_sent_ = true;
  if (!batch.changes.empty()) dumped_to_ = batch.changes.back().prefix;
  if (batch.resync_end) {
    state_ = SyncState::kInSync;
    dumped_to_.reset();
    return false;
  }
  return true;
}

}  // namespace strata::rib
