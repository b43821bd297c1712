// RouteJournal: strata-rib's record of the winners' changes (add, replace, delete of the route
// for a prefix, as they go to the FEA) for `monitor route` (rib/1.0 watch_routes), and its long
// poll. A ChangeJournal (common/change_journal.h) with a JournalPoller on the process's
// io_context: changes are kept only while someone watches, at most a fixed number; a delete
// followed by an add of the same prefix in the same io_context handler (the pipeline's replace)
// is one kReplace. A later add is an event of its own, so a watcher that has seen the delete
// sees the add too.
// REQUIRES: the io_context outlives the journal. Threading: the io_context thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

#include "common/journal_poller.h"
#include "rib/fea_consumer.h"
#include "rib/rib_route.h"

namespace strata::rib {

struct RouteEvent {
  enum class Change : uint8_t { kAdd, kReplace, kDelete };
  Change change = Change::kAdd;
  RouteRef route;  // the new winner; for kDelete the one that went
  int64_t unix_ms = 0;
};

// 10,000 changes in well under 1 MB (a deleted route lives on in its event: 40 bytes more).
static_assert(sizeof(RouteEvent) <= 32);

class RouteJournal {
 public:
  using Journal = ChangeJournal<RouteEvent>;

  RouteJournal(boost::asio::io_context& io, Journal::Options options)
      : io_(io), journal_(options), poller_(io, journal_) {}

  // FeaStage's observer (Rib::set_route_observer).
  void Observe(FeaOp op, const RouteRef& route);
  // The changes after `after` (absent: from the next one), at most `max`, answered as soon as there
  // are any, else empty after `timeout`.
  void Watch(std::optional<uint64_t> after, size_t max, std::chrono::milliseconds timeout,
             Journal::Answer answer) {
    poller_.Poll(after, max, timeout, std::move(answer));
  }
  const Journal& journal() const { return journal_; }

 private:
  boost::asio::io_context& io_;
  // The last entry is a delete recorded in the handler running now: an add of its prefix folds.
  bool fold_open_ = false;
  bool fold_close_posted_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);  // for the posted fold close
  Journal journal_;
  JournalPoller<RouteEvent> poller_;
};

}  // namespace strata::rib
