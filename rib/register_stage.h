// RegisterStage: interest registration (XORP paper 5.2.1).
//
// A client (BGP for its nexthops, PIM for sources and RPs) asks about an address and is told the
// matching route (nexthop, metric, protocol; or none) and the largest enclosing subnet over which
// that answer holds, i.e. that no more specific route overlays; the client may then answer any
// address in that subnet from its cache. Example: with 128.16.0.0/16, 128.16.0.0/18,
// 128.16.128.0/17 and 128.16.192.0/18, asking 128.16.160.1 answers 128.16.128.0/17, valid for
// 128.16.128.0/18. Registrations are kept per valid subnet (they never partly overlap); when a
// route change passing through could change the answer for a registered subnet, each client of it
// is sent an invalidation and the registration is dropped (clients re-register). Changes are
// passed downstream unchanged. Threading: single-threaded.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>

#include "common/status.h"
#include "rib/pass_through_stage.h"

namespace strata::rib {

// Told when a registered answer stops holding. The lead wires this to IPC.
class InterestListener {
 public:
  virtual ~InterestListener() = default;
  virtual void interest_invalidated(const std::string& client, const IpPrefix& valid_subnet) = 0;
};

class RegisterStage : public PassThroughStage {
 public:
  // REQUIRES: listener outlives this stage (it may be null: invalidations are then only counted).
  RegisterStage(RouteStage* parent, InterestListener* listener)
      : PassThroughStage(parent), listener_(listener) {}

  std::string name() const override { return "register"; }
  void add_route(const RouteRef& route, RouteStage* caller) override;
  void delete_route(const RouteRef& route, RouteStage* caller) override;

  // Answers and remembers the client's interest until invalidated or deregistered.
  RouteRange register_interest(const std::string& client, const IpAddr& addr);
  // NotFound if the client holds no registration for exactly this subnet.
  Status deregister_interest(const std::string& client, const IpPrefix& valid_subnet);

  size_t registered_subnets() const { return regs_.size(); }
  uint64_t invalidations_sent() const { return invalidations_; }
  // For tests and `show`: the registered subnets and their answers.
  const std::map<IpPrefix, RouteRange>& answers() const { return answers_; }

 private:
  // Drops and notifies the registrations a change to `changed` may affect.
  void invalidate(const IpPrefix& changed);

  InterestListener* listener_;
  std::map<IpPrefix, std::set<std::string>> regs_;
  std::map<IpPrefix, RouteRange> answers_;
  uint64_t invalidations_ = 0;
};

}  // namespace strata::rib
