// PassThroughStage: base for stages with a single parent that hold no routes of their own.
//
// It forwards add_route/delete_route downstream unchanged and answers lookups by asking its
// parent, so it keeps the consistency rules of route_stage.h by construction. Observers (Redist,
// Register, FEA output, RecordingStage) derive from it and act on changes as they pass.
// Threading: single-threaded.
#pragma once

#include "rib/route_stage.h"

namespace strata::rib {

class PassThroughStage : public RouteStage {
 public:
  explicit PassThroughStage(RouteStage* parent = nullptr) : parent_(parent) {}

  void add_route(const RouteRef& route, RouteStage* /*caller*/) override { send_add(route); }
  void delete_route(const RouteRef& route, RouteStage* /*caller*/) override { send_delete(route); }

  RouteRef lookup_route(const IpPrefix& prefix) const override {
    return parent_ ? parent_->lookup_route(prefix) : nullptr;
  }
  RouteRef lookup_best(const IpAddr& addr) const override {
    return parent_ ? parent_->lookup_best(addr) : nullptr;
  }
  RouteRange lookup_range(const IpAddr& addr) const override {
    if (!parent_) return RouteRange{nullptr, IpPrefix::Default(addr.family())};
    return parent_->lookup_range(addr);
  }
  RouteRef lookup_next(const std::optional<IpPrefix>& after) const override {
    return parent_ ? parent_->lookup_next(after) : nullptr;
  }
  void replace_parent(RouteStage* old_parent, RouteStage* new_parent) override {
    if (parent_ == old_parent) parent_ = new_parent;
  }

  RouteStage* parent() const { return parent_; }
  void set_parent(RouteStage* parent) { parent_ = parent; }

 private:
  RouteStage* parent_;
};

}  // namespace strata::rib
