#include "testing/rib/recording_stage.h"

namespace strata::rib {

void RecordingStage::add_route(const RouteRef& route, RouteStage* caller) {
  events_.push_back(Event{Op::kAdd, route});
  seen_[route->prefix] = true;
  auto [it, fresh] = current_.emplace(route->prefix, route);
  if (!fresh) {
    violations_.push_back("add over live route: " + route->ToString() + " (live " +
                          it->second->ToString() + ")");
    it->second = route;
  }
  PassThroughStage::add_route(route, caller);
}

void RecordingStage::delete_route(const RouteRef& route, RouteStage* caller) {
  events_.push_back(Event{Op::kDelete, route});
  auto it = current_.find(route->prefix);
  if (it == current_.end()) {
    violations_.push_back("delete without add: " + route->ToString());
  } else if (it->second != route) {
    violations_.push_back("delete of another route: " + route->ToString() + " (live " +
                          it->second->ToString() + ")");
    current_.erase(it);
  } else {
    current_.erase(it);
  }
  PassThroughStage::delete_route(route, caller);
}

std::vector<std::string> RecordingStage::EventStrings() const {
  std::vector<std::string> out;
  for (const Event& e : events_) {
    out.push_back((e.op == Op::kAdd ? "+" : "-") + e.route->prefix.ToString() + " " +
                  e.route->protocol());
  }
  return out;
}

RouteRef RecordingStage::current(const IpPrefix& p) const {
  auto it = current_.find(p);
  return it == current_.end() ? nullptr : it->second;
}

Status RecordingStage::CheckLookups() const {
  if (!parent()) return FailedPrecondition("recording stage has no parent");
  for (const auto& [prefix, unused] : seen_) {
    RouteRef want = current(prefix);
    RouteRef got = parent()->lookup_route(prefix);
    if (got != want) {
      return Internal("lookup of " + prefix.ToString() + " gave " +
                      (got ? got->ToString() : "none") +
                      ", sent downstream: " + (want ? want->ToString() : "none"));
    }
  }
  return Status::Ok();
}

}  // namespace strata::rib
