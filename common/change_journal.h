// ChangeJournal: a bounded, numbered record of a process's recent changes, for watchers that
// long-poll it (`monitor route`, `monitor bgp updates`).
//
// Every change counts: it gets the next sequence number (from 1), recorded or not. Entries are
// kept only while someone watches: the first Read starts recording and recording stops `idle`
// after the last Read (Expire), dropping what was kept. A journal nobody reads so costs one
// counter increment per change; Record does not even build the entry. At most `capacity`
// entries are kept, the oldest dropped first, so memory is bounded by capacity entries.
// A reader passes the last sequence number it has seen (0: none yet, so every entry kept) and gets
// the entries after it (at most `max`), the number to pass next time, and how many changes it
// missed: those dropped past the bound or made while nothing was recorded. A watcher can so say "N
// events lost" rather than skip silently. Long-poll: Park() holds a reader (one without a number
// starts now, from the next change) that has nothing to read until an entry comes or its deadline
// passes. The journal calls the wakeup set with set_wakeup() when a change is recorded while
// readers are parked; the owner then calls Flush(now) (posted, so a burst goes in one answer),
// and also when a timer for next_deadline() fires (JournalPoller does both on an io_context).
// Pure logic on caller-supplied time. Threading: single-threaded, the owner's thread.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <optional>
#include <utility>
#include <vector>

namespace strata {

template <typename Entry>
class ChangeJournal {
 public:
  using Clock = std::chrono::steady_clock;
  using TimePoint = Clock::time_point;

  struct Options {
    size_t capacity = 10000;                // entries kept at most
    std::chrono::milliseconds idle{30000};  // recording stops this long after the last Read
  };
  struct Numbered {
    uint64_t seq = 0;
    Entry entry;
  };
  struct Page {
    std::vector<Numbered> entries;  // in sequence order
    uint64_t next = 0;              // the `after` of the next Read
    uint64_t lost = 0;              // changes after `after` this reader can no longer see
  };
  using Answer = std::function<void(Page)>;

  explicit ChangeJournal(Options options) : options_(options) {
    if (options_.capacity == 0) options_.capacity = 1;
  }

  // One change. `make()` builds its entry, only while recording.
  template <typename Make>
  void Record(Make&& make) {
    ++seq_;
    if (!recording_) return;
    entries_.push_back({seq_, make()});
    if (entries_.size() > options_.capacity) entries_.pop_front();
    if (!parked_.empty() && wakeup_) wakeup_();
  }
  // The entry of the last change if it was recorded, else null: an owner may fold a change into
  // it (a delete then an add of the same prefix is one replace) instead of recording another.
  Entry* last_recorded() {
    if (entries_.empty() || entries_.back().seq != seq_) return nullptr;
    return &entries_.back().entry;
  }

  // The entries after `after` (0: every one kept), at most `max` (0: no limit). Starts recording.
  Page Read(uint64_t after, size_t max, TimePoint now) {
    last_read_ = now;
    recording_ = true;
    if (after > seq_) after = seq_;  // a number from before this process started: from now
    Page page;
    const uint64_t first = entries_.empty() ? seq_ + 1 : entries_.front().seq;
    uint64_t from = after;
    if (first > after + 1) {
      page.lost = first - 1 - after;
      from = first - 1;
    }
    page.next = from;
    for (auto it = Lower(from); it != entries_.end(); ++it) {
      if (max != 0 && page.entries.size() >= max) break;
      page.entries.push_back(*it);
      page.next = it->seq;
    }
    if (page.entries.empty() && page.lost == 0) page.next = std::max(from, seq_);
    return page;
  }
  // Answers at once (through `answer`) if there is something after `after` or `deadline` has
  // passed, else holds the reader until Flush finds either. Starts recording.
  // `after` absent: from the next change. A number, even 0, is one this reader was given, so a
  // change made between two of its reads is never skipped.
  void Park(std::optional<uint64_t> after, size_t max, TimePoint deadline, TimePoint now,
            Answer answer) {
    last_read_ = now;
    recording_ = true;
    const uint64_t from = !after || *after > seq_ ? seq_ : *after;
    parked_.push_back({from, max, deadline, std::move(answer)});
    Flush(now);
  }
  // Answers every parked reader that has something to read or whose deadline passed.
  void Flush(TimePoint now) {
    for (auto it = parked_.begin(); it != parked_.end();) {
      if (Ready(it->after) || it->deadline <= now) {
        Parked p = std::move(*it);
        it = parked_.erase(it);
        p.answer(Read(p.after, p.max, now));
      } else {
        ++it;
      }
    }
  }
  // Stops recording (and drops what is kept) when nobody has read for `idle` and nobody waits.
  void Expire(TimePoint now) {
    if (recording_ && parked_.empty() && now - last_read_ >= options_.idle) {
      recording_ = false;
      entries_.clear();
      entries_.shrink_to_fit();
    }
  }
  // When the owner must next call Flush (a parked reader's deadline) or Expire; nullopt: never.
  std::optional<TimePoint> next_deadline() const {
    std::optional<TimePoint> t;
    for (const Parked& p : parked_) {
      if (!t || p.deadline < *t) t = p.deadline;
    }
    if (recording_ && parked_.empty()) t = last_read_ + options_.idle;
    return t;
  }
  // Called when a change is recorded while readers are parked.
  void set_wakeup(std::function<void()> wakeup) { wakeup_ = std::move(wakeup); }
  // Answers every parked reader now (the owner is going away).
  void Drain(TimePoint now) {
    for (Parked& p : parked_) p.deadline = now;
    Flush(now);
  }

  bool recording() const { return recording_; }
  uint64_t seq() const { return seq_; }
  size_t size() const { return entries_.size(); }
  size_t parked() const { return parked_.size(); }
  size_t capacity() const { return options_.capacity; }

 private:
  struct Parked {
    uint64_t after;
    size_t max;
    TimePoint deadline;
    Answer answer;
  };
  // Something to read after `after`: an entry, or a change that was not kept.
  bool Ready(uint64_t after) const { return seq_ > after; }
  typename std::deque<Numbered>::const_iterator Lower(uint64_t after) const {
    if (entries_.empty() || after < entries_.front().seq) return entries_.begin();
    const uint64_t skip = after - entries_.front().seq + 1;
    return skip >= entries_.size() ? entries_.end() : entries_.begin() + skip;
  }

  Options options_;
  uint64_t seq_ = 0;
  bool recording_ = false;
  TimePoint last_read_{};
  std::deque<Numbered> entries_;  // consecutive sequence numbers
  std::list<Parked> parked_;
  std::function<void()> wakeup_;
};

}  // namespace strata
