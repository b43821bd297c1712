#include "testing/bgp/recording_stage.h"

namespace strata::bgp {
namespace {

std::string Describe(char op, const BgpRouteRef& r) {
  return op + r->prefix.ToString() + " p" + (r->peer ? std::to_string(r->peer->id) : "?");
}

}  // namespace

void RecordingStage::expect_current(const BgpRouteRef& route, const char* op) {
  auto it = current_.find(route->prefix);
  if (it == current_.end()) {
    violations_.push_back(std::string(op) + " without add: " + route->ToString());
  } else if (it->second != route && !SameRoute(*it->second, *route)) {
    violations_.push_back(std::string(op) + " of another route: " + route->ToString() + " (have " +
                          it->second->ToString() + ")");
  }
}

void RecordingStage::add_route(const BgpRouteRef& route, BgpStage* caller) {
  if (current_.contains(route->prefix)) {
    violations_.push_back("add over live route: " + route->ToString());
  }
  current_[route->prefix] = route;
  seen_[route->prefix] = true;
  events_.push_back(Event{Op::kAdd, route, nullptr});
  PassThroughStage::add_route(route, caller);
}

void RecordingStage::replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                                   BgpStage* caller) {
  expect_current(old_route, "replace");
  if (old_route->prefix != new_route->prefix) {
    violations_.push_back("replace across prefixes: " + new_route->ToString());
  }
  current_[new_route->prefix] = new_route;
  seen_[new_route->prefix] = true;
  events_.push_back(Event{Op::kReplace, new_route, old_route});
  PassThroughStage::replace_route(old_route, new_route, caller);
}

void RecordingStage::delete_route(const BgpRouteRef& route, BgpStage* caller) {
  expect_current(route, "delete");
  current_.erase(route->prefix);
  events_.push_back(Event{Op::kDelete, route, nullptr});
  PassThroughStage::delete_route(route, caller);
}

std::vector<std::string> RecordingStage::EventStrings() const {
  std::vector<std::string> out;
  for (const Event& e : events_) {
    const char op = e.op == Op::kAdd ? '+' : e.op == Op::kReplace ? '=' : '-';
    out.push_back(Describe(op, e.route));
  }
  return out;
}

BgpRouteRef RecordingStage::current(const IpPrefix& p) const {
  auto it = current_.find(p);
  return it == current_.end() ? nullptr : it->second;
}

Status RecordingStage::CheckLookups() const {
  if (!parent()) return Status::Ok();
  for (const auto& [prefix, unused] : seen_) {
    const BgpRouteRef want = current(prefix);
    const BgpRouteRef got = parent()->lookup_route(prefix);
    const bool agree = (!want && !got) || (want && got && (want == got || SameRoute(*want, *got)));
    if (!agree) {
      return Internal("lookup of " + prefix.ToString() + " gives " +
                      (got ? got->ToString() : "null") + ", sent " +
                      (want ? want->ToString() : "null"));
    }
  }
  return Status::Ok();
}

}  // namespace strata::bgp
