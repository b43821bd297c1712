#include "rib/register_stage.h"

#include <utility>
#include <vector>

namespace strata::rib {

void RegisterStage::add_route(const RouteRef& route, RouteStage* caller) {
  PassThroughStage::add_route(route, caller);
  invalidate(route->prefix);
}

void RegisterStage::delete_route(const RouteRef& route, RouteStage* caller) {
  PassThroughStage::delete_route(route, caller);
  invalidate(route->prefix);
}

RouteRange RegisterStage::register_interest(const std::string& client, const IpAddr& addr) {
  RouteRange answer = lookup_range(addr);
  regs_[answer.valid].insert(client);
  answers_[answer.valid] = answer;
  return answer;
}

Status RegisterStage::deregister_interest(const std::string& client, const IpPrefix& subnet) {
  auto it = regs_.find(subnet);
  if (it == regs_.end() || it->second.erase(client) == 0) {
    return NotFound(client + " has no interest registered for " + subnet.ToString());
  }
  if (it->second.empty()) {
    regs_.erase(it);
    answers_.erase(subnet);
  }
  return Status::Ok();
}

void RegisterStage::invalidate(const IpPrefix& changed) {
  if (regs_.empty()) return;
  std::vector<IpPrefix> hit;
  // Registered subnets strictly containing the change: a route appeared or went inside them.
  for (int len = 0; len < changed.len(); ++len) {
    IpPrefix outer(changed.addr(), len);
    if (regs_.contains(outer)) hit.push_back(outer);
  }
  // Registered subnets inside the change (or equal): affected unless the change is less specific
  // than the route they matched.
  const IpAddr last = changed.Last();
  for (auto it = answers_.lower_bound(changed);
       it != answers_.end() && it->first.family() == changed.family() && it->first.addr() <= last;
       ++it) {
    const RouteRef& matched = it->second.route;
    if (!matched || matched->prefix.len() <= changed.len()) hit.push_back(it->first);
  }
  for (const IpPrefix& subnet : hit) {
    auto node = regs_.extract(subnet);
    answers_.erase(subnet);
    for (const std::string& client : node.mapped()) {
      ++invalidations_;
      if (listener_) listener_->interest_invalidated(client, subnet);
    }
  }
}

}  // namespace strata::rib
