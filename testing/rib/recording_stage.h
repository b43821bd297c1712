// RecordingStage: a test stage that records every message arriving from upstream.
//
// Plumb it at the end of a pipeline (or below any stage under test) instead of comparing golden
// files. It also checks the two consistency rules of route_stage.h: every delete must match a
// route added earlier, and CheckLookups() verifies that the parent's lookups agree with what was
// sent. It forwards messages downstream if a next stage is set. Threading: single-threaded.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "rib/pass_through_stage.h"

namespace strata::rib {

class RecordingStage : public PassThroughStage {
 public:
  enum class Op { kAdd, kDelete };
  struct Event {
    Op op;
    RouteRef route;
  };

  explicit RecordingStage(RouteStage* parent = nullptr) : PassThroughStage(parent) {}

  std::string name() const override { return "recording"; }
  void add_route(const RouteRef& route, RouteStage* caller) override;
  void delete_route(const RouteRef& route, RouteStage* caller) override;

  const std::vector<Event>& events() const { return events_; }
  void clear_events() { events_.clear(); }
  // "+10.0.0.0/8 static" / "-10.0.0.0/8 static" per event, for compact expectations.
  std::vector<std::string> EventStrings() const;
  // The routes currently added and not deleted, by prefix.
  const std::map<IpPrefix, RouteRef>& current() const { return current_; }
  RouteRef current(const IpPrefix& p) const;

  // Rule 1 violations seen so far (a delete without matching add, or an add over a live route).
  const std::vector<std::string>& violations() const { return violations_; }
  // Rule 2: every prefix ever seen looks up (through the parent) as the current route or null.
  Status CheckLookups() const;

 private:
  std::vector<Event> events_;
  std::map<IpPrefix, RouteRef> current_;
  std::map<IpPrefix, bool> seen_;
  std::vector<std::string> violations_;
};

}  // namespace strata::rib
