// JournalPoller: a ChangeJournal's long-poll on a process's io_context.
//
// Poll() parks a watcher's request in the journal (change_journal.h) and answers it when an
// entry comes or its timeout passes; the io_context never blocks. A change recorded while
// watchers wait posts one Flush, so a burst of changes goes out in one answer; one steady_timer
// follows the journal's next deadline (a watcher's timeout, or when recording stops because
// nobody watched for the journal's idle time). Destroying the poller answers every parked
// watcher (empty) and cancels the timer; nothing runs after.
// REQUIRES: the journal and the io_context outlive the poller. Threading: the io_context thread.
#pragma once

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

#include "common/asio.h"
#include "common/change_journal.h"

namespace strata {

template <typename Entry>
class JournalPoller {
 public:
  using Journal = ChangeJournal<Entry>;

  JournalPoller(boost::asio::io_context& io, Journal& journal)
      : io_(io), journal_(journal), timer_(io) {
    journal_.set_wakeup([this] { Wake(); });
  }
  ~JournalPoller() {
    journal_.set_wakeup(nullptr);
    journal_.Drain(Journal::Clock::now());
    *alive_ = false;
  }
  JournalPoller(const JournalPoller&) = delete;
  JournalPoller& operator=(const JournalPoller&) = delete;

  // Entries after `after` (absent: from the next change), at most `max`, answered as soon as there
  // are any, else empty after `timeout` (capped at max_timeout()).
  void Poll(std::optional<uint64_t> after, size_t max, std::chrono::milliseconds timeout,
            typename Journal::Answer answer) {
    const auto now = Journal::Clock::now();
    timeout = std::clamp(timeout, std::chrono::milliseconds(0), max_timeout());
    journal_.Park(after, max, now + timeout, now, std::move(answer));
    Arm();
  }
  // Long polls are answered within this, so that they stay inside the IPC's call timeout.
  static constexpr std::chrono::milliseconds max_timeout() { return std::chrono::seconds(20); }

 private:
  // A change while watchers wait: one Flush for the burst.
  void Wake() {
    if (flush_posted_) return;
    flush_posted_ = true;
    boost::asio::post(io_, [this, alive = std::weak_ptr<bool>(alive_)] {
      if (alive.expired() || !*alive.lock()) return;
      flush_posted_ = false;
      journal_.Flush(Journal::Clock::now());
      Arm();
    });
  }
  void Arm() {
    const auto next = journal_.next_deadline();
    if (!next) {
      timer_.cancel();
      armed_ = false;
      return;
    }
    if (armed_ && armed_at_ == *next) return;
    armed_ = true;
    armed_at_ = *next;
    timer_.expires_at(*next);
    timer_.async_wait(
        [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
          if (ec || alive.expired() || !*alive.lock()) return;
          armed_ = false;
          const auto now = Journal::Clock::now();
          journal_.Flush(now);
          journal_.Expire(now);
          Arm();
        });
  }

  boost::asio::io_context& io_;
  Journal& journal_;
  boost::asio::steady_timer timer_;
  bool flush_posted_ = false;
  bool armed_ = false;
  typename Journal::TimePoint armed_at_{};
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata
