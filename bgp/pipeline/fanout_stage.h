// FanoutStage: passes the decision's winners to every output branch (each peer, and the RIB).
//
// Why a queue (XORP paper 5.1.1): routes may arrive faster than a slow peer can take them.
// Queueing in each PeerOut would copy every change n times; instead the fanout keeps one change
// queue (old and new route per entry, shared references, never copies) with one Reader per
// output branch standing at its own position. A reader that is paused (its session's sink is
// busy) simply stays behind and holds nobody else back; an entry is freed once every reader has
// passed it. Delivery runs in TaskScheduler slices, so changes are batched per event; after each
// run of deliveries the reader's flush function is called (PeerOut sends its batch).
// A reader added later (a peer coming up) first gets the current table by a dump that runs in
// slices alongside new changes: the dump walks the prefixes upstream (`walk`, a cursor that is
// just a prefix) and sends each one's winner as the source (the decision) answers it, only when
// the reader has caught up with the queue; queue entries for prefixes the dump has not yet
// reached are skipped (the dump will send their current route), so the reader always sees a
// consistent sequence. No table: the winners are the decision's answers (which keeps none
// either; see decision_stage.h), so a full table's winners cost nothing here. Each Reader is a
// BgpStage, the parent of its branch: its lookups answer what that reader has been sent, not the
// newest winner. REQUIRES: flush functions and branch stages do not call back into the pipeline
// synchronously. Threading: single-threaded.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/peer_in.h"
#include "common/task_scheduler.h"

namespace strata::bgp {

class FanoutStage : public BgpStage {
 public:
  class Reader : public PassThroughStage {
   public:
    std::string name() const override { return "fanout-reader:" + name_; }
    BgpRouteRef lookup_route(const IpPrefix& prefix) const override;

    bool paused() const { return paused_; }
    bool dumping() const { return dumping_; }
    uint64_t delivered() const { return delivered_; }
    uint64_t skipped() const { return skipped_; }
    // Before each run of deliveries, hint the branch with the prefixes about to come
    // (BgpStage::prefetch), for branches with a table per prefix; off by default (no output
    // branch keeps one).
    void set_prefetch(bool on) { prefetch_ = on; }
    // Changes the reader may lag behind before it counts for backlog() and input_backlog()
    // (0 by default): the RIB's, whose sink pauses it while the RIB is behind, so the lag
    // waits here (one 24-byte entry a change) and holds neither the peers nor background work
    // back unless it grows past this.
    void set_slack(size_t changes) { slack_ = changes; }
    // Pass replace(r, r) (the decision's "the winner's multipath set changed") to the branch;
    // off by default: such a change means nothing to a peer, which is sent the winner only.
    void set_multipath_changes(bool on) { multipath_changes_ = on; }

   private:
    friend class FanoutStage;
    Reader(FanoutStage* fanout, std::string name, std::function<void()> flush, uint64_t seq,
           bool dump)
        : fanout_(fanout),
          name_(std::move(name)),
          flush_(std::move(flush)),
          next_seq_(seq),
          dumping_(dump) {}
    // True if the reader has been sent (or will not see through the queue) this prefix's state.
    bool past_dump(const IpPrefix& p) const {
      return !dumping_ || (last_dumped_ && p <= *last_dumped_);
    }

    FanoutStage* fanout_;
    std::string name_;
    std::function<void()> flush_;
    uint64_t next_seq_;
    bool paused_ = false;
    std::chrono::steady_clock::time_point paused_at_;  // when paused_ last became true
    bool dumping_;
    bool last_ = false;
    bool prefetch_ = false;
    bool multipath_changes_ = false;
    size_t slack_ = 0;
    bool dump_started_ = false;
    std::optional<IpPrefix> last_dumped_;
    uint64_t delivered_ = 0;
    uint64_t skipped_ = 0;
  };

  // `source` answers the newest winner of a prefix (the decision, the stage sending here) and
  // `walk` yields every prefix it may have one for. REQUIRES: slice_entries > 0 (entries per
  // reader per slice); source outlives the stage.
  FanoutStage(TaskScheduler& scheduler, size_t slice_entries, const BgpStage* source,
              PrefixWalk walk);
  ~FanoutStage() override;

  std::string name() const override { return "fanout"; }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;
  // The newest winner (what the decision sent): the source's answer.
  BgpRouteRef lookup_route(const IpPrefix& prefix) const override;
  // Nothing to warm; the readers take the changes later (their own hint: deliver).
  void prefetch(std::span<const IpPrefix> /*prefixes*/) override {}
  void replace_parent(BgpStage* /*old_parent*/, BgpStage* /*new_parent*/) override {}

  // A new output branch: plumb its first stage with reader->set_next(). With `dump`, it first
  // receives the current table. `flush` runs after each run of deliveries (may be null).
  // Readers are served in the order added, except `last` ones, served after all others (the
  // RIB's: a peer's UPDATE goes on the wire before the IPC to the RIB is built).
  Reader* add_reader(std::string name, std::function<void()> flush, bool dump, bool last = false);
  // Forgets the reader (its branch is being destroyed; nothing more is sent to it).
  void remove_reader(Reader* reader);
  // The reader starts over as if just added with `dump`: it skips what is queued and gets the
  // current table, then the changes after it (its branch lost what it was given: the RIB's).
  void restart_dump(Reader* reader);
  void pause(Reader* reader);
  void resume(Reader* reader);

  // Every prefix some reader may hold a route for: the walk's and the queued changes', sorted.
  std::vector<IpPrefix> prefixes();

  // The first prefix after `after` (the first of all for nullopt) that may have a winner, or
  // nullopt (the walk's).
  std::optional<IpPrefix> next_table_prefix(const std::optional<IpPrefix>& after) const {
    return walk_(after);
  }
  // Prefixes with queued changes, sorted: with the walk's, all a reader may hold a route for.
  std::vector<IpPrefix> queued_prefixes() const;
  // The queue's position after its newest change (where the next one goes).
  uint64_t queue_end() const { return end_seq(); }
  // Calls fn(prefix) for each change still queued from position `seq` on (those every reader
  // has passed are gone), then sets `seq` to queue_end().
  void each_queued_since(uint64_t& seq, const std::function<void(const IpPrefix&)>& fn) const;

  // Changes the furthest-behind reader that is not paused has still to pass (paused readers wait
  // for their session and do not count: they catch up later from the queue).
  size_t backlog() const;
  // The same for input flow control (the sessions stop reading while it is high): paused
  // readers count too, unless paused for longer than stuck_after by `now` (a peer that does
  // not read holds nobody back, while one whose socket just filled keeps the queue short).
  size_t input_backlog(std::chrono::steady_clock::time_point now) const;
  void set_stuck_after(std::chrono::steady_clock::duration d) { stuck_after_ = d; }

  size_t queue_size() const { return queue_.size(); }
  // Prefixes with a winner (adds less deletes received).
  size_t table_size() const { return size_; }
  size_t readers() const { return readers_.size(); }

 private:
  static constexpr uint64_t kNoSeq = UINT64_MAX;
  // One change: 24 bytes (its position is its index, its prefix the routes'), so a reader
  // lagging far behind (the RIB's) costs little.
  struct Entry {
    BgpRouteRef old_route;
    BgpRouteRef new_route;
    uint32_t to_next_same = 0;  // positions to the next queued change of this prefix (0: none)
    const IpPrefix& prefix() const { return (new_route ? new_route : old_route)->prefix; }
  };
  static_assert(sizeof(Entry) == 24);
  // The oldest and newest queued change of a prefix; the entries between are chained by
  // Entry::to_next_same (a full table queues one change per prefix: no container each).
  // Only a reader's lookup needs them (a refilter, a dump's skip decisions do not): the index
  // is built from the queue on the first lookup and kept up to date from then on, until the
  // queue drains. A table streaming through (every append and trim) pays no hashing.
  struct Chain {
    uint64_t first;
    uint64_t last;
  };
  uint64_t end_seq() const { return first_seq_ + queue_.size(); }
  void append(const IpPrefix& prefix, BgpRouteRef old_route, BgpRouteRef new_route);
  BgpRouteRef lookup_for(const Reader& r, const IpPrefix& prefix) const;
  // What r has still to pass, less its slack.
  uint64_t lag(const Reader& r) const {
    const uint64_t behind = end_seq() - r.next_seq_;
    return behind > r.slack_ ? behind - r.slack_ : 0;
  }
  // Delivers up to `budget` changes to r; returns true if it has more it could take now.
  bool deliver(Reader& r, size_t budget);
  bool has_work(const Reader& r) const;
  // Builds queued_by_prefix_ and the entries' chains from the queue (see Chain).
  void build_index() const;
  // Chains the change at seq to the prefix's last queued one (index built).
  void link(const IpPrefix& prefix, uint64_t seq) const;
  void schedule();
  bool run_slice();
  void trim();

  TaskScheduler& scheduler_;
  size_t slice_entries_;
  std::chrono::steady_clock::duration stuck_after_ = std::chrono::seconds(1);
  const BgpStage* source_;
  PrefixWalk walk_;
  size_t size_ = 0;
  mutable std::deque<Entry> queue_;  // mutable: build_index() links the entries
  uint64_t first_seq_ = 0;
  // Open addressing (no node per queued prefix: a full table in flight queues a million).
  // Built on demand (indexed_), mutable for lookups: a cache of what the queue holds.
  mutable absl::flat_hash_map<IpPrefix, Chain, std::hash<IpPrefix>> queued_by_prefix_;
  mutable bool indexed_ = false;
  std::list<std::unique_ptr<Reader>> readers_;
  TaskHandle task_;
  std::vector<IpPrefix> hint_;  // deliver()'s prefetch hint to a branch (kept for its capacity)
};

}  // namespace strata::bgp
