#include "rib/process/route_journal.h"

namespace strata::rib {

void RouteJournal::Observe(FeaOp op, const RouteRef& route) {
  if (op == FeaOp::kAdd) {
    RouteEvent* last = journal_.last_recorded();
    if (last != nullptr && last->change == RouteEvent::Change::kDelete &&
        last->route->prefix == route->prefix) {
      last->change = RouteEvent::Change::kReplace;
      last->route = route;
      return;
    }
  }
  journal_.Record([&] {
    const int64_t unix_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
    return RouteEvent{op == FeaOp::kAdd ? RouteEvent::Change::kAdd : RouteEvent::Change::kDelete,
                      route, unix_ms};
  });
}

}  // namespace strata::rib
