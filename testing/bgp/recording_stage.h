// RecordingStage: a test stage that records every message arriving from upstream.
//
// Plumb it below any stage under test instead of comparing golden files. It checks the
// consistency rules of bgp_stage.h: violations() lists every delete or replace that does not
// match the route added earlier and every add over a live route; CheckLookups() verifies that
// the parent's lookups agree with what was sent. Messages are forwarded if a next stage is set.
// Threading: single-threaded.
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "bgp/pipeline/bgp_stage.h"
#include "common/status.h"

namespace strata::bgp {

class RecordingStage : public PassThroughStage {
 public:
  enum class Op { kAdd, kReplace, kDelete };
  struct Event {
    Op op;
    BgpRouteRef route;      // the added, new or deleted route
    BgpRouteRef old_route;  // replace only
  };

  explicit RecordingStage(BgpStage* parent = nullptr) : PassThroughStage(parent) {}

  std::string name() const override { return "recording"; }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;

  // Records the hint (events keep their order: a hint's position is prefetched().size() at
  // the time) and passes it on.
  void prefetch(std::span<const IpPrefix> prefixes) override {
    prefetched_.insert(prefetched_.end(), prefixes.begin(), prefixes.end());
    PassThroughStage::prefetch(prefixes);
  }
  const std::vector<IpPrefix>& prefetched() const { return prefetched_; }

  const std::vector<Event>& events() const { return events_; }
  void clear_events() { events_.clear(); }
  // "+10.0.0.0/8 p1" / "=10.0.0.0/8 p2" / "-10.0.0.0/8 p1" (p<peer id>), for expectations.
  std::vector<std::string> EventStrings() const;
  const std::map<IpPrefix, BgpRouteRef>& current() const { return current_; }
  BgpRouteRef current(const IpPrefix& p) const;

  const std::vector<std::string>& violations() const { return violations_; }
  // Rule 2: every prefix ever seen looks up through the parent as the current route or null.
  Status CheckLookups() const;

 private:
  void expect_current(const BgpRouteRef& route, const char* op);

  std::vector<Event> events_;
  std::vector<IpPrefix> prefetched_;
  std::map<IpPrefix, BgpRouteRef> current_;
  std::map<IpPrefix, bool> seen_;
  std::vector<std::string> violations_;
};

}  // namespace strata::bgp
