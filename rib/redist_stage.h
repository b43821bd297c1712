// RedistStage: redistributes the RIB's winning routes to clients that ask for them (XORP paper
// 5.2), e.g. static routes into BGP, or every route to a monitoring tool.
//
// A client subscribes with a filter (a set of protocols, optionally a prefix range and a tag) and
// an output. It first receives the current matching routes (a dump, run in slices by the task
// scheduler), then every change, in order, and dump_done() once between them in the stream.
// During a dump, a change to a prefix the dump has already passed is sent at once; a change beyond
// it is left to the dump, which reads the current route when it gets there. The stage keeps no
// index: the dump walks the table upstream with lookup_next.
// Changes are passed downstream unchanged. Threading: single-threaded.
// REQUIRES: outputs do not subscribe or unsubscribe from inside their callbacks.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "common/status.h"
#include "common/task_scheduler.h"
#include "rib/pass_through_stage.h"

namespace strata::rib {

struct RedistFilter {
  std::set<std::string> protocols;  // empty: every protocol
  std::optional<IpPrefix> within;   // only routes inside this prefix
  std::optional<uint32_t> tag;      // only routes with this tag

  bool Matches(const RibRoute& r) const;
};

// Where a subscription's routes go. The lead wires this to IPC for remote protocols.
class RedistOutput {
 public:
  virtual ~RedistOutput() = default;
  virtual void redist_add(const RouteRef& route) = 0;
  virtual void redist_delete(const RouteRef& route) = 0;
  // The initial dump is complete; what follows are changes.
  virtual void redist_dump_done() = 0;
};

class RedistStage : public PassThroughStage {
 public:
  RedistStage(RouteStage* parent, TaskScheduler& scheduler, size_t slice_routes = 1000);

  std::string name() const override { return "redist"; }
  void add_route(const RouteRef& route, RouteStage* caller) override;
  void delete_route(const RouteRef& route, RouteStage* caller) override;

  // Returns the subscription id. REQUIRES: output outlives the subscription.
  uint64_t subscribe(RedistFilter filter, RedistOutput* output);
  Status unsubscribe(uint64_t id);
  size_t subscriptions() const { return subs_.size(); }
  // Prefixes currently present downstream.
  size_t indexed() const { return routes_; }

 private:
  struct Subscription {
    RedistFilter filter;
    RedistOutput* output;
    bool dumping = true;
    std::optional<IpPrefix> dumped_to;  // last prefix the dump has passed
    TaskHandle task;
  };
  bool dump_slice(Subscription& s);
  // True if a change to p should be sent now (false: the dump will cover it).
  static bool passed(const Subscription& s, const IpPrefix& p);

  TaskScheduler& scheduler_;
  size_t slice_routes_;
  size_t routes_ = 0;
  std::map<uint64_t, Subscription> subs_;
  uint64_t next_id_ = 1;
};

}  // namespace strata::rib
