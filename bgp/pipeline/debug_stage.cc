#include "bgp/pipeline/debug_stage.h"

#include "common/log.h"

namespace strata::bgp {

DebugStage::DebugStage(std::string label, BgpStage* parent, TraceFn trace)
    : PassThroughStage(parent), label_(std::move(label)), trace_(std::move(trace)) {
  if (!trace_) {
    trace_ = [logger = MakeLogger("bgp.debug")](std::string_view line) {
      logger->debug("{}", line);
    };
  }
}

void DebugStage::trace(std::string_view op, const BgpRouteRef& route) {
  ++messages_;
  trace_(label_ + " " + std::string(op) + " " + route->ToString());
}

void DebugStage::check_live(const BgpRouteRef& route) {
  auto it = live_.find(route->prefix);
  if (it == live_.end() || (it->second != route && !SameRoute(*it->second, *route))) {
    ++violations_;
    trace_(label_ + " VIOLATION: no matching add for " + route->ToString());
  }
}

void DebugStage::add_route(const BgpRouteRef& route, BgpStage* caller) {
  trace("add", route);
  if (!live_.emplace(route->prefix, route).second) {
    ++violations_;
    trace_(label_ + " VIOLATION: add over live route " + route->ToString());
    live_[route->prefix] = route;
  }
  PassThroughStage::add_route(route, caller);
}

void DebugStage::replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                               BgpStage* caller) {
  trace("replace", new_route);
  check_live(old_route);
  live_[new_route->prefix] = new_route;
  PassThroughStage::replace_route(old_route, new_route, caller);
}

void DebugStage::delete_route(const BgpRouteRef& route, BgpStage* caller) {
  trace("delete", route);
  check_live(route);
  live_.erase(route->prefix);
  PassThroughStage::delete_route(route, caller);
}

}  // namespace strata::bgp
