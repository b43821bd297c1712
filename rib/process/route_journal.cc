#include "rib/process/route_journal.h"

#include "common/unix_time.h"

namespace strata::rib {

void RouteJournal::Observe(FeaOp op, const RouteRef& route) {
  if (op == FeaOp::kAdd) {
    RouteEvent* last = journal_.last_recorded();
    if (fold_open_ && last != nullptr && last->change == RouteEvent::Change::kDelete &&
        last->route->prefix == route->prefix) {
      last->change = RouteEvent::Change::kReplace;
      last->route = route;
      return;
    }
  }
  fold_open_ = false;
  journal_.Record([&] {
    return RouteEvent{op == FeaOp::kAdd ? RouteEvent::Change::kAdd : RouteEvent::Change::kDelete,
                      route, UnixMillisNow()};
  });
  if (op == FeaOp::kAdd || !journal_.recording()) return;
  fold_open_ = true;
  if (fold_close_posted_) return;
  fold_close_posted_ = true;
  boost::asio::post(io_, [this, alive = std::weak_ptr<bool>(alive_)] {
    if (alive.expired()) return;
    fold_open_ = false;
    fold_close_posted_ = false;
  });
}

}  // namespace strata::rib
