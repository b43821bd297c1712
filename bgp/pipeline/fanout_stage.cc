#include "bgp/pipeline/fanout_stage.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

namespace strata::bgp {

BgpRouteRef FanoutStage::Reader::lookup_route(const IpPrefix& prefix) const {
  return fanout_->lookup_for(*this, prefix);
}

FanoutStage::FanoutStage(TaskScheduler& scheduler, size_t slice_entries, const BgpStage* source,
                         PrefixWalk walk)
    : scheduler_(scheduler),
      slice_entries_(slice_entries),
      source_(source),
      walk_(std::move(walk)) {
  assert(slice_entries_ > 0);
}

FanoutStage::~FanoutStage() {
  task_.reset();
  readers_.clear();
}

void FanoutStage::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  ++size_;
  append(route->prefix, nullptr, route);
}

void FanoutStage::replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                                BgpStage* /*caller*/) {
  append(new_route->prefix, old_route, new_route);
}

void FanoutStage::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  --size_;
  append(route->prefix, route, nullptr);
}

BgpRouteRef FanoutStage::lookup_route(const IpPrefix& prefix) const {
  return source_ ? source_->lookup_route(prefix) : nullptr;
}

void FanoutStage::append(const IpPrefix& prefix, BgpRouteRef old_route, BgpRouteRef new_route) {
  if (readers_.empty()) {
    first_seq_ = end_seq();
    return;
  }
  const uint64_t seq = end_seq();
  queue_.push_back(Entry{std::move(old_route), std::move(new_route)});
  if (indexed_) link(prefix, seq);
  schedule();
}

void FanoutStage::link(const IpPrefix& prefix, uint64_t seq) const {
  auto [it, added] = queued_by_prefix_.try_emplace(prefix, Chain{seq, seq});
  if (added) return;
  const uint64_t gap = seq - it->second.last;
  if (gap > UINT32_MAX) std::abort();  // a queue of 4 billion changes
  queue_[it->second.last - first_seq_].to_next_same = static_cast<uint32_t>(gap);
  it->second.last = seq;
}

void FanoutStage::build_index() const {
  queued_by_prefix_.clear();
  for (uint64_t seq = first_seq_; seq < end_seq(); ++seq) {
    Entry& e = queue_[seq - first_seq_];
    e.to_next_same = 0;
    link(e.prefix(), seq);
  }
  indexed_ = true;
}

BgpRouteRef FanoutStage::lookup_for(const Reader& r, const IpPrefix& prefix) const {
  if (!r.past_dump(prefix)) return nullptr;
  // The oldest change the reader has not passed yet tells what it currently has.
  if (!indexed_) build_index();
  if (auto it = queued_by_prefix_.find(prefix); it != queued_by_prefix_.end()) {
    for (uint64_t seq = it->second.first; seq != kNoSeq;) {
      const Entry& e = queue_[seq - first_seq_];
      if (seq >= r.next_seq_) return e.old_route;
      seq = e.to_next_same == 0 ? kNoSeq : seq + e.to_next_same;
    }
  }
  return lookup_route(prefix);
}

FanoutStage::Reader* FanoutStage::add_reader(std::string name, std::function<void()> flush,
                                             bool dump, bool last) {
  auto reader =
      std::unique_ptr<Reader>(new Reader(this, std::move(name), std::move(flush), end_seq(), dump));
  reader->last_ = last;
  Reader* r = reader.get();
  auto at =
      last ? readers_.end()
           : std::find_if(readers_.begin(), readers_.end(), [](const auto& x) { return x->last_; });
  readers_.insert(at, std::move(reader));
  if (dump) schedule();
  return r;
}

void FanoutStage::remove_reader(Reader* reader) {
  std::erase_if(readers_, [reader](const auto& r) { return r.get() == reader; });
  trim();
}

void FanoutStage::restart_dump(Reader* reader) {
  reader->next_seq_ = end_seq();
  reader->dumping_ = true;
  reader->dump_started_ = false;
  reader->last_dumped_.reset();
  trim();
  schedule();
}

void FanoutStage::pause(Reader* reader) {
  if (!reader->paused_) reader->paused_at_ = std::chrono::steady_clock::now();
  reader->paused_ = true;
}

void FanoutStage::resume(Reader* reader) {
  reader->paused_ = false;
  if (has_work(*reader)) schedule();
}

size_t FanoutStage::backlog() const {
  uint64_t lag = 0;
  for (const auto& r : readers_) {
    if (!r->paused_) lag = std::max(lag, this->lag(*r));
  }
  return lag;
}

size_t FanoutStage::input_backlog(std::chrono::steady_clock::time_point now) const {
  uint64_t lag = 0;
  for (const auto& r : readers_) {
    if (r->paused_ && now - r->paused_at_ > stuck_after_) continue;
    lag = std::max(lag, this->lag(*r));
  }
  return lag;
}

bool FanoutStage::has_work(const Reader& r) const {
  return !r.paused_ && (r.next_seq_ < end_seq() || r.dumping_);
}

bool FanoutStage::deliver(Reader& r, size_t budget) {
  size_t n = 0;
  bool sent = false;
  if (r.prefetch_ && !r.paused_ && !r.dumping_ && r.next() && end_seq() - r.next_seq_ > 1) {
    // The branch's tables warm the paths to the prefixes about to come (BgpStage::prefetch).
    const uint64_t last = std::min<uint64_t>(end_seq(), r.next_seq_ + budget);
    hint_.clear();
    for (uint64_t s = r.next_seq_; s < last; ++s) hint_.push_back(queue_[s - first_seq_].prefix());
    r.next()->prefetch(hint_);
  }
  while (n < budget && !r.paused_) {
    if (r.next_seq_ < end_seq()) {
      const Entry& e = queue_[r.next_seq_ - first_seq_];
      ++r.next_seq_;
      ++n;
      if (r.dumping_ && !r.past_dump(e.prefix())) {
        ++r.skipped_;  // the dump will send the prefix's route as it is then
        continue;
      }
      const BgpRouteRef old_route = e.old_route;
      const BgpRouteRef new_route = e.new_route;
      if (old_route == new_route) {  // the winner's multipath set changed
        if (!r.multipath_changes_) continue;
        ++r.delivered_;
        sent = true;
        r.send_replace(old_route, new_route);
        continue;
      }
      ++r.delivered_;
      sent = true;
      r.send_change(old_route, new_route);
    } else if (r.dumping_) {
      // Only when caught up: the source's winners then match everything the reader passed.
      const std::optional<IpPrefix> p = walk_(r.dump_started_ ? r.last_dumped_ : std::nullopt);
      r.dump_started_ = true;
      ++n;
      if (!p) {
        r.dumping_ = false;
        r.last_dumped_.reset();
        continue;
      }
      r.last_dumped_ = p;
      BgpRouteRef winner = lookup_route(*p);
      if (!winner) continue;  // a prefix without a usable route
      ++r.delivered_;
      sent = true;
      r.send_add(winner);
    } else {
      break;
    }
  }
  if (sent && r.flush_) r.flush_();
  return has_work(r);
}

void FanoutStage::schedule() {
  if (task_.active()) return;
  task_ = scheduler_.add("fanout", [this] { return run_slice(); });
}

bool FanoutStage::run_slice() {
  bool more = false;
  for (auto& r : readers_) more |= deliver(*r, slice_entries_);
  trim();
  return more;
}

void FanoutStage::trim() {
  uint64_t min_seq = end_seq();
  for (const auto& r : readers_) min_seq = std::min(min_seq, r->next_seq_);
  while (first_seq_ < min_seq && !queue_.empty()) {
    const Entry& e = queue_.front();
    if (indexed_) {
      auto it = queued_by_prefix_.find(e.prefix());
      if (e.to_next_same == 0) {
        queued_by_prefix_.erase(it);
      } else {
        it->second.first = first_seq_ + e.to_next_same;
      }
    }
    queue_.pop_front();
    ++first_seq_;
  }
  if (queue_.empty() && indexed_) {
    queued_by_prefix_ = {};  // drained: the next lookup builds it again
    indexed_ = false;
  }
}

std::vector<IpPrefix> FanoutStage::prefixes() {
  std::vector<IpPrefix> out;
  out.reserve(size_ + queue_.size());
  for (auto p = walk_(std::nullopt); p; p = walk_(p)) out.push_back(*p);
  for (const Entry& e : queue_) out.push_back(e.prefix());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void FanoutStage::each_queued_since(uint64_t& seq,
                                    const std::function<void(const IpPrefix&)>& fn) const {
  for (uint64_t s = std::max(seq, first_seq_); s < end_seq(); ++s)
    fn(queue_[s - first_seq_].prefix());
  seq = end_seq();
}

std::vector<IpPrefix> FanoutStage::queued_prefixes() const {
  std::vector<IpPrefix> out;
  out.reserve(queue_.size());
  for (const Entry& e : queue_) out.push_back(e.prefix());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace strata::bgp
